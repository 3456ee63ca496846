/**
 * POST /v1/jobs/{id}/retry: a new job from a failed or cancelled one's request, with the body's
 * fields laid over it. The same retry of the same job finds the first one (its id is derived from
 * the source and the request), and the two are linked both ways. A failure the same request cannot
 * get past (content_policy, invalid_request) is refused with 409 not_retryable unless the body
 * changes the request: retrying it unchanged is money thrown away.
 */
import { createHash } from "node:crypto";
import {
  jobIdFrom,
  type Job,
  failureClassOf,
  isRetryableClass,
  ReelayError,
  validate,
  retriedOptions,
} from "@reelay/core/domain";
import { submitForCaller } from "./create.ts";
import type { Caller, ResolvedDeps } from "./api-deps.ts";

function notRetryable(message: string, details: Record<string, unknown> = {}): ReelayError {
  return new ReelayError("not_retryable", message, { status: 409, details });
}

function changesOf(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw new ReelayError(
      "invalid_request",
      'The body, when given, is an object of request fields to change (e.g. {"prompt": "..."}).',
      { status: 400, path: "" },
    );
  return body as Record<string, unknown>;
}

export async function retryJob(
  deps: ResolvedDeps,
  source: Job,
  caller: Caller,
  body: unknown,
): Promise<{ job: Job; created: boolean }> {
  if (source.status !== "failed" && source.status !== "cancelled")
    throw notRetryable(
      `Job ${source.id} is ${source.status}; only a failed or cancelled job is retried.`,
    );
  const request = { ...source.request, ...changesOf(body) };
  const changed = JSON.stringify(request) !== JSON.stringify(source.request);
  const failureClass =
    source.status === "failed" && source.error !== undefined
      ? failureClassOf(source.error)
      : undefined;
  if (failureClass !== undefined && !isRetryableClass(failureClass) && !changed)
    throw notRetryable(
      `Job ${source.id} failed with ${failureClass}; the same request would fail the same way. Send the fields to change (e.g. the prompt) in the body.`,
      { class: failureClass },
    );
  const validation = validate(request, { catalog: deps.catalog });
  const digest = createHash("sha256").update(JSON.stringify(request)).digest("hex");
  const jobId = jobIdFrom(source.kind, ["retry", source.id, digest]);
  const made = await submitForCaller(deps, validation, {
    caller,
    jobId,
    retryOf: source.id,
    options: retriedOptions(source),
  });
  await deps.jobs.update(source.id, { retriedBy: made.job.id });
  return made;
}
