/**
 * POST /v1/video/generations: validate, then core's one submitJob (reserve, record, queue). A job
 * is either queued or failed with `start_failed` before the caller hears back, so nothing is lost
 * silently between the record and the queue.
 */
import { sourceOf } from "./auth.ts";
import type { Priority, Job, JobWebhook, MaterialDigests, OutputTarget } from "@reelay/core/domain";
import { ReelayError, validate, type ValidationResult } from "@reelay/core/domain";
import { submitJob } from "@reelay/core/usecases";
import { type Caller, type ResolvedDeps, submitDepsOf } from "./api-deps.ts";
import { idempotentJobId } from "./idempotency.ts";

export interface CreateInput {
  body: unknown;
  caller: Caller;
  idempotencyKey?: string | undefined;
  /** X-Reelay-Priority; absent = normal. */
  priority?: Priority | undefined;
  /** X-Reelay-Queue-Timeout (queue-timeout.ts); absent = REELAY_QUEUE_TIMEOUT_S. */
  queueTimeoutS?: number | undefined;
  /** X-Reelay-Reuse (reuse.ts) in seconds; absent = no reuse. */
  reuseMaxAgeS?: number | undefined;
  /** The job this one retries (POST /v1/jobs/{id}/retry). */
  retryOf?: string;
  /** The job's own webhook, already checked (webhook-input.ts). */
  webhook?: JobWebhook | undefined;
  /** X-Reelay-Retention-Days (retention.ts); absent = REELAY_RETENTION_DAYS. */
  retentionDays?: number | undefined;
  /** X-Reelay-Output-S3-Prefix (output-target.ts): where the outputs are copied besides reelay's bucket. */
  outputTarget?: OutputTarget | undefined;
}

function wrongEndpoint(): ReelayError {
  return new ReelayError(
    "wrong_endpoint",
    "This is an image request (messages/modalities or an image model); send it to POST /v1/chat/completions. This endpoint creates videos.",
    { status: 400, details: { endpoint: "/v1/chat/completions" } },
  );
}

/**
 * A job for a caller who waits for the answer (every endpoint that creates one job): submitJob with
 * the estimate reserved from the caller's budgets now (402 when it does not fit). A repeat of an
 * idempotency key answers with the first job as it stands. `jobId` fixes the id when the caller
 * needs it before the record (uploads stored under it); it must be the idempotent id when a key
 * was given.
 */
export async function submitForCaller(
  deps: ResolvedDeps,
  validation: ValidationResult,
  input: Omit<CreateInput, "body"> & { jobId?: string; materials?: MaterialDigests },
): Promise<{ job: Job; created: boolean }> {
  const key = input.idempotencyKey;
  const kind = validation.kind ?? "video";
  const jobId =
    input.jobId ?? (key === undefined ? undefined : idempotentJobId(kind, input.caller.keyId, key));
  return submitJob(submitDepsOf(deps), {
    validation,
    source: { type: "api", ...sourceOf(input.caller) },
    caller: {
      keyId: input.caller.keyId,
      ...(input.caller.budget === undefined ? {} : { budget: input.caller.budget }),
    },
    ...(jobId === undefined ? {} : { jobId }),
    ...(key === undefined ? {} : { idempotencyKey: key }),
    ...(input.priority === undefined ? {} : { priority: input.priority }),
    ...(input.queueTimeoutS === undefined ? {} : { queueTimeoutS: input.queueTimeoutS }),
    ...(input.reuseMaxAgeS === undefined ? {} : { reuseMaxAgeS: input.reuseMaxAgeS }),
    ...(input.materials === undefined ? {} : { materials: input.materials }),
    ...(input.retryOf === undefined ? {} : { retryOf: input.retryOf }),
    ...(input.webhook === undefined ? {} : { webhook: input.webhook }),
    ...(input.retentionDays === undefined ? {} : { retentionDays: input.retentionDays }),
    ...(input.outputTarget === undefined ? {} : { outputTarget: input.outputTarget }),
  });
}

/** A repeated idempotency key with a different payload is 409 `idempotency_conflict` (see submitForCaller). */
export async function createVideoJob(
  deps: ResolvedDeps,
  input: CreateInput,
): Promise<{ job: Job; created: boolean }> {
  const validation = validate(
    input.body,
    deps.catalog === undefined ? {} : { catalog: deps.catalog },
  );
  if (validation.kind === "image") throw wrongEndpoint();
  return submitForCaller(deps, validation, input);
}
