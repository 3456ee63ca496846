/**
 * Retrying a job: a new job from a failed or cancelled one's request, with the caller's changes
 * (request fields) laid over it. The same retry of the same job finds the first one (its id
 * derives from the source and the request), and the two are linked both ways (`retryOf`,
 * `retriedBy`). A failure the same request cannot get past (content_policy, invalid_request) is
 * refused with 409 not_retryable unless the changes change the request: retrying it unchanged is
 * money thrown away.
 */
import { createHash } from "node:crypto";
import type { Catalog } from "../../domain/catalog/types.ts";
import { ReelayError } from "../../domain/errors.ts";
import { jobIdFrom } from "../../domain/jobs/ids.ts";
import { type JobOptions, retriedOptions } from "../../domain/jobs/job-options.ts";
import type { Job } from "../../domain/jobs/types.ts";
import { failureClassOf, isRetryableClass } from "../../domain/money/classes.ts";
import { validate, type ValidationResult } from "../../domain/validate/validate-request.ts";
import type { JobStorePort } from "../ports.ts";

export interface RetryJobDeps {
  jobs: Pick<JobStorePort, "update">;
  /** For validate(); the built-in catalog when absent. */
  catalog?: Catalog | undefined;
}

/** The retry's job, made the way its caller makes jobs (submitJob, for that caller). */
export type SubmitRetry = (
  validation: ValidationResult,
  retry: { jobId: string; retryOf: string; options: JobOptions },
) => Promise<{ job: Job; created: boolean }>;

function notRetryable(message: string, details: Record<string, unknown> = {}): ReelayError {
  return new ReelayError("not_retryable", message, { status: 409, details });
}

/** The fields to change, as the caller sent them: nothing, or an object of request fields. */
function changesOf(changes: unknown): Record<string, unknown> {
  if (changes === undefined) return {};
  if (changes === null || typeof changes !== "object" || Array.isArray(changes))
    throw new ReelayError(
      "invalid_request",
      'The body, when given, is an object of request fields to change (e.g. {"prompt": "..."}).',
      { status: 400, path: "" },
    );
  return changes as Record<string, unknown>;
}

/** Only a failed or cancelled job is retried (409 not_retryable). */
function checkEnded(source: Job): void {
  if (source.status !== "failed" && source.status !== "cancelled")
    throw notRetryable(
      `Job ${source.id} is ${source.status}; only a failed or cancelled job is retried.`,
    );
}

/** Refuses an unchanged request whose failure it would repeat (409 not_retryable). */
function checkWorthRetrying(source: Job, changed: boolean): void {
  const failureClass =
    source.status === "failed" && source.error !== undefined
      ? failureClassOf(source.error)
      : undefined;
  if (failureClass !== undefined && !isRetryableClass(failureClass) && !changed)
    throw notRetryable(
      `Job ${source.id} failed with ${failureClass}; the same request would fail the same way. Send the fields to change (e.g. the prompt) in the body.`,
      { class: failureClass },
    );
}

export async function retryJob(
  deps: RetryJobDeps,
  source: Job,
  changes: unknown,
  submit: SubmitRetry,
): Promise<{ job: Job; created: boolean }> {
  checkEnded(source);
  const request = { ...source.request, ...changesOf(changes) };
  checkWorthRetrying(source, JSON.stringify(request) !== JSON.stringify(source.request));
  const validation = validate(request, { catalog: deps.catalog });
  const digest = createHash("sha256").update(JSON.stringify(request)).digest("hex");
  const jobId = jobIdFrom(source.kind, ["retry", source.id, digest]);
  const made = await submit(validation, {
    jobId,
    retryOf: source.id,
    options: retriedOptions(source),
  });
  await deps.jobs.update(source.id, { retriedBy: made.job.id });
  return made;
}
