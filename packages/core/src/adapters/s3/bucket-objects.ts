/**
 * The bucket through the S3 client and its commands: small puts, streamed multipart uploads, reads
 * and presigned links. ObjectStore (object-store.ts) loads this module at its first call.
 */
import type { ObjectStorePort } from "../../usecases/ports.ts";
import type {
  CopyOptions,
  ObjectInfo,
  ObjectMetadata,
  ObjectTags,
  UploadOptions,
  PresignedPut,
  PresignPutOptions,
  StoredObject,
} from "../../usecases/ports.ts";
import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { ReelayError } from "../../domain/errors.ts";
import { afterPartFilled } from "./copier-gc.ts";
import { ByteDigest } from "./digest.ts";
import { MAX_PARTS, partSizeFor } from "./part-size.ts";

/** Parts uploading at once; one more buffer fills meanwhile. */
const QUEUE_SIZE = 2;

/** Tags as S3's x-amz-tagging wants them: a URL query string; undefined for none. */
function tagging(tags: ObjectTags | undefined): { Tagging?: string } {
  if (tags === undefined || Object.keys(tags).length === 0) return {};
  return { Tagging: new URLSearchParams(tags).toString() };
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}

export class BucketObjects implements ObjectStorePort {
  readonly bucket: string;
  readonly #s3: S3Client;

  constructor(s3: S3Client, bucket: string) {
    this.#s3 = s3;
    this.bucket = bucket;
  }

