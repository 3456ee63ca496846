/** POST /v1/chat/completions with image modality: validate, then the same record-and-start path as video. */
import { ReelayError, validate } from "@reelay/core/domain";
import type { Job } from "@reelay/core/domain";
import { type DryRun, dryRunOf, submitForCaller, type CreateInput } from "./create.ts";
import type { ResolvedDeps } from "./api-deps.ts";
import { validateOptionsOf } from "./model-choice.ts";

function wrongEndpoint(): ReelayError {
  return new ReelayError(
    "wrong_endpoint",
    "This is a video request (no messages/modalities and a video model); send it to POST /v1/video/generations. This endpoint creates images.",
    { status: 400, details: { endpoint: "/v1/video/generations" } },
  );
}

function imageValidation(deps: ResolvedDeps, input: CreateInput) {
  const validation = validate(input.body, validateOptionsOf(deps, input.caller, input.options));
  if (validation.kind === "video") throw wrongEndpoint();
  return validation;
}

export async function createImageJob(
  deps: ResolvedDeps,
  input: CreateInput,
): Promise<{ job: Job; created: boolean }> {
  return submitForCaller(deps, imageValidation(deps, input), input);
}

/** POST /v1/chat/completions?dry_run=true. */
export function dryRunImage(deps: ResolvedDeps, input: CreateInput): Promise<DryRun> {
  return dryRunOf(deps, imageValidation(deps, input), input.caller);
}
