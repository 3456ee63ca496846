/**
 * The local stack's bucket, as `reelay drop` uses it: put files into `inbox/`, look for the
 * `rejected/<name>.error.json` a bad prompt file leaves behind. The endpoint and bucket come from
 * /healthz, so the CLI needs no S3 settings of its own.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { ReelayError } from "@reelay/core";
import { localS3Client } from "@reelay/local/aws-standins";
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
  readonly bucket: string;
  readonly #s3: S3Client;

  constructor(s3: S3Client, bucket: string) {
    this.#s3 = s3;
    this.bucket = bucket;
  }

  static fromHealth(health: Health, apiUrl: string): Inbox {
    if (health.s3?.endpoint === undefined || health.s3.bucket === undefined) {
      throw new ReelayError(
        "no_local_s3",
        `${apiUrl} does not name a local S3 endpoint in /healthz; on AWS, upload prompt files to s3://<bucket>/inbox/ with the AWS CLI instead.`,
      );
    }
    return new Inbox(localS3Client(health.s3.endpoint), health.s3.bucket);
  }

  /** Streams the file up; returns the object's etag (part of the ids of the jobs it makes). */
  async put(key: string, file: string): Promise<string> {
    const { size } = await stat(file);
    const extension = file.slice(file.lastIndexOf(".") + 1).toLowerCase();
    const result = await this.#s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(file),
        ContentLength: size,
        ContentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
      }),
    );
    return (result.ETag ?? "").replace(/"/g, "");
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.#s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async readJson(key: string): Promise<unknown> {
    try {
      const object = await this.#s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return JSON.parse((await object.Body?.transformToString("utf8")) ?? "null");
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  close(): void {
    this.#s3.destroy();
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}
