/**
 * Replaces s3rver 3.7.1's FilesystemStore putObject and putMetadata, which write an object's bytes,
 * its md5 and its metadata in place. A process killed in the middle (reelay up SIGKILLed while a
 * manifest is being put) leaves a partial object under its key or an empty metadata file; s3rver
 * then answers 500 to every listing of the bucket, HeadBucket included, and the stack can never
 * start again. Here each of those files is written beside its place and renamed into it, so a key
 * holds either its old complete object or the new one. The metadata goes first: a new key becomes
 * visible only with its bytes. A copy is made the same way (s3rver's unlinked its destination first),
 * and a read takes an object's size and bytes from one open file.
 */
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { copyFile, mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

/** The members of s3rver's FilesystemStore replaced here (it has more). */
interface Store {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putMetadata(
    bucket: string,
    key: string,
    metadata: Record<string, unknown>,
    md5?: string,
  ): Promise<void>;
  getMetadata(bucket: string, key: string): Promise<unknown>;
  copyObject(
    srcBucket: string,
    srcKey: string,
    destBucket: string,
    destKey: string,
    replacementMetadata: Record<string, unknown> | null,
  ): Promise<unknown>;
  getObject(
    bucket: string,
    key: string,
    options?: { start?: number; end?: number },
  ): Promise<unknown>;
  putObject(object: {
    bucket: string;
    key: string;
    metadata: Record<string, unknown>;
    content: Buffer | Readable;
  }): Promise<{ size: number; md5: string }>;
}

const require = createRequire(import.meta.url);
const S3Object = require("s3rver/lib/models/object") as {
  ALLOWED_METADATA: string[];
  new (
    bucket: string,
    key: string,
    content: Readable | null,
    metadata: Record<string, unknown>,
  ): { range?: { start: number; end: number } };
};
const ALLOWED_METADATA = S3Object.ALLOWED_METADATA;

/** A name beside `path` that s3rver never lists (its objects end in `._S3rver_object`). */
function besides(path: string): string {
  return `${path}.writing-${randomBytes(6).toString("hex")}`;
}

async function replaceFile(path: string, data: string): Promise<void> {
  const temp = besides(path);
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** What s3rver keeps of an object's metadata: the standard headers and x-amz-meta-*. */
function storedMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(metadata).filter(
      ([key]) => ALLOWED_METADATA.includes(key) || key.startsWith("x-amz-meta-"),
    ),
  );
}

/**
 * s3rver's read takes the object's size from one look at its file and its bytes from another: an
 * object replaced in between (a manifest written again while a client reads it) was answered with
 * the new bytes cut at the old size. Here the size and the bytes come from one open file: a read
 * answers the whole object as it was when the read began, as S3 does.
 */
function wholeReads(store: Store): Store["getObject"] {
  return async (bucket, key, options) => {
    const handle = await open(store.getResourcePath(bucket, key, "object"), "r").catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      },
    );
    if (handle === undefined) return null;
    try {
      const size = (await handle.stat()).size;
      const metadata = {
        ...((await store.getMetadata(bucket, key)) as Record<string, unknown>),
        "content-length": size,
      };
      const lastByte = Math.max(0, size - 1);
      const range = {
        start: options?.start ?? 0,
        end: Math.min(options?.end ?? Number.POSITIVE_INFINITY, lastByte),
      };
      const ranged = options !== undefined && (options.start !== undefined || !!options.end);
      const satisfiable = range.start >= 0 && range.end >= range.start;
      const content = satisfiable ? handle.createReadStream({ ...range }) : null;
      if (content === null) await handle.close();
      const found = new S3Object(bucket, key, content, metadata);
      if (ranged) found.range = range;
      return found;
    } catch (error) {
      await handle.close();
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  };
}

/** Makes an s3rver instance's object and metadata writes atomic (renamed into place). */
export function durableWrites(s3rver: object): void {
  const store = (s3rver as { store: Store }).store;
  store.putMetadata = async (bucket, key, metadata, md5) => {
    if (md5) await replaceFile(store.getResourcePath(bucket, key, "object.md5"), md5);
    await replaceFile(
      store.getResourcePath(bucket, key, "metadata.json"),
      JSON.stringify(storedMetadata(metadata), null, 2),
    );
  };

  // s3rver's copy unlinks the destination, then copies the source's bytes in its place: a source
  // deleted between the two (two completes of one upload, one deleting the staged bytes the other
  // copies) left no object at all where the first had made one. Here the bytes are copied beside
  // their place and renamed into it, after the metadata, as putObject does: a failed copy leaves
  // the destination as it was.
  store.copyObject = async (srcBucket, srcKey, destBucket, destKey, replacementMetadata) => {
    const source = (resource: string) => store.getResourcePath(srcBucket, srcKey, resource);
    const target = (resource: string) => store.getResourcePath(destBucket, destKey, resource);
    const path = target("object");
    if (source("object") !== path) {
      await mkdir(dirname(path), { recursive: true });
      const temp = besides(path);
      try {
        await copyFile(source("object"), temp);
        if (replacementMetadata) await store.putMetadata(destBucket, destKey, replacementMetadata);
        else
          for (const resource of ["metadata.json", "object.md5"])
            await replaceFile(target(resource), await readFile(source(resource), "utf8"));
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    } else if (replacementMetadata) {
      await store.putMetadata(destBucket, destKey, replacementMetadata);
    }
    return store.getMetadata(destBucket, destKey);
  };

  store.getObject = wholeReads(store);

  store.putObject = async (object) => {
    const path = store.getResourcePath(object.bucket, object.key, "object");
    await mkdir(dirname(path), { recursive: true });
    const temp = besides(path);
    const hash = createHash("md5");
    let size = 0;
    try {
      const source = Buffer.isBuffer(object.content)
        ? Readable.from([object.content])
        : object.content;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(source, count, createWriteStream(temp));
      const md5 = hash.digest("hex");
      await store.putMetadata(object.bucket, object.key, object.metadata, md5);
      await rename(temp, path);
      return { size, md5 };
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  };
}
