/**
 * The periodic sweep that keeps admission honest whatever crashed: every held slot is checked
 * against its job's record, and every queue entry against its job and its queue limit.
 *
 *   slot of a job that ended, vanished or whose task ended  -> released
 *   slot taken but the job never marked admitted (crash)    -> released after the grace period
 *   job admitted whose execution never began (crash)        -> started again (same execution name)
 *   entry of a job that ended or was admitted               -> deleted
 *   entry older than REELAY_QUEUE_TIMEOUT_S                 -> job failed with queue_timeout, one event
 */
import type { ErrorCode } from "../../domain/error-codes.ts";
import { isReelayError } from "../../domain/errors.ts";
import { isTerminal, type Job } from "../../domain/jobs/types.ts";
import { emitOnce } from "../jobs/job-end.ts";
import type { EventSink } from "../ports.ts";
import type { DispatchDeps } from "./dispatch.ts";
import type { AccountAdmission } from "./admission-control.ts";
import type { QueueEntry } from "../../domain/admission/queue.ts";

export interface SweepDeps extends DispatchDeps {
  events: EventSink;
}

export interface SweepResult {
  released: string[];
  restarted: string[];
  expired: string[];
  dropped: string[];
}

/** Long enough for a dispatcher between its slot write and its admit write, or a Submit to begin. */
const SWEEP_GRACE_MS = 60_000;
/**
 * The step that ends a job's task (Poll) or the job (Finish, RecordFailure) records that end, then
 * frees the slot: a sweep between the two writes must not take that release as a repair of its
 * own. A slot is freed by the sweep once its job's end is this old; a killed step's slot waits
 * this long more.
 */
const SETTLE_MS = 10_000;

export async function sweep(deps: SweepDeps, graceMs = SWEEP_GRACE_MS): Promise<SweepResult> {
  const result: SweepResult = { released: [], restarted: [], expired: [], dropped: [] };
  await sweepSlots(deps, graceMs, result);
  for await (const entry of deps.admission.store.entries()) await sweepEntry(deps, entry, result);
  // A stuck job repaired, by what was done; entries merely dropped were not stuck.
  for (const action of ["released", "restarted", "expired"] as const)
    if (result[action].length > 0)
      deps.metrics.count("reelay_sweep_repairs_total", { action }, result[action].length);
  return result;
}

async function sweepSlots(deps: SweepDeps, graceMs: number, result: SweepResult): Promise<void> {
  for (const account of deps.admission.accounts)
    await sweepAccountSlots(deps, account, graceMs, result);
}

async function sweepAccountSlots(
  deps: SweepDeps,
  account: AccountAdmission,
  graceMs: number,
  result: SweepResult,
): Promise<void> {
  const now = deps.now().getTime();
  const { held } = await account.store.state();
  for (const [jobId, heldAt] of Object.entries(held)) {
    const job = await deps.jobs.get(jobId);
    const old = now - Date.parse(heldAt) > graceMs;
    if (slotIsFree(job, old) && endSettled(job, now)) {
      await deps.admission.release(jobId, account.name);
      result.released.push(jobId);
    } else if (job !== undefined && old && neverBegan(job, now, graceMs)) {
      await deps.starter.start(job);
      result.restarted.push(jobId);
    }
  }
}

/**
 * For the only dispatcher, before its first run (the local stack at start): no admission can be
 * under way, so a slot held by a job that is not admitted is a killed process's leftover and is
 * freed now, not after the grace period. Left held, such slots count against the limit while their
 * jobs wait in the queue behind them: with the limit full of them nothing would be admitted for a
 * minute. Returns the jobs whose slots were freed.
 */
export async function releaseStrandedSlots(
  deps: Pick<SweepDeps, "admission" | "jobs">,
): Promise<string[]> {
  const released: string[] = [];
  for (const account of deps.admission.accounts) {
    const { held } = await account.store.state();
    for (const jobId of Object.keys(held)) {
      if (!slotIsFree(await deps.jobs.get(jobId), true)) continue;
      await deps.admission.release(jobId, account.name);
      released.push(jobId);
    }
  }
  return released;
}

function slotIsFree(job: Job | undefined, old: boolean): boolean {
  if (job === undefined || isTerminal(job.status) || job.upstreamDoneAt !== undefined) return true;
  return old && job.admittedAt === undefined;
}

/** The job's end (its task's, or its own) was recorded at least SETTLE_MS ago, or has no time. */
function endSettled(job: Job | undefined, now: number): boolean {
  const endedAt = job?.upstreamDoneAt ?? job?.finishedAt;
  return endedAt === undefined || now - Date.parse(endedAt) >= SETTLE_MS;
}

function neverBegan(job: Job, now: number, graceMs: number): boolean {
  return (
    job.admittedAt !== undefined &&
    job.submittedAt === undefined &&
    now - Date.parse(job.admittedAt) > graceMs
  );
}

async function sweepEntry(deps: SweepDeps, entry: QueueEntry, result: SweepResult): Promise<void> {
  const job = await deps.jobs.get(entry.jobId);
  if (job === undefined || isTerminal(job.status) || job.admittedAt !== undefined) {
    await deps.admission.store.dequeue(entry.jobId);
    result.dropped.push(entry.jobId);
    return;
  }
  if (Date.parse(entry.expiresAt) > deps.now().getTime()) return;
  const limitS = deps.admission.queueTimeoutSOf(job);
  const setting =
    job.queueTimeoutS !== undefined && job.queueTimeoutS < deps.admission.settings.queueTimeoutS
      ? "queue_timeout_s"
      : "REELAY_QUEUE_TIMEOUT_S";
  try {
    const failed = await deps.jobs.transition(job.id, {
      from: ["queued"],
      to: "failed",
      set: {
        error: {
          code: "queue_timeout" satisfies ErrorCode,
          message: `No upstream slot came free within the queue limit (${setting}, ${limitS} s).`,
        },
        finishedAt: deps.now().toISOString(),
      },
      note: "queue timeout",
    });
    await emitOnce(deps, failed);
    result.expired.push(job.id);
  } catch (error) {
    // Admitted or cancelled meanwhile: that path owns the job now.
    if (!isReelayError(error, "job_conflict")) throw error;
  }
  await deps.admission.store.dequeue(job.id);
}
