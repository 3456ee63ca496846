/**
 * POST /v1/video/generations as one function: validate, record the job, start its execution. A job
 * is either started or failed with `start_failed` before the caller hears back, so nothing is lost
 * silently between the record and the state machine.
 */
import {
  type Reservation,
  estimateOf,
  type Priority,
  type Job,
  type JobWebhook,
} from "@reelay/core/domain";
import {
  type ErrorCode,
  isReelayError,
  ReelayError,
  validate,
  type Issue,
  type ValidationResult,
} from "@reelay/core";
import { createJob, emitOnce } from "@reelay/core/usecases";
import type { Caller, ResolvedDeps } from "./api-deps.ts";
import { assertSameRequest, idempotentJobId, requestHashOf } from "./idempotency.ts";

export interface CreateInput {
  body: unknown;
  caller: Caller;
  idempotencyKey?: string | undefined;
  /** X-Reelay-Priority; absent = normal. */
  priority?: Priority | undefined;
  /** The job this one retries (POST /v1/jobs/{id}/retry). */
  retryOf?: string;
  /** The job's own webhook, already checked (webhook-input.ts). */
  webhook?: JobWebhook | undefined;
}

export function invalidRequest(errors: Issue[]): ReelayError {
  const [first] = errors;
  const more = errors.length > 1 ? ` (+${errors.length - 1} more)` : "";
  return new ReelayError(
    "invalid_request",
    `${first?.message ?? "The request is not valid."}${more}`,
    {
      status: 400,
      ...(first === undefined ? {} : { path: first.path }),
      details: { errors },
    },
  );
}

function wrongEndpoint(): ReelayError {
  return new ReelayError(
    "wrong_endpoint",
    "This is an image request (messages/modalities or an image model); send it to POST /v1/chat/completions. This endpoint creates videos.",
    { status: 400, details: { endpoint: "/v1/chat/completions" } },
  );
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 300);
}

/** The Generation Failed event for a job the API itself failed; recorded so no step emits a second. */
async function announce(deps: ResolvedDeps, job: Job): Promise<void> {
  if (deps.events !== undefined)
    await emitOnce(
      {
        jobs: deps.jobs,
        events: deps.events,
        now: deps.now,
        ...(deps.batchTracker === undefined ? {} : { batches: deps.batchTracker }),
        ...(deps.budgets === undefined ? {} : { budgets: deps.budgets }),
        ...(deps.metrics === undefined ? {} : { metrics: deps.metrics }),
      },
      job,
    );
}

async function start(deps: ResolvedDeps, job: Job): Promise<Job> {
  try {
    await deps.starter.start(job);
    return job;
  } catch (cause) {
    const error = {
      code: "start_failed" satisfies ErrorCode,
      message: `The job was recorded but could not be started (${describe(cause)}).`,
    };
    let failed: Job;
    try {
      failed = await deps.jobs.transition(job.id, {
        from: ["queued"],
        to: "failed",
        set: { error, finishedAt: deps.now().toISOString() },
        note: "start_failed",
      });
    } catch (conflict) {
      // The job moved on from queued: the start went through after all, only its answer was lost.
      if (isReelayError(conflict, "job_conflict")) return deps.jobs.require(job.id);
      throw conflict;
    }
    await announce(deps, failed);
    throw new ReelayError(
      "start_failed",
      `${error.message} The job ${job.id} is marked failed; submit again.`,
      {
        status: 503,
        retryable: true,
        details: { task_id: job.id },
        cause,
      },
    );
  }
}

/**
 * Reserves the request's estimate from the caller's budget and the deployment's; 402
 * budget_exceeded when it does not fit. The job records what it reserved, even nothing, so
 * admission does not reserve for it again.
 */
async function reserve(
  deps: ResolvedDeps,
  validation: ValidationResult,
  caller: Caller,
): Promise<Reservation[] | undefined> {
  const { kind, model, normalized } = validation;
  if (deps.budgets === undefined) return undefined;
  if (kind === null || model === null || normalized === null) return undefined;
  const claims = deps.budgets.claimsFor(caller.keyId, caller.budget);
  if (claims.length === 0) return [];
  const estimate = estimateOf({ model, request: normalized }, deps.prices);
  return deps.budgets.reserve(claims, estimate, deps.now());
}

/**
 * Records the job for a valid request and starts it; shared by every endpoint that creates jobs.
 * A repeat of an idempotency key answers with the first job as it stands. A job still queued may
 * never have been started (a crash between the record and the start), so it is started again:
 * starters are idempotent per job id. `jobId` fixes the id when the caller needs it before the
 * record (uploads stored under it); it must be the idempotent id when a key was given.
 */
export async function recordAndStart(
  deps: ResolvedDeps,
  validation: ValidationResult,
  input: Omit<CreateInput, "body"> & { jobId?: string },
): Promise<{ job: Job; created: boolean }> {
  const key = input.idempotencyKey;
  const kind = validation.kind ?? "video";
  const jobId =
    input.jobId ?? (key === undefined ? undefined : idempotentJobId(kind, input.caller.keyId, key));
  const requestHash = requestHashOf(kind, validation.normalized);
  const reservations = await reserve(deps, validation, input.caller);
  let recorded: { job: Job; created: boolean };
  try {
    recorded = await createJob(deps.jobs, {
      validation,
      source: { type: "api", apiKeyId: input.caller.keyId },
      ...(jobId === undefined ? {} : { jobId }),
      requestHash,
      ...(input.priority === undefined ? {} : { priority: input.priority }),
      ...(deps.prices === undefined ? {} : { prices: deps.prices }),
      ...(reservations === undefined ? {} : { reservations }),
      ...(input.retryOf === undefined ? {} : { retryOf: input.retryOf }),
      ...(input.webhook === undefined ? {} : { webhook: input.webhook }),
      now: deps.now(),
    });
  } catch (error) {
    if (reservations !== undefined) await deps.budgets?.release(reservations);
    throw error;
  }
  const { job, created } = recorded;
  // A repeat finds the first job, which holds its own reservation.
  if (!created && reservations !== undefined) await deps.budgets?.release(reservations);
  if (!created && key !== undefined) assertSameRequest(job, requestHash, key);
  if (!created && job.status !== "queued") return { job, created };
  return { job: await start(deps, job), created };
}

/** A repeated idempotency key with a different payload is 409 `idempotency_conflict` (see recordAndStart). */
export async function createVideoJob(
  deps: ResolvedDeps,
  input: CreateInput,
): Promise<{ job: Job; created: boolean }> {
  const validation = validate(
    input.body,
    deps.catalog === undefined ? {} : { catalog: deps.catalog },
  );
  if (validation.kind === "image") throw wrongEndpoint();
  if (!validation.valid) throw invalidRequest(validation.errors);
  return recordAndStart(deps, validation, input);
}
