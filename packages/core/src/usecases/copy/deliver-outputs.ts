/**
 * A job's outputs copied into the caller's own bucket (output.s3_prefix), besides reelay's: inside
 * S3 from the stored copy, once it is verified, so the upstream is read once and a file that fails
 * verification is not delivered. A copy that fails (the bucket's policy, a missing bucket) is a
 * warning, `output_delivery_failed`, and the job still succeeds: its outputs are kept in reelay's
 * bucket, and a failed delivery is no reason to pay for the generation again.
 */
import { deliveredKey, targetUri } from "../../domain/jobs/delivery.ts";
import type { ErrorCode } from "../../domain/error-codes.ts";
import type { Job, JobOutput } from "../../domain/jobs/types.ts";
import type { ObjectStorePort } from "../ports.ts";

/** Names the S3 error without its message, which may quote request ids and ARNs. */
function why(error: unknown): string {
  const e = error as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const status = e?.$metadata?.httpStatusCode;
  const name = typeof e?.name === "string" ? e.name.slice(0, 80) : "an error";
  return typeof status === "number" ? `${name}, HTTP ${status}` : name;
}

export async function deliverOutputs(
  deps: { objects: Pick<ObjectStorePort, "copyOut"> },
  job: Pick<Job, "id" | "outputTarget">,
  verified: Pick<Job, "outputs" | "warnings" | "media">,
): Promise<Pick<Job, "outputs" | "warnings" | "media">> {
  const target = job.outputTarget;
  // A repeated Download delivers again: the warning it may have left before is replaced, not doubled.
  const warnings = verified.warnings.filter((w) => w.code !== "output_delivery_failed");
  if (target === undefined) return verified;
  const outputs: JobOutput[] = [];
  for (const output of verified.outputs ?? []) {
    const copy = { bucket: target.bucket, key: deliveredKey(target, job.id, output.key) };
    try {
      await deps.objects.copyOut(output.key, copy);
      outputs.push({ ...output, delivered: copy });
    } catch (error) {
      outputs.push(output);
      warnings.push({
        path: "output.s3_prefix",
        code: "output_delivery_failed" satisfies ErrorCode,
        message: `${output.key} could not be copied to ${targetUri(target)} (${why(error)}); it is kept in reelay's bucket.`,
      });
    }
  }
  return { ...verified, outputs, warnings };
}
