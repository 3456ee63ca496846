/**
 * Saves a finished video: streamed to `<file>.part` while hashing (never whole in memory), then
 * renamed only when its sha256 is the one reelay recorded, so a file at the final path is always
 * the job's exact bytes.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable, Transform } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { pipeline } from "node:stream/promises";
import { ReelayError } from "@reelay/core";

export interface SavedFile {
  file: string;
  bytes: number;
  sha256: string;
}

export async function downloadVerified(url: string, file: string, expectedSha256: string): Promise<SavedFile> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new ReelayError("download_failed", `Could not fetch the video from ${new URL(url).origin}: ${String((error as Error).cause ?? error)}.`, { cause: error, retryable: true });
  }
  if (!response.ok || response.body === null) {
    throw new ReelayError("download_failed", `Fetching the video answered HTTP ${response.status}.`, { status: response.status, retryable: response.status >= 500 });
  }
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.part`;
  const hash = createHash("sha256");
  let bytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as ReadableStream), measure, createWriteStream(partial));
  } catch (error) {
    await rm(partial, { force: true });
    throw new ReelayError("download_failed", `The video download broke off after ${bytes} bytes.`, { cause: error, retryable: true });
  }
  const sha256 = hash.digest("hex");
  if (sha256 !== expectedSha256) {
    await rm(partial, { force: true });
    throw new ReelayError("checksum_mismatch", `The downloaded video (${bytes} bytes) has sha256 ${sha256}, but the job recorded ${expectedSha256}; nothing was saved.`);
  }
  await rename(partial, file);
  return { file, bytes, sha256 };
}
