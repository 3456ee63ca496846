/**
 * The local stack's bucket, as `reelay drop` uses it: put files into `inbox/`, look for the
 * `rejected/<name>.error.json` a bad prompt file leaves behind. The endpoint and bucket come from
 * /healthz, so the CLI needs no S3 settings of its own; the reads and writes are core's ObjectStore.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { isReelayError, ReelayError } from "@reelay/core/domain";
import { ObjectStore } from "@reelay/core/adapters";
import { localS3Client } from "@reelay/local/aws-clients";
import type { Health } from "./types.ts";

const CONTENT_TYPES: Record<string, string> = {
  json: "application/json",
  jsonl: "application/x-ndjson",
  txt: "text/plain; charset=utf-8",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  mp3: "audio/mpeg",
  wav: "audio/wav",
};

export class Inbox {
  readonly #objects: ObjectStore;
  readonly #close: () => void;

  constructor(objects: ObjectStore, close: () => void = () => undefined) {
    this.#objects = objects;
    this.#close = close;
  }

  get bucket(): string {
    return this.#objects.bucket;
  }

  static fromHealth(health: Health, apiUrl: string): Inbox {
    if (health.s3?.endpoint === undefined || health.s3.bucket === undefined) {
      throw new ReelayError(
        "no_local_s3",
        `${apiUrl} does not name a local S3 endpoint in /healthz; on AWS, upload prompt files to s3://<bucket>/inbox/ with the AWS CLI instead.`,
      );
    }
    const s3 = localS3Client(health.s3.endpoint);
    return new Inbox(new ObjectStore(s3, health.s3.bucket), () => s3.destroy());
  }

  /** Streams the file up; returns the object's etag as the stack will see it (part of its jobs' ids). */
  async put(key: string, file: string): Promise<string> {
    const { size } = await stat(file);
    const extension = file.slice(file.lastIndexOf(".") + 1).toLowerCase();
    const contentType = CONTENT_TYPES[extension] ?? "application/octet-stream";
    await this.#objects.uploadStream(key, createReadStream(file), {
      contentType,
      expectedBytes: size,
    });
    // Gone already means the stack read it and rejected it; its error file tells the rest.
    const head = await this.#objects.head(key);
    return (head?.etag ?? "").replace(/"/g, "");
  }

  async exists(key: string): Promise<boolean> {
    return (await this.#objects.head(key)) !== undefined;
  }

  async readJson(key: string): Promise<unknown> {
    try {
      const { body } = await this.#objects.getStream(key);
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch (error) {
      if (isReelayError(error, "object_not_found")) return undefined;
      throw error;
    }
  }

  close(): void {
    this.#close();
  }
}
