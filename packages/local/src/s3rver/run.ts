/**
 * s3rver on a folder with reelay's patches, one file each in this folder; the stack runs it in its
 * own process or in a child (child.ts).
 */
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { multipartExtras } from "./abort-and-list-uploads.ts";
import { durableWrites } from "./durable-writes.ts";
import { inPlaceMultipart } from "./in-place-multipart.ts";
import type { S3rverCtor, S3rverInstance } from "./types.ts";

const require = createRequire(import.meta.url);

/** s3rver in this process, with reelay's patches. */
export async function runS3rver(
  directory: string,
  host: string,
  port: number,
): Promise<{ s3rver: S3rverInstance; address: AddressInfo }> {
  const S3rver = require("s3rver") as S3rverCtor;
  const s3rver = new S3rver({ address: host, port, silent: true, directory, resetOnClose: false });
  s3rver.middleware.unshift(multipartExtras(directory));
  durableWrites(s3rver);
  inPlaceMultipart(s3rver.store);
  return { s3rver, address: await s3rver.run() };
}
