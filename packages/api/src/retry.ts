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
  return retryJob(deps, source, body, (validation, retry) =>
    submitForCaller(deps, validation, { caller, ...retry }),
  );
}
