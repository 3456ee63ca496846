/**
 * The one way a job is made, whichever door it came in by (the API, a batch line, a drop, a retry):
 *
 *   valid? ──no──> 400 invalid_request                          nothing reserved, nothing recorded
 *   room among the key's waiting jobs? (max_queued, queue-quota.ts) ──no──> 429 queue_full     idem
 *   reserve now? (a caller who waits: the API, a retry) ──no room──> 402 budget_exceeded     idem
 *   record (conditional create: a repeat finds the first job; ours is given back, the first keeps its own)
 *   repeat of an idempotency key with another request ──> 409 idempotency_conflict
 *   queue it (the starter: into the admission queue) ──fails──> job failed start_failed, its event, 503
 *
 * That is for a caller who waits for the answer (the API, a retry). A job nobody waits for (a
 * batch's line, a drop) reserves at admission instead (admission/budget-gate.ts), and ends failed
 * budget_exceeded there when it does not fit; when it cannot be queued it stays queued and the
 * error goes up, so the door's own retry (a drop's notification delivered again, the batch made
 * again) finds it by its derived id and queues it: failing it would leave that id spent. A job
 * that waits for a slot past its queue_timeout_s (at most REELAY_QUEUE_TIMEOUT_S) ends failed queue_timeout
 * (admission/queue-sweep.ts). Either way its reservation, if any, is settled when it ends.
 */
import { takeUserCall } from "./user-rate.ts";
import type {
  BudgetLedgerPort,
  Clock,
  EventSink,
  JobQueue,
  JobStorePort,
  KeyLimitsPort,
  Metrics,
} from "../ports.ts";
import type { BatchTracker } from "../batches/batch-progress.ts";
import { emitOnce } from "./job-end.ts";
import type { ErrorCode } from "../../domain/error-codes.ts";
import { invalidRequest, isReelayError, ReelayError } from "../../domain/errors.ts";
import { assertSameRequest, requestHashOf } from "../../domain/jobs/request-hash.ts";
import { givenOptions, type JobOptions } from "../../domain/jobs/job-options.ts";
import type { Job, JobSource } from "../../domain/jobs/types.ts";
import type { Budget } from "../../domain/money/budget-schema.ts";
import { estimateOf } from "../../domain/money/estimate.ts";
import type { PriceTable } from "../../domain/money/prices.ts";
import type { Reservation } from "../../domain/money/types.ts";
import type { ValidationResult } from "../../domain/validate/validate-request.ts";
import {
  fingerprintOf,
  type MaterialDigests,
  reuseScopeOf,
} from "../../domain/jobs/fingerprint.ts";
import { newJobId } from "../../domain/jobs/ids.ts";
import { type ReuseSource, routeReuse } from "../reuse/route-reuse.ts";
import { createJob } from "./create-job.ts";
import { claimQueue, type QueueClaim } from "./queue-quota.ts";
import { currentTraceparent, inSpan } from "../../domain/tracing.ts";

export interface SubmitDeps {
  jobs: JobStorePort;
  /** The keys' and the deployment's budgets (NO_BUDGETS where there are none). */
  budgets: BudgetLedgerPort;
  /** Where the event of a job that could not be queued goes (it ends failed start_failed). */
  events: EventSink;
  /** Counts such a batch job's end toward its batch (NO_BATCHES where there are none). */
  batches: Pick<BatchTracker, "jobEnded">;
  /** Counts such a job's end (noMetrics for none). */
  metrics: Metrics;
  /** Puts a recorded job in the admission queue (the wiring's `queue`); harmless for one queued already. */
  starter: JobQueue;
  now: Clock;
  /** The operator's price table; without one the estimate has usage and no cost. */
  prices?: PriceTable;
  /** In a pool, whether some account serves the model (REELAY_UPSTREAMS `models`); absent = every model. */
  served?: (model: string) => boolean;
  /** Limits per key: a key's max_queued is counted here; absent = none. */
  keyLimits?: KeyLimitsPort;
  /** REELAY_RETENTION_DAYS: a job's retention when its request gives none; absent = kept for good. */
  retentionDays?: number;
}

