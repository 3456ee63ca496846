/**
 * The Download step's verdict on outputs that parsed: what they are (`media`) and whether that is
 * what the request asked for. A difference is an `output_mismatch` warning on the job, or under
 * REELAY_VERIFY=strict the job's failure: the upstream made and billed the task either way.
 */
import { ReelayError } from "../../domain/errors.ts";
import type { Job, JobOutput } from "../../domain/jobs/types.ts";
import { mediaDifferences, mismatchIssue } from "../../domain/media/types.ts";
import { recordVerificationFailure } from "../metrics/record-metrics.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";

/** The record's fields for the copied outputs; throws output_mismatch under `strict`. */
export function verifiedOutputs(
  deps: Pick<PipelineDeps, "verify" | "metrics">,
  job: Job,
  outputs: JobOutput[],
): Pick<Job, "outputs" | "media" | "warnings"> {
  const media = outputs[0]?.media;
  // A repeated Download judges again: the warning it may have left before is replaced, not doubled.
  const warnings = job.warnings.filter((warning) => warning.code !== "output_mismatch");
  if (media === undefined) return { outputs, warnings };
  const differences = mediaDifferences(media, job.request);
  if (differences.length === 0) return { outputs, media, warnings };
  recordVerificationFailure(deps.metrics, job, "output_mismatch");
  const issue = mismatchIssue(differences);
  if (deps.verify === "strict")
    // Permanent for the step: another download of the same task gets the same file.
    throw new ReelayError("output_mismatch", issue.message, {
      retryable: false,
      details: { differences },
    });
  return { outputs, media, warnings: [...warnings, issue] };
}
