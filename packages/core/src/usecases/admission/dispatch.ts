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
import type { JobStorePort } from "../ports.ts";
import { isReelayError } from "../../domain/errors.ts";
import { isTerminal, type Job } from "../../domain/jobs/types.ts";
import type { JobStarter } from "../ports.ts";
import { type BudgetGateDeps, reserveAtAdmission } from "./budget-gate.ts";
import type { AdmissionControl } from "./admission-control.ts";
import { effectiveLimit } from "../../domain/admission/settings.ts";
import type { AdmissionState, QueueEntry } from "../../domain/admission/queue.ts";

export interface DispatchDeps extends BudgetGateDeps {
  admission: AdmissionControl;
  jobs: JobStorePort;
  /** Starts executions (StartExecution, or the local interpreter); never the queueing starter. */
  starter: JobStarter;
  now: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

export interface DispatchResult {
  admitted: string[];
  /** The run ended because no job was waiting. */
  queueEmpty?: boolean;
  /** Held back by the create rate or an upstream's Retry-After: try again this many ms from now. */
  retryInMs?: number;
}

/** One run admits at most this many jobs, so a run's time stays bounded; the next wake goes on. */
const MAX_ADMITS_PER_RUN = 200;
/** Jobs one run admits at once when no create rate is set. */
const CONCURRENT_ADMITS = 8;
/** Waits for the create rate inside one run up to this long; longer ones go back to the caller. */
const MAX_IN_RUN_WAIT_MS = 2_000;

type Outcome = "admitted" | "skipped" | "full" | "too_soon";

/**
 * Admits jobs until the slots are full, the queue is empty, or the rate holds the next one back.
 * The admission item is read once a run and kept up to date with the run's own admissions; it is
 * read again only when a slot write is refused (another writer moved it), since the conditional
 * slot write, not this copy, is what keeps the limit. A slot freed meanwhile wakes another run.
 *
 * Jobs are picked one at a time in the queue's round-robin order, and up to CONCURRENT_ADMITS of
 * them are admitted at once (each admission is five table calls, which one at a time made a burst
 * wait half a second); with a create rate, one at a time, so the spacing holds.
 */
export async function dispatch(deps: DispatchDeps): Promise<DispatchResult> {
  const { admission } = deps;
  await admission.store.ensure();
  const concurrent = admission.settings.ratePerS === undefined ? CONCURRENT_ADMITS : 1;
  const run: Run = {
    state: await admission.store.state(),
    admitted: [],
    pending: new Map(),
    refused: false,
  };
  let queueEmpty = false;
  for (
    let round = 0;
    run.failure === undefined &&
    run.admitted.length + run.pending.size < MAX_ADMITS_PER_RUN &&
    round < 2 * MAX_ADMITS_PER_RUN;
    round++
  ) {
    if (run.refused) {
      // A slot write was refused: let the others land, then see the item as it is.
      await Promise.all(run.pending.values());
      run.state = await admission.store.state();
      run.refused = false;
    }
    const limit = effectiveLimit(admission.settings, run.state.learned);
    if (Object.keys(run.state.held).length + run.pending.size >= limit) {
      if (run.pending.size === 0) break;
      await settle(run);
      continue;
    }
    const waitMs = run.state.nextAdmitAt - deps.now().getTime();
    if (waitMs > 0) {
      await Promise.all(run.pending.values());
      if (waitMs > MAX_IN_RUN_WAIT_MS || deps.sleep === undefined)
        return { admitted: run.admitted, retryInMs: waitMs };
      await deps.sleep(waitMs);
      run.state = await admission.store.state();
      continue;
    }
    const entry = await admission.store.next(run.state.cursor, new Set(run.pending.keys()));
    if (entry === undefined) {
      queueEmpty = run.pending.size === 0;
      if (queueEmpty) break;
      await settle(run);
      continue;
    }
    startAdmission(deps, run, entry, limit);
    if (run.pending.size >= concurrent) await settle(run);
  }
  await Promise.all(run.pending.values());
  if (run.failure !== undefined) throw run.failure.error;
  return queueEmpty ? { admitted: run.admitted, queueEmpty } : { admitted: run.admitted };
}

/** One dispatch run's own view: the admission item as its writes left it, and what is under way. */
interface Run {
  state: AdmissionState;
  admitted: string[];
  /** Admissions under way, by job id. */
  pending: Map<string, Promise<void>>;
  /** A slot write was refused (full, or too soon): the item must be read again. */
  refused: boolean;
  failure?: { error: unknown };
}

async function settle(run: Run): Promise<void> {
  if (run.pending.size > 0) await Promise.race(run.pending.values());
}

/** Admits `entry` alongside the run's others; its outcome updates the run when it lands. */
function startAdmission(deps: DispatchDeps, run: Run, entry: QueueEntry, limit: number): void {
  run.state = { ...run.state, cursor: entry.lane };
  const now = deps.now().getTime();
  const admitting = admitOne(deps, entry, limit).then(
    (outcome) => {
      if (outcome === "admitted") {
        run.admitted.push(entry.jobId);
        // What the slot write just set, as state() would read it back.
        run.state = {
          ...run.state,
          held: { ...run.state.held, [entry.jobId]: new Date(now).toISOString() },
          nextAdmitAt: Math.max(run.state.nextAdmitAt, now + spacingMs(deps)),
        };
      } else if (outcome !== "skipped") run.refused = true;
    },
    (error: unknown) => {
      run.failure ??= { error };
    },
  );
  run.pending.set(
    entry.jobId,
    admitting.finally(() => run.pending.delete(entry.jobId)),
  );
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
