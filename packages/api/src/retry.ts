/**
 * POST /v1/jobs/{id}/retry for a caller: core's retryJob (what may be retried, the retry's id and
 * links), its job made like any the caller creates (submitForCaller), with the source's options.
 */
import type { Job } from "@reelay/core/domain";
import { retryJob } from "@reelay/core/usecases";
import { submitForCaller } from "./create.ts";
import type { Caller, ResolvedDeps } from "./api-deps.ts";

export async function retryJobForCaller(
  deps: ResolvedDeps,
  source: Job,
  caller: Caller,
  body: unknown,
): Promise<{ job: Job; created: boolean }> {
  return retryJob(deps, source, body, (validation, { jobId, retryOf }) =>
    submitForCaller(deps, validation, {
      caller,
      jobId,
      retryOf,
      ...(source.priority === undefined ? {} : { priority: source.priority }),
      // The retry's events go where the source's went.
      ...(source.webhook === undefined ? {} : { webhook: source.webhook }),
      // ... and its outputs are kept as long, and delivered where the source's were to be.
      ...(source.retentionDays === undefined ? {} : { retentionDays: source.retentionDays }),
      ...(source.outputTarget === undefined ? {} : { outputTarget: source.outputTarget }),
    }),
  );
}
