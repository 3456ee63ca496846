/**
 * The one bucket reelay writes to: small puts, streamed multipart uploads, reads and presigned
 * links. The S3 commands (and, given a source, the client) load at the first call: about 140 KB of
 * the SDK's S3 code and schemas that a Lambda cold start would otherwise compile and run, while
 * Submit, Poll, Dispatch and the webhook sender never touch the bucket. The functions that use it
 * on every call load it as they start instead (functions/support/bucket.ts).
 */
import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import type {
  CopyOptions,
  ObjectInfo,
  ObjectMetadata,
  ObjectStorePort,
  ObjectTags,
  PresignedPut,
  PresignPutOptions,
  StoredObject,
  UploadOptions,
} from "../../usecases/ports.ts";
import type { BucketObjects } from "./bucket-objects.ts";

export { PART_SIZE, partSizeFor } from "./part-size.ts";

/** An S3 client, or what makes one at the bucket's first use. */
export type S3ClientSource = S3Client | (() => Promise<S3Client>);

export class ObjectStore implements ObjectStorePort {
  readonly bucket: string;
  readonly #s3: S3ClientSource;
  #objects: Promise<BucketObjects> | undefined;

  constructor(s3: S3ClientSource, bucket: string) {
    this.#s3 = s3;
    this.bucket = bucket;
  }

  /** The S3 commands, for a process that uses the bucket on every call to load as it starts. */
  static loadModule(): Promise<unknown> {
    return import("./bucket-objects.ts");
  }

  /** The S3-bound store, loaded once; a failed load is tried again at the next call. */
  load(): Promise<BucketObjects> {
    this.#objects ??= Promise.all([
      import("./bucket-objects.ts"),
      typeof this.#s3 === "function" ? this.#s3() : this.#s3,
    ]).then(
      ([{ BucketObjects }, s3]) => new BucketObjects(s3, this.bucket),
      (error: unknown) => {
        this.#objects = undefined;
        throw error;
      },
    );
    return this.#objects;
  }

  async put(
    key: string,
    body: string | Uint8Array,
    options: { contentType: string; tags?: ObjectTags; metadata?: ObjectMetadata },
  ) {
    return (await this.load()).put(key, body, options);
  }

  async putJson(key: string, value: unknown, options?: { tags?: ObjectTags }): Promise<void> {
    return (await this.load()).putJson(key, value, options);
  }

  async copyOut(key: string, target: { bucket: string; key: string }): Promise<void> {
    return (await this.load()).copyOut(key, target);
  }

  async getStream(key: string): Promise<ObjectInfo & { body: Readable }> {
    return (await this.load()).getStream(key);
  }

  async head(
    key: string,
  ): Promise<(ObjectInfo & { etag?: string; metadata?: ObjectMetadata }) | undefined> {
    return (await this.load()).head(key);
  }

  async delete(key: string): Promise<void> {
    return (await this.load()).delete(key);
  }

  async copy(from: string, to: string, options?: CopyOptions): Promise<void> {
    return (await this.load()).copy(from, to, options);
  }

  async presignGet(key: string, ttlS: number): Promise<string> {
    return (await this.load()).presignGet(key, ttlS);
  }

  async presignPut(key: string, options: PresignPutOptions): Promise<PresignedPut> {
    return (await this.load()).presignPut(key, options);
  }

  async uploadStream(
    key: string,
    body: AsyncIterable<Uint8Array>,
    options: UploadOptions,
  ): Promise<StoredObject> {
    return (await this.load()).uploadStream(key, body, options);
  }
}
