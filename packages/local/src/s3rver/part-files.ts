/**
 * The file work of the in-place multipart patch (in-place-multipart.ts): a part's body written at
 * its offset in batched positional writes, and byte ranges copied between files.
 */
import { open, type FileHandle } from "node:fs/promises";
import type { IncomingMessage } from "node:http";

const WRITE_BATCH = 1024 * 1024;

/**
 * Writes `content` to `file` from `offset`, in positional writes of about WRITE_BATCH bytes (one
 * write in flight while the next batch gathers); returns the byte count. A body of another length
 * than `length` fails, and one longer never writes past its slot (the next part's bytes may be there).
 */
export async function writePart(
  content: IncomingMessage,
  file: FileHandle,
  offset: number,
  length: number | undefined,
): Promise<number> {
  let size = 0;
  let batch: Buffer[] = [];
  let batched = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    const buffers = batch;
    const at = offset + size - batched;
    batch = [];
    batched = 0;
    await writing;
    writing = writeAll(file, buffers, at);
  };
  try {
    for await (const chunk of content as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (length !== undefined && size > length)
        throw new Error(`part body longer than its Content-Length ${length}`);
      batch.push(chunk);
      batched += chunk.length;
      if (batched >= WRITE_BATCH) await flush();
    }
    if (batched > 0) await flush();
  } catch (error) {
    // Settled before the caller closes the file.
    await writing.catch(() => undefined);
    throw error;
  }
  await writing;
  if (length !== undefined && size !== length)
    throw new Error(`part body of ${size} bytes, Content-Length ${length}`);
  return size;
}

/** writev until every byte of `buffers` is at `position` on (a short write continues where it stopped). */
async function writeAll(file: FileHandle, buffers: Buffer[], position: number): Promise<void> {
  let rest = buffers;
  let at = position;
  while (rest.length > 0) {
    const { bytesWritten } = await file.writev(rest, at);
    at += bytesWritten;
    let skip = bytesWritten;
    const next: Buffer[] = [];
    for (const buffer of rest) {
      if (skip >= buffer.length) skip -= buffer.length;
      else {
        next.push(skip > 0 ? buffer.subarray(skip) : buffer);
        skip = 0;
      }
    }
    rest = next;
  }
}

/** Copies `length` bytes of `from` at `start` to `out` at `at`. */
export async function copyRange(
  from: string,
  start: number,
  length: number,
  out: FileHandle,
  at: number,
  buffer: Buffer,
): Promise<void> {
  const input = await open(from, "r");
  try {
    for (let done = 0; done < length; ) {
      const { bytesRead } = await input.read(
        buffer,
        0,
        Math.min(buffer.length, length - done),
        start + done,
      );
      if (bytesRead === 0) throw new Error(`${from} ended early`);
      for (let put = 0; put < bytesRead; )
        put += (await out.write(buffer, put, bytesRead - put, at + done + put)).bytesWritten;
      done += bytesRead;
    }
  } finally {
    await input.close();
  }
}
