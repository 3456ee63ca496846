/**
 * POST /v1/batches/{id}/retry: a new batch of the completed batch's retryable failures, each line
 * a new job linked both ways with the one it retries (`retryOf`, `retriedBy`), the batches linked
 * by `retry_of`. A failure the same request cannot get past (content_policy, invalid_request,
 * budget_exceeded is retried: the budget may have room now) stays as it is; a job already retried on its own is left to that retry.
 *
 * The retry batch's id, and each of its jobs' ids, derive from the batch and the original line,
 * so the same retry again (a repeated request, one cut short by a crash) finds what the first made
 * and makes only what is missing. Only a completed batch is retried: its failures no longer change.
 */
import {
  batchIdFrom,
  type BatchStorePort,
  type CheckedLine,
  createBatch,
  batchState,
} from "@reelay/core/usecases";
import {
  type Batch,
  jobIdFrom,
  type Job,
  failureClassOf,
  isRetryableClass,
  ReelayError,
  validate,
  retriedOptions,
} from "@reelay/core/domain";
import { type ResolvedDeps, submitDepsOf } from "./api-deps.ts";

function notRetryable(message: string): ReelayError {
  return new ReelayError("not_retryable", message, { status: 409 });
}

/** The new job for `job`'s line in the retry batch `retryId`. */
function retryJobId(retryId: string, job: Job): string {
  return jobIdFrom(job.kind, [retryId, job.batchLine ?? 0]);
}

function isRetryableFailure(job: Job, retryId: string): boolean {
  if (job.status !== "failed" || job.error === undefined) return false;
  if (!isRetryableClass(failureClassOf(job.error))) return false;
  return job.retriedBy === undefined || job.retriedBy === retryJobId(retryId, job);
}

export async function retryBatch(
  deps: ResolvedDeps,
  store: BatchStorePort,
  batch: Batch,
): Promise<Batch> {
  if (batch.finishedAt === undefined)
    throw notRetryable(
      `Batch ${batch.id} is still running; retry its failures once it has completed (or cancel it first).`,
    );
  const retryId = batchIdFrom(["retry", batch.id]);
  const state = await batchState({ batches: store, jobs: deps.jobs }, batch);
  const failures = [...state.jobs.values()]
    .filter((job) => isRetryableFailure(job, retryId))
    .sort((a, b) => (a.batchLine ?? 0) - (b.batchLine ?? 0));
  if (failures.length === 0)
    throw notRetryable(
      `Batch ${batch.id} has no failure a retry can help: none failed, or each failed with a class the same request cannot get past (content_policy, invalid_request), or was retried already.`,
    );
  const lines: CheckedLine[] = failures.map((job) => ({
    line: job.batchLine ?? 0,
    validation: validate(job.request, { catalog: deps.catalog }),
    source: job.source,
    retryOf: job.id,
  }));
  const { batch: made } = await createBatch(
    { batches: store, admission: deps.admission, submit: submitDepsOf(deps), now: deps.now },
    {
      id: retryId,
      source: batch.source,
      options: retriedOptions(batch),
      lines,
      retryOf: batch.id,
    },
  );
  for (const job of failures)
    if (job.retriedBy === undefined)
      await deps.jobs.update(job.id, { retriedBy: retryJobId(retryId, job) });
  return made;
}
