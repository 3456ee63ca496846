/**
 * Job ids for dropped files are derived, not random: the same object notified twice (S3 delivers at
 * least once) yields the same id, and the job store's conditional create turns the second into a
 * no-op. The id is still a ULID: the object's last-modified time, then 80 bits of a hash of
 * bucket, key, etag and line.
 */
import { createHash } from "node:crypto";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export interface DropOrigin {
  bucket: string;
  key: string;
  etag: string;
  /** 1-based line (jsonl) or index in `requests` (json); 0 for a single request. */
  entry: number;
  lastModified: Date;
}

export function dropJobId(kind: "video" | "image", origin: DropOrigin): string {
  const prefix = kind === "video" ? "vidtsk_" : "imgtsk_";
  const etag = origin.etag.replace(/"/g, "");
  const digest = createHash("sha256").update(JSON.stringify([origin.bucket, origin.key, etag, origin.entry])).digest();
  return prefix + encodeTime(origin.lastModified.getTime()) + encodeBits(digest, 80);
}

function encodeTime(ms: number): string {
  let value = Math.max(0, Math.min(Math.floor(ms), 2 ** 48 - 1));
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

function encodeBits(bytes: Buffer, bits: number): string {
  let out = "";
  for (let bit = 0; bit < bits; bit += 5) {
    const byte = bit >> 3;
    const pair = ((bytes[byte] ?? 0) << 8) | (bytes[byte + 1] ?? 0);
    out += CROCKFORD[(pair >> (11 - (bit & 7))) & 31];
  }
  return out;
}
