/**
 * Multipart uploads into s3rver without writing every byte twice. s3rver 3.7.1 stores each part in
 * its own file and, on CompleteMultipartUpload, reads them all back through 64 KiB streams into the
 * object file while hashing the whole object again: for a 1 GiB copy that doubled the disk writes
 * and took longer than the upload itself.
 *
 * Here a part of L bytes (its Content-Length) is written at (n-1)*L in a file for parts of that
 * size. When the parts have one size, as uploaders make them (the last one smaller), nearly all of
 * them are then in place in one file: completing copies the few that are not (the last, which went
 * to its own size's file) to their place, truncates and renames. Other layouts (sizes that differ,
 * gaps in the numbers, no Content-Length) are joined into a new file as s3rver did. The ETag is the
 * one S3 gives a multipart object, md5 of the parts' md5s then "-N", so the object is never hashed
 * again. A listed part that is missing or whose ETag differs fails with InvalidPart (400), as on S3.
 *
 * A part's md5 (its ETag) is taken in a worker thread from the bytes once they are on disk, so the
 * server's thread only moves bytes: md5 runs at about 700 MB/s, and on the main thread it was the
 * largest single cost of a 1 GiB upload. Socket chunks go to the file as they are, in batched
 * positional writes, with no copy into fresh buffers.
 */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, readFile, rename, rm, writeFile, type FileHandle } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Md5Worker } from "./md5-worker.ts";

/** The part of s3rver's FilesystemStore replaced here (it has more). */
export interface S3rverStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putMetadata(
    bucket: string,
    key: string,
    metadata: Record<string, unknown>,
    md5: string,
  ): Promise<void>;
  putPart(
    bucket: string,
    uploadId: string,
    partNumber: string | number,
    content: IncomingMessage,
  ): Promise<{ size: number; md5: string }>;
  putObjectMultipart(
    bucket: string,
    uploadId: string,
    parts: { number: number; etag: string }[],
  ): Promise<{ size: number; md5: string }>;
}

type S3ErrorCtor = new (code: string, message: string, detail?: Record<string, unknown>) => Error;
const require = createRequire(import.meta.url);

const WRITE_BATCH = 1024 * 1024;
/** Copy buffer when parts are moved or joined. */
const COPY_CHUNK = 8 * 1024 * 1024;

/** What is kept per part: its md5 and size, and where its bytes are (a file in the upload folder). */
interface PartRecord {
  md5: string;
  size: number;
  file: string;
  offset: number;
}

const recordFile = (uploadDir: string, n: number) => join(uploadDir, `${n}.part.json`);
const sizedFile = (length: number) => `parts-of-${length}`;

function declaredLength(content: IncomingMessage): number | undefined {
  const raw = content.headers["content-length"];
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/**
 * Writes `content` to `file` from `offset`, in positional writes of about WRITE_BATCH bytes (one
 * write in flight while the next batch gathers); returns the byte count. A body of another length
 * than `length` fails, and one longer never writes past its slot (the next part's bytes may be there).
 */
async function writePart(
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
async function copyRange(
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

/** Replaces the store's putPart and putObjectMultipart (see the file comment). */
export function inPlaceMultipart(store: S3rverStore): void {
  const S3Error = require("s3rver/lib/models/error") as S3ErrorCtor;
  const uploadDirOf = (bucket: string, uploadId: string) =>
    join(store.getResourcePath(bucket, undefined, "uploads"), uploadId);
  const md5 = new Md5Worker();

  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const uploadDir = uploadDirOf(bucket, uploadId);
    const n = Number(partNumber);
    await mkdir(uploadDir, { recursive: true });
    const length = declaredLength(content);
    // A part sent again replaces the earlier one, wherever that one went.
    await rm(recordFile(uploadDir, n), { force: true });
    const file = length === undefined ? `part-${n}` : sizedFile(length);
    const offset = length === undefined ? 0 : (n - 1) * length;
    const path = join(uploadDir, file);
    // Created if missing, never truncated: other parts of the same size are in it.
    const handle = await open(path, constants.O_RDWR | constants.O_CREAT);
    let size: number;
    try {
      size = await writePart(content, handle, offset, length);
    } finally {
      await handle.close();
    }
    const written = { size, md5: await md5.ofRange(path, offset, size) };
    const record: PartRecord = { ...written, file, offset };
    await writeFile(recordFile(uploadDir, n), JSON.stringify(record));
    return written;
  };

  store.putObjectMultipart = async (bucket, uploadId, parts) => {
    const uploadDir = uploadDirOf(bucket, uploadId);
    const [key, metadata] = await Promise.all([
      readFile(join(uploadDir, "key"), "utf8"),
      readFile(join(uploadDir, "metadata"), "utf8").then(
        (text) => JSON.parse(text) as Record<string, unknown>,
      ),
    ]);
    const sorted = [...parts].sort((a, b) => a.number - b.number);
    const records = await Promise.all(
      sorted.map(async (part) => {
        const text = await readFile(recordFile(uploadDir, part.number), "utf8").catch(
          () => undefined,
        );
        const record = text === undefined ? undefined : (JSON.parse(text) as PartRecord);
        if (record === undefined || record.md5 !== part.etag) {
          throw new S3Error(
            "InvalidPart",
            "One or more of the specified parts could not be found or the specified entity tag might not have matched the part's entity tag.",
            { PartNumber: part.number },
          );
        }
        return record;
      }),
    );
    const size = records.reduce((sum, r) => sum + r.size, 0);
    // One part size: parts 1..N, all but the last of part 1's size, the last no larger.
    const partSize = records[0]?.size ?? 0;
    const uniform =
      partSize > 0 &&
      records.every(
        (r, i) =>
          sorted[i]?.number === i + 1 &&
          (i === records.length - 1 ? r.size <= partSize : r.size === partSize),
      );
    const target = uniform ? sizedFile(partSize) : "joined";
    // Uniform: opened as it is (created when part 1 went elsewhere); otherwise a new file.
    const out = await open(
      join(uploadDir, target),
      uniform ? constants.O_RDWR | constants.O_CREAT : "w",
    );
    const buffer = Buffer.allocUnsafe(COPY_CHUNK);
    try {
      let at = 0;
      for (const r of records) {
        // In a uniform upload, only the parts not already at their place are copied.
        if (r.file !== target || r.offset !== at)
          await copyRange(join(uploadDir, r.file), r.offset, r.size, out, at, buffer);
        at += r.size;
      }
      await out.truncate(size);
    } finally {
      await out.close();
    }
    const etag = `${createHash("md5")
      .update(Buffer.concat(records.map((r) => Buffer.from(r.md5, "hex"))))
      .digest("hex")}-${records.length}`;
    const objectPath = store.getResourcePath(bucket, key, "object");
    await mkdir(dirname(objectPath), { recursive: true });
    await store.putMetadata(bucket, key, metadata, etag);
    await rename(join(uploadDir, target), objectPath);
    await rm(uploadDir, { recursive: true, force: true });
    return { size, md5: etag };
  };
}
