/** s3rver on a folder with reelay's extras; the stack runs it in its own process or in a child (s3rver-child.ts). */
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { multipartExtras, type S3rverCtor, type S3rverInstance } from "./s3rver-extras.ts";
import { durableWrites } from "./s3rver-durable.ts";
import { inPlaceMultipart } from "./s3rver-multipart.ts";

const require = createRequire(import.meta.url);

/** s3rver in this process, with reelay's extras (multipart in place, durable writes). */
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
