/**
 * `output.s3_prefix`: a job's outputs copied into the caller's own bucket, besides reelay's, under
 * `<prefix><job id>/<file name>` (the job id keeps jobs that share a prefix apart). Only buckets
 * the deployment lists in REELAY_OUTPUT_BUCKETS, which the stack grants s3:PutObject on.
 */
import { ReelayError } from "../errors.ts";
import type { OutputTarget } from "./job-options.ts";

/** S3's own bucket naming rules (3-63 lowercase letters, digits, dots and hyphens). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_URI = /^s3:\/\/([^/]+)\/(.*)$/;
/** S3 keys are at most 1024 bytes; the job id and file name need about 60 of them. */
const MAX_PREFIX_BYTES = 900;

export function isBucketName(name: string): boolean {
  return BUCKET_NAME.test(name) && !name.includes("..");
}

function invalid(path: string, message: string): ReelayError {
  return new ReelayError("invalid_output_target", message, { status: 400, path });
}

/**
 * `s3://bucket/prefix/` checked against the deployment's allowed buckets. The prefix is taken as a
 * folder: one that does not end with `/` gets one.
 */
export function parseOutputTarget(
  value: unknown,
  allowed: readonly string[],
  path: string,
): OutputTarget {
  const match = typeof value === "string" ? S3_URI.exec(value.trim()) : null;
  const bucket = match?.[1];
  const rawPrefix = match?.[2];
  if (bucket === undefined || rawPrefix === undefined || !isBucketName(bucket))
    throw invalid(path, `${path} must be an S3 location: s3://<bucket>/<prefix>/.`);
  if (!allowed.includes(bucket)) {
    throw new ReelayError(
      "output_bucket_not_allowed",
      allowed.length === 0
        ? `${path} names bucket ${bucket}, but this deployment delivers to no bucket of its users (REELAY_OUTPUT_BUCKETS is empty).`
        : `${path} names bucket ${bucket}, which is not among the buckets this deployment may write (REELAY_OUTPUT_BUCKETS: ${allowed.join(", ")}).`,
      { status: 400, path },
    );
  }
  const prefix = rawPrefix === "" || rawPrefix.endsWith("/") ? rawPrefix : `${rawPrefix}/`;
  if (new TextEncoder().encode(prefix).length > MAX_PREFIX_BYTES || prefix.startsWith("/"))
    throw invalid(
      path,
      `${path}'s prefix must not start with / and is at most ${MAX_PREFIX_BYTES} bytes.`,
    );
  return { bucket, prefix };
}

/** The key of an output's copy in the target: `<prefix><job id>/<its file name in outputs/>`. */
export function deliveredKey(target: OutputTarget, jobId: string, outputKey: string): string {
  const name = outputKey.slice(outputKey.lastIndexOf("/") + 1);
  return `${target.prefix}${jobId}/${name}`;
}

/** The job's target shown back as the caller wrote it. */
export function targetUri(target: OutputTarget): string {
  return `s3://${target.bucket}/${target.prefix}`;
}
