/**
 * Replaces s3rver 3.7.1's FilesystemStore putPart and putObjectMultipart, which store each part in
 * its own file and, on CompleteMultipartUpload, read them all back through 64 KiB streams into the
 * object file while hashing the whole object again: for a 1 GiB copy that doubles the disk writes
 * and takes longer than the upload itself.
 *
 * Here a part of L bytes (its Content-Length) is written at (n-1)*L in a file for parts of that
 * size. When the parts have one size, as uploaders make them (the last one smaller), nearly all of
 * them are then in place in one file: completing copies the few that are not (the last, which went
 * to its own size's file) to their place, truncates and renames. Other layouts (sizes that differ,
 * gaps in the numbers, no Content-Length) are joined into a new file, as s3rver joins them. The
 * ETag is the one S3 gives a multipart object, md5 of the parts' md5s then "-N", so the object is
 * never hashed again. A listed part that is missing or whose ETag differs fails with InvalidPart
 * (400), as on S3.
 *
 * A part's md5 (its ETag) is taken in a worker thread (md5-worker.ts) from the bytes once they are
 * on disk, so the server's thread only moves bytes: md5 runs at about 700 MB/s, the largest single
 * cost of a 1 GiB upload when on the server's thread. Socket chunks go to the file as they are, in
 * batched positional writes (part-files.ts), with no copy into fresh buffers.
 */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Md5Worker } from "./md5-worker.ts";
import { copyRange, writePart } from "./part-files.ts";

/** A part CompleteMultipartUpload lists. */
type Part = { number: number; etag: string };

/** The members of s3rver's FilesystemStore replaced or used here (it has more). */
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
    parts: Part[],
  ): Promise<{ size: number; md5: string }>;
}

type S3ErrorCtor = new (code: string, message: string, detail?: Record<string, unknown>) => Error;
const require = createRequire(import.meta.url);

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

/** Replaces the store's putPart and putObjectMultipart (see the file comment). */
export function inPlaceMultipart(store: S3rverStore): void {
  const uploadDirOf = (bucket: string, uploadId: string) =>
    join(store.getResourcePath(bucket, undefined, "uploads"), uploadId);
  const md5 = new Md5Worker();
  store.putPart = (bucket, uploadId, partNumber, content) =>
    putPart(uploadDirOf(bucket, uploadId), Number(partNumber), content, md5);
  store.putObjectMultipart = (bucket, uploadId, parts) =>
    completeUpload(store, bucket, uploadDirOf(bucket, uploadId), parts);
}

/** Part `n` at its place in the file for parts of its size (its own file without a Content-Length). */
async function putPart(
  uploadDir: string,
  n: number,
  content: IncomingMessage,
  md5: Md5Worker,
): Promise<{ size: number; md5: string }> {
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
}

/** The listed parts' records in part order; a part missing or of another ETag is InvalidPart. */
async function partRecords(uploadDir: string, sorted: Part[]): Promise<PartRecord[]> {
  return Promise.all(
    sorted.map(async (part) => {
      const text = await readFile(recordFile(uploadDir, part.number), "utf8").catch(
        () => undefined,
      );
      const record = text === undefined ? undefined : (JSON.parse(text) as PartRecord);
      if (record === undefined || record.md5 !== part.etag) {
        const S3Error = require("s3rver/lib/models/error") as S3ErrorCtor;
        throw new S3Error(
          "InvalidPart",
          "One or more of the specified parts could not be found or the specified entity tag might not have matched the part's entity tag.",
          { PartNumber: part.number },
        );
      }
      return record;
    }),
  );
}

/** Part 1's size when the parts have one: parts 1..N, all but the last of that size, the last no larger. */
function uniformSize(sorted: Part[], records: PartRecord[]): number | undefined {
  const partSize = records[0]?.size ?? 0;
  const uniform =
    partSize > 0 &&
    records.every(
      (r, i) =>
        sorted[i]?.number === i + 1 &&
        (i === records.length - 1 ? r.size <= partSize : r.size === partSize),
    );
  return uniform ? partSize : undefined;
}

/** Puts the parts' bytes in order into one file of the upload folder; returns that file's name. */
async function joinParts(
  uploadDir: string,
  sorted: Part[],
  records: PartRecord[],
): Promise<string> {
  const partSize = uniformSize(sorted, records);
  const target = partSize === undefined ? "joined" : sizedFile(partSize);
  // Uniform: opened as it is (created when part 1 went elsewhere); otherwise a new file.
  const out = await open(
    join(uploadDir, target),
    partSize === undefined ? "w" : constants.O_RDWR | constants.O_CREAT,
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
    await out.truncate(at);
  } finally {
    await out.close();
  }
  return target;
}

/** Joins the parts, then renames the joined file into the object's place (its metadata first). */
async function completeUpload(
  store: S3rverStore,
  bucket: string,
  uploadDir: string,
  parts: Part[],
): Promise<{ size: number; md5: string }> {
  const [key, metadata] = await Promise.all([
    readFile(join(uploadDir, "key"), "utf8"),
    readFile(join(uploadDir, "metadata"), "utf8").then(
      (text) => JSON.parse(text) as Record<string, unknown>,
    ),
  ]);
  const sorted = [...parts].sort((a, b) => a.number - b.number);
  const records = await partRecords(uploadDir, sorted);
  const size = records.reduce((sum, r) => sum + r.size, 0);
  const target = await joinParts(uploadDir, sorted, records);
  const etag = `${createHash("md5")
    .update(Buffer.concat(records.map((r) => Buffer.from(r.md5, "hex"))))
    .digest("hex")}-${records.length}`;
  const objectPath = store.getResourcePath(bucket, key, "object");
  await mkdir(dirname(objectPath), { recursive: true });
  await store.putMetadata(bucket, key, metadata, etag);
  await rename(join(uploadDir, target), objectPath);
  await rm(uploadDir, { recursive: true, force: true });
  return { size, md5: etag };
}
