/**
 * Uploads signed with UNSIGNED-PAYLOAD. Otherwise the SDK's signer takes a sha256 of every body it
 * holds in memory (each part of a copy, part-size.ts) for the signature: a second pass over every
 * copied byte beside the copy's own sha256 (digest.ts), about 0.6 CPU-s per GiB. S3 accepts it for
 * header-signed requests; over HTTPS the transport protects the bytes, and on AWS the SDK's CRC32
 * of each part, which S3 checks, still goes with it. s3rver never checks the hash either way.
 */
import type { S3Client } from "@aws-sdk/client-s3";

const UPLOAD_COMMANDS = new Set(["PutObjectCommand", "UploadPartCommand"]);

export function withUnsignedUploads(client: S3Client): S3Client {
  client.middlewareStack.add(
    (next, context) => (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (UPLOAD_COMMANDS.has(context.commandName ?? "") && request.headers !== undefined) {
        request.headers["x-amz-content-sha256"] = "UNSIGNED-PAYLOAD";
      }
      return next(args);
    },
    { step: "build", name: "reelayUnsignedUploads" },
  );
  return client;
}
