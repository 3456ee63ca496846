/**
 * POST /v1/batches/{id}/retry: core's retryBatch (which failures are retried, the retry's ids and
 * links) on the API's deps, keeping the source batch's options.
 */
import { type BatchStorePort, retryBatch } from "@reelay/core/usecases";
import type { Batch } from "@reelay/core/domain";
import { type ResolvedDeps, submitDepsOf } from "./api-deps.ts";

export function retryBatchOf(
  deps: ResolvedDeps,
  store: BatchStorePort,
  batch: Batch,
): Promise<Batch> {
  return retryBatch(
    {
      batches: store,
      jobs: deps.jobs,
      admission: deps.admission,
      submit: submitDepsOf(deps),
      now: deps.now,
      catalog: deps.catalog,
    },
    batch,
    {
      ...(batch.priority === undefined ? {} : { priority: batch.priority }),
      ...(batch.webhook === undefined ? {} : { webhook: batch.webhook }),
      ...(batch.retentionDays === undefined ? {} : { retentionDays: batch.retentionDays }),
      ...(batch.outputTarget === undefined ? {} : { outputTarget: batch.outputTarget }),
    },
  );
}
