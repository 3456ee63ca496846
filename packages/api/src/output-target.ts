/**
 * Where a job's outputs are also copied: `output: {"s3_prefix": "s3://bucket/prefix/"}` in reelay's
 * own bodies (batches), X-Reelay-Output-S3-Prefix on the contract's create routes (whose bodies are
 * the contract's own). The bucket must be one of REELAY_OUTPUT_BUCKETS.
 */
import { type OutputTarget, parseOutputTarget, ReelayError } from "@reelay/core/domain";
import type { ResolvedDeps } from "./api-deps.ts";

export const OUTPUT_TARGET_HEADER = "X-Reelay-Output-S3-Prefix";

/** A body's `output` object (only `s3_prefix` in it); undefined when absent. */
export function readOutputTarget(
  deps: Pick<ResolvedDeps, "outputBuckets">,
  output: unknown,
  path: string,
): OutputTarget | undefined {
  if (output === undefined) return undefined;
  if (output === null || typeof output !== "object" || Array.isArray(output))
    throw new ReelayError("invalid_output_target", `${path} must be {"s3_prefix": "s3://..."}.`, {
      status: 400,
      path,
    });
  const unknown = Object.keys(output).find((key) => key !== "s3_prefix");
  if (unknown !== undefined)
    throw new ReelayError(
      "invalid_output_target",
      `${path} takes only s3_prefix, not ${unknown.slice(0, 40)}.`,
      { status: 400, path: `${path}.${unknown.slice(0, 40)}` },
    );
  const { s3_prefix } = output as { s3_prefix?: unknown };
  return parseOutputTarget(s3_prefix, deps.outputBuckets ?? [], `${path}.s3_prefix`);
}

/** The header's `s3://bucket/prefix/`; undefined when absent. */
export function readOutputTargetHeader(
  deps: Pick<ResolvedDeps, "outputBuckets">,
  text: string | undefined,
): OutputTarget | undefined {
  if (text === undefined) return undefined;
  return parseOutputTarget(text, deps.outputBuckets ?? [], OUTPUT_TARGET_HEADER);
}