export interface Submission {
  validation: ValidationResult;
  source: JobSource;
  /** A derived id (an idempotency key's, a batch line's, a drop entry's, a retry's); a fresh one when absent. */
  jobId?: string;
  /** The caller's X-Idempotency-Key: a repeat of it with another request is a conflict. */
  idempotencyKey?: string;
  /** What the caller chose, checked by the caller (the API against REELAY_OUTPUT_BUCKETS, ...). */
  options?: JobOptions;
  /** The batch the job is made for, and its line there. */
  batch?: { id: string; line: number };
  /** The job this one retries. */
  retryOf?: string;
  /** The caller who waits for the answer, whose budgets the estimate is reserved from now. */
  caller?: { keyId: string; budget?: Budget };
  /** Places among the key's waiting jobs counted for a whole batch, one taken by this job; absent = counted here. */
  queueClaim?: QueueClaim;
  /** Materials reelay stored itself, by URL in the normalized request, with their sha256 (the fingerprint's). */
  materials?: MaterialDigests;
}

/** A submitted job: the one recorded now, or (`created: false`) the first one its id made. */
export interface Submitted {
  job: Job;
  created: boolean;
}

/** Reserves the estimate now from the caller's budgets: what the job records, even nothing. */
async function reserve(
  deps: SubmitDeps,
  submission: Submission,
  valid: Pick<ValidationResult, "model" | "normalized">,
): Promise<Reservation[] | undefined> {
  const caller = submission.caller;
  if (caller === undefined || valid.model === null || valid.normalized === null) return undefined;
  const userClaim = await deps.budgets.userClaimOf(caller.keyId, submission.options?.user);
  const claims = [
    ...deps.budgets.claimsFor(caller.keyId, caller.budget),
    ...(userClaim === undefined ? [] : [userClaim]),
  ];
  if (claims.length === 0) return [];
  const estimate = estimateOf({ model: valid.model, request: valid.normalized }, deps.prices);
  return deps.budgets.reserve(claims, estimate, deps.now());
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 300);
}

/**
 * With `reuse`: the job's id (fixed now, so a claim of the lead names it) and the job whose output
 * it copies, if any (usecases/reuse/route-reuse.ts); undefined without `reuse`.
 */
async function reuseOf(
  deps: SubmitDeps,
  submission: Submission,
  fingerprint: string,
): Promise<{ jobId: string; from?: ReuseSource } | undefined> {
  const { validation } = submission;
  const reuseMaxAgeS = submission.options?.reuseMaxAgeS;
  if (reuseMaxAgeS === undefined) return undefined;
  const jobId = submission.jobId ?? newJobId(validation.kind ?? "video");
  const from = await routeReuse(deps.jobs, {
    scope: reuseScopeOf(submission.source),
    fingerprint,
    jobId,
    maxAgeS: reuseMaxAgeS,
    now: deps.now(),
  });
  return from === undefined ? { jobId } : { jobId, from };
}

/** Queues the recorded job; when that fails, the job ends failed start_failed (announced) and 503. */
async function queueOrFail(deps: SubmitDeps, job: Job): Promise<Job> {
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
    await emitOnce(deps, failed);
    throw new ReelayError(
      "start_failed",
      `${error.message} The job ${job.id} is marked failed; submit again.`,
      { status: 503, retryable: true, details: { task_id: job.id }, cause },
    );
  }
}

/** The submission's options, the retention the deployment's when the submission gives none. */
function optionsWithDefaults(
  submission: Submission,
  deps: Pick<SubmitDeps, "retentionDays">,
): JobOptions {
  const retentionDays = submission.options?.retentionDays ?? deps.retentionDays;
  return givenOptions({ ...submission.options, retentionDays });
}

/**
 * Makes the job a submission asks for, or refuses it with nothing left behind. A job found queued
 * (a repeat, or a crash between the record and the queue) is queued again: that is idempotent.
 * Its span's traceparent is kept on the record, so the job's later spans join this trace (a
 * batch's line begins a trace of its own, linked to the request's: one trace a job).
 */
export function submitJob(deps: SubmitDeps, submission: Submission): Promise<Submitted> {
  return inSpan("submit", { newTrace: submission.batch !== undefined }, async (span) => {
    const submitted = await submitUntraced(deps, submission);
    span.noteJob(submitted.job);
    return submitted;
  });
}

/** A job just recorded: its queue claim is taken, and a job on a deprecated model is counted. */
function noteCreated(
  deps: Pick<SubmitDeps, "metrics">,
  validation: ValidationResult,
  claim: QueueClaim | undefined,
): void {
  claim?.taken();
  const asked = validation.deprecation?.model;
  if (asked !== undefined)
    deps.metrics.count("reelay_jobs_on_deprecated_models_total", { model: asked });
}

