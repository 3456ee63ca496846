/**
 * Trying a job again on another account after its task failed there (REELAY_FALLBACK_ATTEMPTS).
 * A failed task may itself have been billed, so this is off by default, and when on it is allowed
 * only where it cannot pay twice for nothing:
 *
 *   - only after the upstream reported the task failed (a verified end: a timeout never falls back,
 *     the task may still be running and billing);
 *   - only for failure classes that may succeed elsewhere (never content_policy or invalid_request);
 *   - never twice on one account, and only while an untried account serves the model;
 *   - the failed attempt is kept on the job (account, task, charged "unknown", its estimate as
 *     cost) and its reservation stays spent; the next attempt reserves its own at admission.
 *
 * The job goes back to the queue as a new job would, its failed task's fields removed. A crash
 * after that write and before the queue entry is repaired by the Poll that runs again (requeue()).
 */
import { isReelayError } from "../../domain/errors.ts";
import type { Job, JobError, UpstreamAttempt } from "../../domain/jobs/types.ts";
import { estimateOfJob } from "../../domain/money/charge.ts";
import { failureClassOf, isRetryableClass } from "../../domain/money/classes.ts";
import { serves } from "../../domain/upstreams/accounts.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";

/** Whether the rule above lets this job, whose task failed with `error`, try another account. */
export function fallbackAllowed(deps: PipelineDeps, job: Job, error: JobError): boolean {
  const admission = deps.admission;
  if (admission === undefined || !admission.isPool) return false;
  const past = job.fallbacks ?? [];
  if (past.length >= (deps.fallbackAttempts ?? 0)) return false;
  if (!isRetryableClass(failureClassOf(error))) return false;
  const tried = new Set([...past.map((attempt) => attempt.account), admission.accountOf(job).name]);
  return admission.accounts.some(
    (account) => serves(account, job.model) && !tried.has(account.name),
  );
}

/**
 * Records the failed attempt and puts the job back in the queue; false when the job had moved on
 * meanwhile (cancelled, or another step got there first).
 */
export async function fallBack(deps: PipelineDeps, job: Job, error: JobError): Promise<boolean> {
  const admission = deps.admission;
  if (admission === undefined) return false;
  const account = admission.accountOf(job).name;
  const attempt: UpstreamAttempt = {
    account,
    ...(job.upstreamTaskId === undefined ? {} : { taskId: job.upstreamTaskId }),
    outcome: "failed",
    error,
    charged: "unknown",
    costMicros: estimateOfJob(job).costMicros,
    endedAt: deps.now().toISOString(),
  };
  let queued: Job;
  try {
    queued = await deps.jobs.transition(job.id, {
      from: ["running"],
      to: "queued",
      set: {
        fallbacks: [...(job.fallbacks ?? []), attempt],
        // Every create sent so far is accounted for by the failed task: the job may go anywhere untried.
        refusedSends: job.attempts,
        polls: 0,
      },
      remove: [
        "upstreamTaskId",
        "upstreamAccount",
        "admittedAt",
        "submittedAt",
        "deadlineAt",
        "upstreamDoneAt",
        "reservations",
        "lastError",
      ],
      note: `task failed on ${account} (${error.code}); trying another account`,
    });
  } catch (conflict) {
    if (isReelayError(conflict, "job_conflict")) return false;
    throw conflict;
  }
  await requeue(deps, queued, account);
  return true;
}

/** The fallen-back job's queue entry (idempotent) and its old slot freed. */
export async function requeue(deps: PipelineDeps, job: Job, account?: string): Promise<void> {
  const admission = deps.admission;
  if (admission === undefined) return;
  // The slot first, as every requeue does: a dispatcher never finds an entry whose slot is still held.
  await admission.release(job.id, account);
  await admission.enqueue(job);
}
