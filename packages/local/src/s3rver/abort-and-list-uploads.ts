/**
 * Replaces s3rver 3.7.1's answers to AbortMultipartUpload (MethodNotAllowed, the parts left on
 * disk) and ListMultipartUploads (NotImplemented): it has neither operation. A streamed copy that
 * fails must really abort its upload (locally as on AWS), and a test must be able to list what is
 * left, so both are answered here, ahead of s3rver's routing, over its on-disk upload folders.
 * Shared by the local stack and core's test helper.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { S3rverMiddleware } from "./types.ts";

const uploadsDir = (dir: string, bucket: string) => join(dir, bucket, "._S3rver_uploads");

/** The middleware answering both; `dir` is s3rver's `directory`. */
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
