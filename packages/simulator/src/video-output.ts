import { createHash, type Hash } from "node:crypto";
import { readFileSync } from "node:fs";

/** A real, playable 2 s H.264 MP4 (see fixtures/make-fixtures.sh): served when a request names no shape. */
export const VIDEO_FIXTURE: Buffer = readFileSync(
  new URL("../fixtures/video.mp4", import.meta.url),
);

const SMALL_BOX_MAX = 0xffff_ffff;
const CHUNK = 64 * 1024;
const ZEROS = Buffer.alloc(CHUNK);

/**
 * The size actually served for a requested `outputBytes`. Padding is one MP4 `free` box, which needs
 * at least its 8-byte header, so a request 1-7 bytes above the fixture rounds up to fixture + 8.
 */
export function videoSize(requested: number | undefined, clip: Buffer = VIDEO_FIXTURE): number {
  const base = clip.length;
  if (requested === undefined || !Number.isFinite(requested) || requested <= base) return base;
  return Math.max(Math.floor(requested), base + 8);
}

interface Layout {
  header: Buffer;
  zeros: number;
  tail: Buffer;
}

/** clip | free-box header | zeros | task id: the id at the end makes every task's bytes distinct. */
function layout(size: number, taskId: string, clip: Buffer): Layout | undefined {
  const boxSize = size - clip.length;
  if (boxSize <= 0) return undefined;
  let header: Buffer;
  if (boxSize <= SMALL_BOX_MAX) {
    header = Buffer.alloc(8);
    header.writeUInt32BE(boxSize, 0);
    header.write("free", 4, "latin1");
  } else {
    // Boxes over 4 GiB use size 1 and a 64-bit "largesize" after the type.
    header = Buffer.alloc(16);
    header.writeUInt32BE(1, 0);
    header.write("free", 4, "latin1");
    header.writeBigUInt64BE(BigInt(boxSize), 8);
  }
  const payload = boxSize - header.length;
  const id = Buffer.from(taskId, "utf8");
  const tail = id.length <= payload ? id : Buffer.alloc(0);
  return { header, zeros: payload - tail.length, tail };
}

/** The output's bytes in order, produced chunk by chunk so 1 GiB never sits in memory. */
export function* videoChunks(
  size: number,
  taskId: string,
  clip: Buffer = VIDEO_FIXTURE,
): Generator<Buffer> {
  yield clip;
  const l = layout(size, taskId, clip);
  if (l === undefined) return;
  yield l.header;
  let left = l.zeros;
  while (left > 0) {
    const n = Math.min(left, CHUNK);
    yield n === CHUNK ? ZEROS : ZEROS.subarray(0, n);
    left -= n;
  }
  if (l.tail.length > 0) yield l.tail;
}

// Hash state after clip + header + zeros, shared by every task of the same clip, size and id length.
const prefixHashes = new Map<string, Hash>();

/** sha256 of videoChunks(size, taskId), hashing the shared zero run once per size. */
export function videoSha256(size: number, taskId: string, clip: Buffer = VIDEO_FIXTURE): string {
  const l = layout(size, taskId, clip);
  if (l === undefined) return createHash("sha256").update(clip).digest("hex");
  const key = `${createHash("sha256").update(clip).digest("hex")}:${size}:${l.zeros}`;
  let prefix = prefixHashes.get(key);
  if (prefix === undefined) {
    prefix = createHash("sha256").update(clip).update(l.header);
    let left = l.zeros;
    while (left > 0) {
      const n = Math.min(left, CHUNK);
      prefix.update(n === CHUNK ? ZEROS : ZEROS.subarray(0, n));
      left -= n;
    }
    if (prefixHashes.size > 16) prefixHashes.clear();
    prefixHashes.set(key, prefix);
  }
  return prefix.copy().update(l.tail).digest("hex");
}
