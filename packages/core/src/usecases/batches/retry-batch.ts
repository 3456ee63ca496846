/**
 * Retrying a batch: a new batch of the completed batch's retryable failures, each line a new job
 * linked both ways with the one it retries (`retryOf`, `retriedBy`), the batches linked by
 * `retryOf`. A failure the same request cannot get past (content_policy, invalid_request) stays as
 * it is (budget_exceeded is retried: the budget may have room now); a job already retried on its
 * own is left to that retry.
 *
 * The retry batch's id, and each of its jobs' ids, derive from the batch and the original line,
 * so the same retry again (a repeated request, one cut short by a crash) finds what the first made
 * and makes only what is missing. Only a completed batch is retried: its failures no longer change.
 */
import type { Batch } from "../../domain/batches/types.ts";
import type { Catalog } from "../../domain/catalog/types.ts";
import { ReelayError } from "../../domain/errors.ts";
import { jobIdFrom } from "../../domain/jobs/ids.ts";
import { retriedOptions } from "../../domain/jobs/job-options.ts";
import type { Job } from "../../domain/jobs/types.ts";
import { failureClassOf, isRetryableClass } from "../../domain/money/classes.ts";
import { validate } from "../../domain/validate/validate-request.ts";
import type { JobStorePort } from "../ports.ts";
import { batchState } from "./batch-progress.ts";
import {
  batchIdFrom,
  type CheckedLine,
  createBatch,
  type CreateBatchDeps,
} from "./create-batch.ts";

export interface RetryBatchDeps extends CreateBatchDeps {
  jobs: JobStorePort;
  /** For validate(); the built-in catalog when absent. */
  catalog?: Catalog | undefined;
}

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

/** The batch's failures a retry can help, in line order; 409 not_retryable when there are none. */
async function retryableFailures(deps: RetryBatchDeps, batch: Batch, retryId: string) {
  if (batch.finishedAt === undefined)
    throw notRetryable(
      `Batch ${batch.id} is still running; retry its failures once it has completed (or cancel it first).`,
    );
  const state = await batchState(deps, batch);
  const failures = [...state.jobs.values()]
    .filter((job) => isRetryableFailure(job, retryId))
    .sort((a, b) => (a.batchLine ?? 0) - (b.batchLine ?? 0));
  if (failures.length === 0)
    throw notRetryable(
      `Batch ${batch.id} has no failure a retry can help: none failed, or each failed with a class the same request cannot get past (content_policy, invalid_request), or was retried already.`,
    );
  return failures;
}

export async function retryBatch(deps: RetryBatchDeps, batch: Batch): Promise<Batch> {
  const retryId = batchIdFrom(["retry", batch.id]);
  const failures = await retryableFailures(deps, batch, retryId);
  const lines: CheckedLine[] = failures.map((job) => ({
    line: job.batchLine ?? 0,
    validation: validate(job.request, { catalog: deps.catalog }),
    source: job.source,
    retryOf: job.id,
    ...(job.metadata === undefined ? {} : { metadata: job.metadata }),
    ...(job.user === undefined ? {} : { user: job.user }),
  }));
  const { batch: made } = await createBatch(deps, {
    id: retryId,
    source: batch.source,
    options: retriedOptions(batch),
    lines,
    retryOf: batch.id,
  });
  for (const job of failures)
    if (job.retriedBy === undefined)
      await deps.jobs.update(job.id, { retriedBy: retryJobId(retryId, job) });
  return made;
}
