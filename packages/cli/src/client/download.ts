/**
 * Saves a finished video: streamed to `<file>.part` while hashing (never whole in memory), then
 * renamed only when its size and sha256 are the ones reelay recorded, so a file at the final path
 * is always the job's exact bytes.
 */
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { pipeline } from "node:stream/promises";
import { ReelayError } from "@reelay/core/domain";
import { DigestStream } from "@reelay/core/adapters";

export interface SavedFile {
  file: string;
  bytes: number;
  sha256: string;
}

export interface Expected {
  sha256: string;
  bytes: number;
}

export async function downloadVerified(
  url: string,
  file: string,
  expected: Expected,
): Promise<SavedFile> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new ReelayError(
      "download_failed",
      `Could not fetch the video from ${new URL(url).origin}: ${String((error as Error).cause ?? error)}.`,
      { cause: error, retryable: true },
    );
  }
  if (!response.ok || response.body === null) {
    throw new ReelayError(
      "download_failed",
      `Fetching the video answered HTTP ${response.status}.`,
      { status: response.status, retryable: response.status >= 500 },
    );
  }
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.part`;
  const digest = new DigestStream(expected.bytes);
  try {
    await pipeline(
      Readable.fromWeb(response.body as ReadableStream),
      digest,
      createWriteStream(partial),
    );
  } catch (error) {
    await rm(partial, { force: true });
    const reason = error instanceof Error ? error.message : String(error);
    throw new ReelayError(
      "download_failed",
      `The video download failed after ${digest.bytes} bytes (${reason}); nothing was saved.`,
      { cause: error, retryable: true },
    );
  }
  const { sha256, bytes } = digest;
  if (sha256 !== expected.sha256) {
    await rm(partial, { force: true });
    throw new ReelayError(
      "checksum_mismatch",
      `The downloaded video (${bytes} bytes) has sha256 ${sha256}, but the job recorded ${expected.sha256}; nothing was saved.`,
    );
  }
  await rename(partial, file);
  return { file, bytes, sha256 };
}