  async put(
    key: string,
    body: string | Uint8Array,
    options: { contentType: string; tags?: ObjectTags; metadata?: ObjectMetadata },
  ): Promise<void> {
    await this.#s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: options.contentType,
        ...tagging(options.tags),
        ...(options.metadata === undefined ? {} : { Metadata: { ...options.metadata } }),
      }),
    );
  }

  async putJson(key: string, value: unknown, options: { tags?: ObjectTags } = {}): Promise<void> {
    await this.put(key, `${JSON.stringify(value, null, 2)}\n`, {
      contentType: "application/json",
      ...(options.tags === undefined ? {} : { tags: options.tags }),
    });
  }

  async copyOut(key: string, target: { bucket: string; key: string }): Promise<void> {
    await this.#s3.send(
      new CopyObjectCommand({
        Bucket: target.bucket,
        Key: target.key,
        CopySource: `${this.bucket}/${encodeURIComponent(key).replaceAll("%2F", "/")}`,
        TaggingDirective: "REPLACE",
      }),
    );
  }

  /** The object's bytes as a stream; `object_not_found` (404) when absent. */
  async getStream(key: string): Promise<ObjectInfo & { body: Readable }> {
    try {
      const answer = await this.#s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = answer.Body;
      if (!(body instanceof Readable)) throw new Error("S3 GetObject returned no Node stream");
      return {
        bucket: this.bucket,
        key,
        bytes: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? "application/octet-stream",
        body,
      };
    } catch (error) {
      if (isNotFound(error)) throw this.#notFound(key);
      throw error;
    }
  }

  /** Size and type, or undefined when there is no such object. */
  async head(
    key: string,
  ): Promise<(ObjectInfo & { etag?: string; metadata?: ObjectMetadata }) | undefined> {
    try {
      const answer = await this.#s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        bucket: this.bucket,
        key,
        bytes: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? "application/octet-stream",
        ...(answer.ETag === undefined ? {} : { etag: answer.ETag }),
        ...(answer.Metadata === undefined ? {} : { metadata: answer.Metadata }),
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async copy(from: string, to: string, options: CopyOptions = {}): Promise<void> {
    // CopySource is URL-encoded, each path segment on its own so the slashes stay.
    const source = [this.bucket, ...from.split("/")].map(encodeURIComponent).join("/");
    try {
      await this.#s3.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: source,
          // The copy's own retention, not the source's: REPLACE with none given leaves it untagged.
          TaggingDirective: "REPLACE",
          ...tagging(options.tags),
          ...(options.replace === undefined
            ? {}
            : {
                MetadataDirective: "REPLACE",
                ContentType: options.replace.contentType,
                Metadata: { ...options.replace.metadata },
              }),
        }),
      );
    } catch (error) {
      if (isNotFound(error)) throw this.#notFound(from);
      throw error;
    }
  }

  presignGet(key: string, ttlS: number): Promise<string> {
    return getSignedUrl(this.#s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: Math.max(1, Math.floor(ttlS)),
    });
  }

  /**
   * The SDK's presigner with the length and type signed as headers (not hoisted into the query), so
   * a PUT of any other body is refused by S3's signature check; the checksum header, when given,
   * makes S3 check the bytes' sha256 as they arrive.
   */
  async presignPut(key: string, options: PresignPutOptions): Promise<PresignedPut> {
    const checksum =
      options.sha256 === undefined
        ? undefined
        : Buffer.from(options.sha256, "hex").toString("base64");
    const headers: Record<string, string> = { "content-type": options.contentType };
    if (checksum !== undefined) headers["x-amz-checksum-sha256"] = checksum;
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentType: options.contentType,
      ContentLength: options.bytes,
      ...(checksum === undefined ? {} : { ChecksumSHA256: checksum }),
    });
    const url = await getSignedUrl(this.#s3, command, {
      expiresIn: Math.max(1, Math.floor(options.ttlS)),
      signableHeaders: new Set(["content-type", "content-length"]),
      unhoistableHeaders: new Set(Object.keys(headers)),
    });
    return { url, headers };
  }

  /**
   * Streams `body` into the bucket, hashing and counting on the way: one PutObject when it is
   * smaller than a part, otherwise a multipart upload of 8 MiB parts (see partSizeFor), QUEUE_SIZE in flight while one
   * more fills. The part buffers are allocated once per upload and reused, so memory stays flat
   * whatever the size and a 1 GiB copy does not churn 128 fresh part buffers through the garbage
   * collector (lib-storage's Upload did, and spent more time collecting than copying). The body is
   * read as plain chunks (any Readable or async iterable), with no stream layer between it and the
   * part buffers. The last part is sent only after the source ended with the expected byte count,
   * so a short or long body never completes an object; on any error the multipart upload is
   * aborted, so no object and no orphaned parts are left, and the error is thrown.
   */
  async uploadStream(
    key: string,
    body: AsyncIterable<Uint8Array>,
    options: UploadOptions,
  ): Promise<StoredObject> {
    const digest = new ByteDigest(options.expectedBytes);
    const parts = new PartUploads(
      this.#s3,
      { Bucket: this.bucket, Key: key },
      { ContentType: options.contentType, ...tagging(options.tags) },
      partSizeFor(options.expectedBytes),
    );
    try {
      let buffer = parts.freeBuffer();
      let filled = 0;
      // Leaving the loop by an error stops the source (a Readable is destroyed).
      for await (const chunk of body) {
        digest.update(chunk);
        for (let at = 0; at < chunk.length; ) {
          const n = Math.min(chunk.length - at, buffer.length - filled);
          buffer.set(chunk.subarray(at, at + n), filled);
          filled += n;
          at += n;
          if (filled === buffer.length) {
            afterPartFilled();
            await parts.send(buffer, filled);
            buffer = await parts.nextBuffer();
            filled = 0;
          }
        }
      }
      digest.finish();
      await parts.finish(buffer, filled);
    } catch (error) {
      await parts.abort();
      throw error;
    }
    return {
      bucket: this.bucket,
      key,
      bytes: digest.bytes,
      sha256: digest.sha256,
      contentType: options.contentType,
    };
  }

  #notFound(key: string): ReelayError {
    return new ReelayError("object_not_found", `No object ${key} in bucket ${this.bucket}.`, {
      status: 404,
      details: { key },
    });
  }
}

