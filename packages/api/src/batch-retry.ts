/**
 * POST /v1/batches/{id}/retry: core's retryBatch (which failures are retried, the retry's ids and
 * links, the options it keeps) on the API's deps.
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
  );
}
