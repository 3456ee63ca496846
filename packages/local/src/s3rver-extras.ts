/**
 * s3rver 3.7.1 has no AbortMultipartUpload or ListMultipartUploads. Both are added here over its own
 * on-disk upload folders, so a failed streamed copy really aborts its upload (locally as on AWS) and
 * a test can list what is left. Shared by the local stack and core's test helper.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { S3rverStore } from "./s3rver-multipart.ts";

// s3rver ships no types; these are the few members we use.
export interface KoaContext {
  method: string;
  url: string;
  status: number;
  type: string;
  body: unknown;
}
export type S3rverMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

/** One record of the S3 notification s3rver emits in-process for each created or removed object. */
export interface S3rverEventRecord {
  eventName: string;
  s3: { bucket: { name: string }; object: { key: string; size?: number; eTag?: string } };
}

export interface S3rverInstance {
  store: S3rverStore;
  middleware: S3rverMiddleware[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  on(event: "event", listener: (event: { Records: S3rverEventRecord[] }) => void): void;
}
export type S3rverCtor = new (options: Record<string, unknown>) => S3rverInstance;
/** What the drops need of s3rver: its notifications, from this process or from its child. */
export type S3Notifications = Pick<S3rverInstance, "on">;

const uploadsDir = (dir: string, bucket: string) => join(dir, bucket, "._S3rver_uploads");

/** `dir` is s3rver's `directory`. */
export function multipartExtras(dir: string): S3rverMiddleware {
  return async (ctx, next) => {
    const url = new URL(ctx.url, "http://s3.local");
    const [bucket, ...keyParts] = url.pathname.slice(1).split("/");
    const uploadId = url.searchParams.get("uploadId");
    if (
      ctx.method === "DELETE" &&
      bucket !== undefined &&
      keyParts.length > 0 &&
      uploadId !== null
    ) {
      await rm(join(uploadsDir(dir, bucket), uploadId.replace(/[/\\]/g, "")), {
        recursive: true,
        force: true,
      });
      ctx.status = 204;
      return;
    }
    if (
      ctx.method === "GET" &&
      bucket !== undefined &&
      keyParts.join("") === "" &&
      url.searchParams.has("uploads")
    ) {
      const ids = await readdir(uploadsDir(dir, bucket)).catch(() => [] as string[]);
      const uploads = await Promise.all(
        ids.map(async (id) => {
          const key = await readFile(join(uploadsDir(dir, bucket), id, "key"), "utf8").catch(
            () => "",
          );
          return `<Upload><Key>${key}</Key><UploadId>${id}</UploadId></Upload>`;
        }),
      );
      ctx.type = "application/xml";
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${uploads.join("")}</ListMultipartUploadsResult>`;
      return;
    }
    await next();
  };
}