/** One upload's parts: a PutObject when it all fit in one buffer, else a multipart upload. */
class PartUploads {
  readonly #s3: S3Client;
  readonly #target: { Bucket: string; Key: string };
  /** The new object's content type and tags. */
  readonly #meta: { ContentType: string; Tagging?: string };
  readonly #partSize: number;
  readonly #free: Buffer[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  readonly #done: CompletedPart[] = [];
  #allocated = 0;
  #creating: Promise<string> | undefined;
  #next = 1;
  #failure: { error: unknown } | undefined;

  constructor(
    s3: S3Client,
    target: { Bucket: string; Key: string },
    meta: { ContentType: string; Tagging?: string },
    partSize: number,
  ) {
    this.#s3 = s3;
    this.#target = target;
    this.#meta = meta;
    this.#partSize = partSize;
  }

  /** A buffer to fill: a returned one, or a new one while fewer than QUEUE_SIZE + 1 exist. */
  freeBuffer(): Buffer {
    const reused = this.#free.pop();
    if (reused !== undefined) return reused;
    this.#allocated++;
    return Buffer.allocUnsafe(this.#partSize);
  }

  /** Waits until a buffer is free (a part finished) and returns it. */
  async nextBuffer(): Promise<Buffer> {
    while (this.#free.length === 0 && this.#allocated > QUEUE_SIZE && this.#inFlight.size > 0) {
      this.#throwIfFailed();
      await Promise.race(this.#inFlight);
    }
    this.#throwIfFailed();
    return this.freeBuffer();
  }

  /** Starts uploading `buffer[0, length)` as the next part; waits while QUEUE_SIZE are in flight. */
  async send(buffer: Buffer, length: number): Promise<void> {
    while (this.#inFlight.size >= QUEUE_SIZE) await Promise.race(this.#inFlight);
    this.#throwIfFailed();
    const partNumber = this.#next++;
    if (partNumber > MAX_PARTS) {
      throw new ReelayError(
        "object_too_large",
        `The object is larger than ${MAX_PARTS} parts of ${this.#partSize} bytes.`,
        { details: { key: this.#target.Key } },
      );
    }
    this.#creating ??= this.#s3
      .send(new CreateMultipartUploadCommand({ ...this.#target, ...this.#meta }))
      .then((answer) => answer.UploadId ?? "");
    const part = this.#creating
      .then((uploadId) =>
        this.#s3.send(
          new UploadPartCommand({
            ...this.#target,
            UploadId: uploadId,
            PartNumber: partNumber,
            Body: buffer.subarray(0, length),
          }),
        ),
      )
      .then(
        (answer) => {
          this.#done.push({ PartNumber: partNumber, ETag: answer.ETag ?? "" });
          this.#free.push(buffer);
        },
        (error: unknown) => {
          this.#failure ??= { error };
        },
      )
      .finally(() => this.#inFlight.delete(part));
    this.#inFlight.add(part);
  }

  /** The source ended cleanly: stores the rest, as one object or as the last part. */
  async finish(buffer: Buffer, length: number): Promise<void> {
    if (this.#creating === undefined) {
      await this.#s3.send(
        new PutObjectCommand({
          ...this.#target,
          Body: buffer.subarray(0, length),
          ...this.#meta,
        }),
      );
      return;
    }
    if (length > 0) await this.send(buffer, length);
    await Promise.all(this.#inFlight);
    this.#throwIfFailed();
    const parts = [...this.#done].sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
    await this.#s3.send(
      new CompleteMultipartUploadCommand({
        ...this.#target,
        UploadId: await this.#creating,
        MultipartUpload: { Parts: parts },
      }),
    );
  }

  /** Lets the parts in flight settle, then aborts the multipart upload, if one was started. */
  async abort(): Promise<void> {
    if (this.#creating === undefined) return;
    await Promise.allSettled(this.#inFlight);
    const uploadId = await this.#creating.catch(() => undefined);
    if (uploadId === undefined) return;
    await this.#s3
      .send(new AbortMultipartUploadCommand({ ...this.#target, UploadId: uploadId }))
      .catch(() => undefined);
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure.error;
  }
}