async function submitUntraced(deps: SubmitDeps, submission: Submission): Promise<Submitted> {
  const { validation } = submission;
  if (!validation.valid || validation.kind === null) throw invalidRequest(validation.errors);
  const model = validation.model;
  if (model !== null && deps.served !== undefined && !deps.served(model))
    throw invalidRequest([
      {
        path: "model",
        code: "no_upstream_account",
        message: `No upstream account of this deployment serves the model ${model} (REELAY_UPSTREAMS models).`,
      },
    ]);
  const requestHash = requestHashOf(validation.kind, validation.normalized);
  const fingerprint = fingerprintOf(
    { kind: validation.kind, model: validation.model ?? "", normalized: validation.normalized },
    submission.materials,
  );
  const reuse = await reuseOf(deps, submission, fingerprint);
  const jobId = reuse?.jobId ?? submission.jobId;
  const claim = await claimAtDoor(deps, submission, jobId);
  let recorded: Submitted;
  let reservations: Reservation[] | undefined;
  try {
    // A reuse is not charged: nothing to reserve.
    if (reuse?.from === undefined) reservations = await reserve(deps, submission, validation);
    recorded = await createJob(deps.jobs, {
      validation,
      source: submission.source,
      requestHash,
      fingerprint,
      ...(reuse?.from === undefined ? {} : { reuse: reuse.from }),
      ...(jobId === undefined ? {} : { jobId }),
      options: optionsWithDefaults(submission, deps),
      ...(submission.batch === undefined ? {} : { batch: submission.batch }),
      ...(submission.retryOf === undefined ? {} : { retryOf: submission.retryOf }),
      ...(deps.prices === undefined ? {} : { prices: deps.prices }),
      ...(reservations === undefined ? {} : { reservations }),
      ...claim?.counted,
      traceparent: currentTraceparent(),
      now: deps.now(),
    });
  } catch (error) {
    if (reservations !== undefined) await deps.budgets.release(reservations);
    // A leader refused before its record: the next identical request may lead at once.
    if (reuse !== undefined && reuse.from === undefined)
      await deps.jobs.reuse
        .release(reuseScopeOf(submission.source), fingerprint, reuse.jobId)
        .catch(() => undefined);
    if (submission.queueClaim === undefined) await claim?.giveBack();
    throw error;
  }
  const { job, created } = recorded;
  if (created) noteCreated(deps, validation, claim);
  // A repeat finds the first job, which was counted when it was made.
  if (submission.queueClaim === undefined) await claim?.giveBack();
  // A repeat finds the first job, which holds its own reservation.
  if (!created && reservations !== undefined) await deps.budgets.release(reservations);
  const key = submission.idempotencyKey;
  if (!created && key !== undefined) assertSameRequest(job, requestHash, key);
  if (job.status !== "queued" || job.admittedAt !== undefined) return { job, created };
  if (submission.caller === undefined) {
    await deps.starter.start(job);
    return { job, created };
  }
  return { job: await queueOrFail(deps, job), created };
}

/**
 * The end user's rate and the queue's places (max_queued) a submission takes before anything is
 * made: a batch's line comes with its batch's claim, and its batch took the call.
 */
async function claimAtDoor(
  deps: SubmitDeps,
  submission: Submission,
  jobId: string | undefined,
): Promise<QueueClaim | undefined> {
  if (submission.queueClaim !== undefined) return submission.queueClaim;
  if (submission.batch === undefined)
    await takeUserCall(deps.keyLimits, submission.source, submission.options?.user, deps.now());
  return claimQueue(
    deps.keyLimits,
    submission.source,
    1,
    async () => jobId !== undefined && (await deps.jobs.get(jobId)) !== undefined,
    submission.options?.user,
  );
}

/** Budgets for a deployment that has none: nothing is ever claimed, reserved or settled. */
export const NO_BUDGETS: BudgetLedgerPort = {
  deployment: undefined,
  claimsFor: () => [],
  claimsOf: async () => [],
  userClaimOf: async () => undefined,
  reserve: async () => [],
  used: async () => 0,
  release: async () => undefined,
  settle: async () => undefined,
};
