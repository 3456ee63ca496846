/** The one bucket reelay writes to: small puts, streamed multipart uploads, reads and presigned links. */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { ReelayError } from "../errors.ts";
import { DigestStream } from "./digest.ts";

export const PART_SIZE = 8 * 1024 * 1024;
export const QUEUE_SIZE = 2;

export interface ObjectInfo {
  bucket: string;
  key: string;
  bytes: number;
  contentType: string;
}

export interface StoredObject extends ObjectInfo {
  sha256: string;
}

export interface UploadOptions {
  contentType: string;
  /** When given, any other byte count fails the upload (and aborts it). */
  expectedBytes?: number;
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}

export class ObjectStore {
  readonly bucket: string;
  readonly #s3: S3Client;

  constructor(s3: S3Client, bucket: string) {
    this.#s3 = s3;
    this.bucket = bucket;
  }

  async put(key: string, body: string | Uint8Array, options: { contentType: string }): Promise<void> {
    await this.#s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: options.contentType }));
  }

  async putJson(key: string, value: unknown): Promise<void> {
    await this.put(key, `${JSON.stringify(value, null, 2)}\n`, { contentType: "application/json" });
  }

  /** The object's bytes as a stream; `object_not_found` (404) when absent. */
  async getStream(key: string): Promise<ObjectInfo & { body: Readable }> {
    try {
      const answer = await this.#s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = answer.Body;
      if (!(body instanceof Readable)) throw new Error("S3 GetObject returned no Node stream");
      return { bucket: this.bucket, key, bytes: answer.ContentLength ?? 0, contentType: answer.ContentType ?? "application/octet-stream", body };
    } catch (error) {
      if (isNotFound(error)) throw this.#notFound(key);
      throw error;
    }
  }

  /** Size and type, or undefined when there is no such object. */
  async head(key: string): Promise<(ObjectInfo & { etag?: string }) | undefined> {
    try {
      const answer = await this.#s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        bucket: this.bucket,
        key,
        bytes: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? "application/octet-stream",
        ...(answer.ETag === undefined ? {} : { etag: answer.ETag }),
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  presignGet(key: string, ttlS: number): Promise<string> {
    return getSignedUrl(this.#s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: Math.max(1, Math.floor(ttlS)) });
  }

  /**
   * Streams `body` into a multipart upload (8 MiB parts, 2 in flight, so memory stays near 16 MiB
   * whatever the size), hashing and counting on the way. On any error the multipart upload is
   * aborted, so no object and no orphaned parts are left, and the error is thrown.
   */
  async uploadStream(key: string, body: Readable, options: UploadOptions): Promise<StoredObject> {
    const digest = new DigestStream(options.expectedBytes);
    const feeding = pipeline(body, digest);
    const upload = new Upload({
      client: this.#s3,
      params: { Bucket: this.bucket, Key: key, Body: digest, ContentType: options.contentType },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    // Upload aborts its multipart upload when its input fails; when Upload fails first, its input is
    // destroyed so the source stops too. The source's error is the more telling one, so it wins.
    const uploading = upload.done().catch((error: unknown) => {
      digest.destroy(error instanceof Error ? error : new Error(String(error)));
      throw error;
    });
    const [fed, uploaded] = await Promise.allSettled([feeding, uploading]);
    if (fed.status === "rejected" || uploaded.status === "rejected") {
      if (!body.destroyed) body.destroy();
      throw fed.status === "rejected" ? fed.reason : (uploaded as PromiseRejectedResult).reason;
    }
    return { bucket: this.bucket, key, bytes: digest.bytes, sha256: digest.sha256, contentType: options.contentType };
  }

  #notFound(key: string): ReelayError {
    return new ReelayError("object_not_found", `No object ${key} in bucket ${this.bucket}.`, { status: 404, details: { key } });
  }
}
