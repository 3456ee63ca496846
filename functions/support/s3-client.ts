/** The functions' S3 client, in a module of its own so that it loads at the bucket's first use (deps.ts). */
import { S3Client } from "@aws-sdk/client-s3";
import { withUnsignedUploads } from "@reelay/core/adapters";

export function functionS3Client(region: string): S3Client {
  return withUnsignedUploads(new S3Client({ region }));
}
