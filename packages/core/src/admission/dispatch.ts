/**
 * The dispatcher: admits waiting jobs while slots are free, round-robin across lanes, and starts
 * each admitted job's execution. Nothing runs for a job while it waits: its execution starts only
 * here. Each admission is three conditional writes, in an order that a crash between any two
 * leaves something the sweep repairs:
 *
 *   1. slot     admission item  held.<jobId> set, if fewer than the limit are held
 *   2. admit    job record      admittedAt set, if still in progress and not admitted
 *   3. dequeue  queue entry     deleted; then the execution starts (named by job id and admission)
 *
 * Before its slot, a job not yet holding budget reserves it (budget-gate.ts); one that does not fit
 * ends failed with budget_exceeded and never takes a slot.
 */
import { isReelayError } from "../errors.ts";
import type { JobStore } from "../jobs/store.ts";
import { isTerminal, type Job } from "../jobs/types.ts";
import type { JobStarter } from "../ports.ts";
import { type BudgetGateDeps, reserveAtAdmission } from "./budget-gate.ts";
import type { AdmissionControl } from "./control.ts";
import { effectiveLimit } from "./settings.ts";
import type { QueueEntry } from "./store.ts";

export interface DispatchDeps extends BudgetGateDeps {
  admission: AdmissionControl;
  jobs: JobStore;
  /** Starts executions (StartExecution, or the local interpreter); never the queueing starter. */
  starter: JobStarter;
  now: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

export interface DispatchResult {
  admitted: string[];
  /** Held back by the create rate or an upstream's Retry-After: try again this many ms from now. */
  retryInMs?: number;
}

/** One run admits at most this many jobs, so a run's time stays bounded; the next wake goes on. */
const MAX_ADMITS_PER_RUN = 200;
/** Waits for the create rate inside one run up to this long; longer ones go back to the caller. */
const MAX_IN_RUN_WAIT_MS = 2_000;

type Outcome = "admitted" | "skipped" | "full" | "too_soon";

/**
 * Admits jobs until the slots are full, the queue is empty, or the rate holds the next one back.
 * The admission item is read once a run and kept up to date with the run's own admissions; it is
 * read again only when a slot write is refused (another writer moved it), since the conditional
 * slot write, not this copy, is what keeps the limit. A slot freed meanwhile wakes another run.
 */
export async function dispatch(deps: DispatchDeps): Promise<DispatchResult> {
  const { admission } = deps;
  await admission.store.ensure();
  const admitted: string[] = [];
  let state = await admission.store.state();
  for (
    let round = 0;
    admitted.length < MAX_ADMITS_PER_RUN && round < 2 * MAX_ADMITS_PER_RUN;
    round++
  ) {
    const limit = effectiveLimit(admission.settings, state.learned);
    if (Object.keys(state.held).length >= limit) break;
    const waitMs = state.nextAdmitAt - deps.now().getTime();
    if (waitMs > 0) {
      if (waitMs > MAX_IN_RUN_WAIT_MS || deps.sleep === undefined)
        return { admitted, retryInMs: waitMs };
      await deps.sleep(waitMs);
      state = await admission.store.state();
      continue;
    }
    const entry = await admission.store.next(state.cursor);
    if (entry === undefined) break;
    const now = deps.now().getTime();
    const outcome = await admitOne(deps, entry, limit);
    if (outcome === "admitted") {
      admitted.push(entry.jobId);
      // What the slot write just set, as state() would read it back.
      state = {
        ...state,
        held: { ...state.held, [entry.jobId]: new Date(now).toISOString() },
        nextAdmitAt: Math.max(state.nextAdmitAt, now + spacingMs(deps)),
        cursor: entry.lane,
      };
    } else if (outcome !== "skipped") state = await admission.store.state();
  }
  return { admitted };
}

function spacingMs(deps: DispatchDeps): number {
  const rate = deps.admission.settings.ratePerS;
  return rate === undefined ? 0 : Math.ceil(1000 / rate);
}

async function admitOne(deps: DispatchDeps, entry: QueueEntry, limit: number): Promise<Outcome> {
  const { admission, jobs } = deps;
  const found = await jobs.get(entry.jobId);
  const job =
    found === undefined || isTerminal(found.status)
      ? undefined
      : await reserveAtAdmission(deps, found);
  if (job === undefined) {
    await admission.store.dequeue(entry.jobId);
    return "skipped";
  }
  if (job.admittedAt === undefined) {
    const now = deps.now().getTime();
    const slot = await admission.store.acquire(job.id, {
      limit,
      now,
      spacingMs: spacingMs(deps),
      lane: entry.lane,
    });
    if (slot === "full" || slot === "too_soon") return slot;
  }
  const started = await admit(deps, job);
  await admission.store.dequeue(job.id);
  if (started === undefined) return "skipped";
  await deps.starter.start(started);
  return "admitted";
}

/** Marks the job admitted; a job that ended meanwhile (a cancel) gives its slot back. */
async function admit(deps: DispatchDeps, job: Job): Promise<Job | undefined> {
  if (job.admittedAt !== undefined) return job;
  try {
    return await deps.jobs.update(
      job.id,
      { admittedAt: deps.now().toISOString() },
      { unlessTerminal: true, unlessSet: "admittedAt", increment: { admissions: 1 } },
    );
  } catch (error) {
    if (!isReelayError(error, "job_conflict")) throw error;
    const current = await deps.jobs.get(job.id);
    if (current !== undefined && !isTerminal(current.status) && current.admittedAt !== undefined)
      return current;
    await deps.admission.release(job.id);
    return undefined;
  }
}
