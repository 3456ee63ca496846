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
 * A job that reuses another's output needs no slot and no budget: it starts at once (startReuse).
 *
 * Before its slot, a job not yet holding budget reserves it (budget-gate.ts); one that does not fit
 * ends failed with budget_exceeded and never takes a slot. A job whose key has max_in_flight takes
 * a place among its key's jobs in flight first (in-flight-gate.ts); a key at its limit waits.
 *
 * In a pool the slot is taken on one account (domain/upstreams/routing.ts picks it among those
 * serving the job's model with a free slot, no hold-back and a circuit that lets a create through)
 * and the admit write names it on the job. A job that may have a create accepted on an account
 * (upstreamAccount kept while it waited again) is admitted only there; a job that fell back is
 * never admitted to an account it already tried.
 */
import type { JobStorePort } from "../ports.ts";
import { isReelayError } from "../../domain/errors.ts";
import { isTerminal, type Job } from "../../domain/jobs/types.ts";
import type { ExecutionStarter } from "../ports.ts";
import { type BudgetGateDeps, reserveAtAdmission } from "./budget-gate.ts";
import { takeInFlightPlaces } from "./in-flight-gate.ts";
import type { AdmissionControl } from "./admission-control.ts";
import { effectiveLimit } from "../../domain/admission/settings.ts";
import {
  type AdmissionState,
  type QueueEntry,
  queueStreamOf,
} from "../../domain/admission/queue.ts";
import type { ErrorCode } from "../../domain/error-codes.ts";
import { serves } from "../../domain/upstreams/accounts.ts";
import { circuitState, whileProbing } from "../../domain/upstreams/circuit.ts";
import { type Candidate, chooseAccount } from "../../domain/upstreams/routing.ts";
import { estimateOf } from "../../domain/money/estimate.ts";
import type { PriceTable } from "../../domain/money/prices.ts";
import { emitOnce } from "../jobs/job-end.ts";
import type { AccountAdmission } from "./admission-control.ts";
import { jobAttributes, recordSpan } from "../../domain/tracing.ts";

export interface DispatchDeps extends BudgetGateDeps {
  admission: AdmissionControl;
  jobs: JobStorePort;
  /** Starts executions (StartExecution, or the local interpreter); never the queueing starter. */
  starter: ExecutionStarter;
  now: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** REELAY_PRICES, for `cheapest` routing where an account has no prices of its own. */
  prices?: PriceTable;
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

type Outcome = "admitted" | "skipped" | "passed" | "full" | "too_soon";

/**
 * Admits jobs until the slots are full, the queue is empty, or the rate holds the next one back.
 * Each account's admission item is read once a run and kept up to date with the run's own
 * admissions; they are read again only when a slot write is refused (another writer moved one),
 * since the conditional slot write, not this copy, is what keeps the limit. A slot freed meanwhile
 * wakes another run.
 *
 * Jobs are picked one at a time in the queue's round-robin order, and up to CONCURRENT_ADMITS of
 * them are admitted at once (each admission is five table calls, which one at a time made a burst
 * wait half a second); with a create rate, one at a time, so the spacing holds.
 */
export async function dispatch(deps: DispatchDeps): Promise<DispatchResult> {
  const { admission } = deps;
  for (const account of admission.accounts) await account.store.ensure();
  const rated = admission.accounts.some((account) => account.settings.ratePerS !== undefined);
  const concurrent = rated ? 1 : CONCURRENT_ADMITS;
  const run: Run = {
    states: await readStates(admission.accounts),
    cursor: "",
    admitted: [],
    pending: new Map(),
    claimed: new Map(),
    passed: new Set(),
    fullLanes: new Set(),
    refused: false,
  };
  run.cursor = await startCursor(deps, run);
  const startCursorValue = run.cursor;
  let queueEmpty = false;
  for (
    let round = 0;
    run.failure === undefined &&
    run.admitted.length + run.pending.size < MAX_ADMITS_PER_RUN &&
    round < 2 * MAX_ADMITS_PER_RUN;
    round++
  ) {
    if (run.refused) {
      // A slot write was refused: let the others land, then see the items as they are.
      await Promise.all(run.pending.values());
      run.states = await readStates(admission.accounts);
      run.refused = false;
    }
    const now = deps.now().getTime();
    const room = roomOf(deps, run, now);
    if (room.free <= run.pending.size - run.claimed.size) {
      if (run.pending.size > 0) {
        await settle(run);
        continue;
      }
      if (room.waitMs === undefined) break;
      if (room.waitMs > MAX_IN_RUN_WAIT_MS || deps.sleep === undefined) {
        await keepCursor(deps, run, startCursorValue);
        return { admitted: run.admitted, retryInMs: room.waitMs };
      }
      await deps.sleep(room.waitMs);
      run.states = await readStates(admission.accounts);
      continue;
    }
    const skip = new Set([...run.pending.keys(), ...run.passed]);
    const entry = await admission.store.next(run.cursor, skip, run.fullLanes);
    if (entry === undefined) {
      queueEmpty = run.pending.size === 0 && run.passed.size === 0;
      if (run.pending.size === 0) break;
      await settle(run);
      continue;
    }
    startAdmission(deps, run, entry);
    if (run.pending.size >= concurrent) await settle(run);
  }
  await Promise.all(run.pending.values());
  await keepCursor(deps, run, startCursorValue);
  if (run.failure !== undefined) throw run.failure.error;
  const retry = run.retryInMs === undefined ? {} : { retryInMs: run.retryInMs };
  return queueEmpty ? { admitted: run.admitted, queueEmpty } : { admitted: run.admitted, ...retry };
}

/** One dispatch run's own view: each account's item as its writes left it, and what is under way. */
interface Run {
  states: Map<string, AdmissionState>;
  cursor: string;
  admitted: string[];
  /** Admissions under way, by job id. */
  pending: Map<string, Promise<void>>;
  /** The account each admission under way has chosen, by job id. */
  claimed: Map<string, string>;
  /** Jobs no account can take now (theirs are full): passed over for the rest of the run. */
  passed: Set<string>;
  /**
   * Lanes whose key (or end user: domain/keys/end-users.ts) has as many jobs in flight as its
   * max_in_flight: passed over likewise.
   */
  fullLanes: Set<string>;
  /** When a full lane's place will be given back, for another run then. */
  retryInMs?: number;
  /** A slot write was refused (full, or too soon): the items must be read again. */
  refused: boolean;
  failure?: { error: unknown };
}

async function readStates(
  accounts: readonly AccountAdmission[],
): Promise<Map<string, AdmissionState>> {
  const states = new Map<string, AdmissionState>();
  for (const account of accounts) states.set(account.name, await account.store.state());
  return states;
}

/** The round-robin cursor: on the one-account item itself, or on the queue's item in a pool. */
async function startCursor(deps: DispatchDeps, run: Run): Promise<string> {
  const { admission } = deps;
  if (!admission.isPool) return run.states.get(admission.accounts[0]?.name ?? "")?.cursor ?? "";
  return (await admission.store.state()).cursor;
}

async function keepCursor(deps: DispatchDeps, run: Run, from: string): Promise<void> {
  if (deps.admission.isPool && run.cursor !== from)
    await deps.admission.store.setCursor(run.cursor);
}

async function settle(run: Run): Promise<void> {
  if (run.pending.size > 0) await Promise.race(run.pending.values());
}

function stateOf(run: Run, account: AccountAdmission): AdmissionState {
  return run.states.get(account.name) as AdmissionState;
}

function heldBy(run: Run, account: AccountAdmission): number {
  let claimed = 0;
  for (const name of run.claimed.values()) if (name === account.name) claimed += 1;
  return Object.keys(stateOf(run, account).held).length + claimed;
}

function limitOf(run: Run, account: AccountAdmission): number {
  return effectiveLimit(account.settings, stateOf(run, account).learned);
}

/** Whether the account may take a create now; a half-open circuit takes one, its probe. */
function takesCreates(run: Run, account: AccountAdmission, now: number): boolean {
  const state = stateOf(run, account);
  return state.nextAdmitAt <= now && circuitState(state.circuit, now) !== "open";
}

/**
 * Free slots over the accounts that take creates now; when there are none, how long until a held
 * back account with a free slot takes creates again (undefined: every account is full).
 */
function roomOf(deps: DispatchDeps, run: Run, now: number): { free: number; waitMs?: number } {
  let free = 0;
  let waitMs: number | undefined;
  for (const account of deps.admission.accounts) {
    const open = limitOf(run, account) - heldBy(run, account);
    if (open <= 0) continue;
    if (takesCreates(run, account, now)) {
      free += open;
      continue;
    }
    const state = stateOf(run, account);
    const until = Math.max(state.nextAdmitAt, state.circuit.openUntil);
    waitMs = Math.min(waitMs ?? Number.POSITIVE_INFINITY, Math.max(1, until - now));
  }
  return free > 0 ? { free } : waitMs === undefined ? { free } : { free, waitMs };
}

/** Admits `entry` alongside the run's others; its outcome updates the run when it lands. */
function startAdmission(deps: DispatchDeps, run: Run, entry: QueueEntry): void {
  run.cursor = queueStreamOf(entry);
  const admitting = admitOne(deps, run, entry).then(
    ({ outcome, account }) => {
      const now = deps.now().getTime();
      if (outcome === "admitted" && account !== undefined) {
        run.admitted.push(entry.jobId);
        // What the slot write just set, as state() would read it back.
        const state = stateOf(run, account);
        run.states.set(account.name, {
          ...state,
          held: { ...state.held, [entry.jobId]: new Date(now).toISOString() },
          nextAdmitAt: Math.max(state.nextAdmitAt, now + spacingMs(account)),
        });
      } else if (outcome === "passed") run.passed.add(entry.jobId);
      else if (outcome !== "skipped") run.refused = true;
    },
    (error: unknown) => {
      run.failure ??= { error };
    },
  );
  run.pending.set(
    entry.jobId,
    admitting.finally(() => {
      run.pending.delete(entry.jobId);
      run.claimed.delete(entry.jobId);
    }),
  );
}

function spacingMs(account: AccountAdmission): number {
  const rate = account.settings.ratePerS;
  return rate === undefined ? 0 : Math.ceil(1000 / rate);
}

/** The accounts this job may ever be admitted to: serving its model, not tried, its pinned one only. */
function eligibleAccounts(deps: DispatchDeps, job: Job): AccountAdmission[] {
  const tried = new Set((job.fallbacks ?? []).map((attempt) => attempt.account));
  return deps.admission.accounts.filter(
    (account) =>
      serves(account, job.model) &&
      !tried.has(account.name) &&
      (job.upstreamAccount === undefined || account.name === job.upstreamAccount),
  );
}

/** Where the job goes now (routing.ts), counted in the run at once so parallel admissions spread. */
function choose(
  deps: DispatchDeps,
  run: Run,
  job: Job,
  eligible: AccountAdmission[],
): AccountAdmission | undefined {
  const now = deps.now().getTime();
  const order = deps.admission.accounts;
  const candidates: Candidate[] = [];
  for (const account of eligible) {
    if (!takesCreates(run, account, now)) continue;
    const price = account.prices ?? deps.prices;
    const priceMicros =
      price === undefined ? undefined : (estimateOf(job, price).costMicros ?? undefined);
    candidates.push({
      name: account.name,
      order: order.indexOf(account),
      held: heldBy(run, account),
      limit: limitOf(run, account),
      weight: account.weight,
      ...(priceMicros === undefined ? {} : { priceMicros }),
    });
  }
  const chosen = chooseAccount(candidates, deps.admission.routing);
  return chosen === undefined ? undefined : order.find((a) => a.name === chosen.name);
}

async function admitOne(
  deps: DispatchDeps,
  run: Run,
  entry: QueueEntry,
): Promise<{ outcome: Outcome; account?: AccountAdmission }> {
  const { admission, jobs } = deps;
  const found = await jobs.get(entry.jobId);
  if (found?.reusedFrom !== undefined && !isTerminal(found.status))
    return { outcome: await startReuse(deps, found) };
  const job =
    found === undefined || isTerminal(found.status)
      ? undefined
      : await reserveAtAdmission(deps, found);
  if (job === undefined) {
    await admission.store.dequeue(entry.jobId);
    return { outcome: "skipped" };
  }
  let account = admission.accountOf(job);
  if (job.admittedAt === undefined) {
    const eligible = eligibleAccounts(deps, job);
    if (eligible.length === 0) {
      await unroutable(deps, job);
      await admission.store.dequeue(job.id);
      return { outcome: "skipped" };
    }
    const chosen = choose(deps, run, job, eligible);
    if (chosen === undefined) return { outcome: "passed" };
    account = chosen;
    run.claimed.set(job.id, account.name);
    const now = deps.now().getTime();
    const place = await takeInFlightPlaces(admission.keyLimits, entry, now, run.states.values());
    if ("full" in place) {
      run.fullLanes.add(place.lane);
      // A place given back soon (its job's slot was freed a moment ago): a run then admits the next.
      if (place.retryInMs !== undefined)
        run.retryInMs = Math.min(run.retryInMs ?? Number.POSITIVE_INFINITY, place.retryInMs);
      return { outcome: "passed" };
    }
    const state = stateOf(run, account);
    const probe =
      circuitState(state.circuit, now) === "half_open"
        ? whileProbing(state.circuit, now)
        : undefined;
    const slot = await account.store.acquire(job.id, {
      limit: limitOf(run, account),
      now,
      spacingMs: spacingMs(account),
      lane: queueStreamOf(entry),
      ...(probe === undefined ? {} : { probe }),
    });
    if (slot === "full" || slot === "too_soon") {
      await place.giveBack();
      return { outcome: slot };
    }
    // One probe at a time: the others of this run see the circuit open again.
    if (probe !== undefined)
      run.states.set(account.name, { ...stateOf(run, account), circuit: probe });
  }
  const started = await admit(deps, job, account);
  await admission.store.dequeue(job.id);
  if (started === undefined) return { outcome: "skipped" };
  if (job.admittedAt === undefined) traceWait(found ?? job, started);
  await deps.starter.start(started);
  return { outcome: "admitted", account };
}

/**
 * The job's wait for a slot as a span of its trace, from its creation (after a 429, from the
 * record's last write before this admission: the requeue) to its admission now.
 */
function traceWait(waiting: Job, admitted: Job): void {
  if (admitted.admittedAt === undefined) return;
  const admissions = admitted.admissions ?? 1;
  recordSpan("queue", {
    parent: admitted.traceparent,
    startTime: Date.parse(admissions > 1 ? waiting.updatedAt : admitted.createdAt),
    endTime: Date.parse(admitted.admittedAt),
    attributes: { ...jobAttributes(admitted), "reelay.admissions": admissions },
  });
}

/**
 * A job that reuses another's output (Job.reusedFrom) makes no upstream task: it is started at
 * once, with no slot, no budget and no place in flight, and its execution copies the output.
 * Reported as skipped: it took nothing this run counts.
 */
async function startReuse(deps: DispatchDeps, job: Job): Promise<Outcome> {
  let started: Job | undefined = job;
  if (job.admittedAt === undefined) {
    try {
      started = await deps.jobs.update(
        job.id,
        { admittedAt: deps.now().toISOString() },
        { unlessTerminal: true, unlessSet: "admittedAt", increment: { admissions: 1 } },
      );
    } catch (error) {
      if (!isReelayError(error, "job_conflict")) throw error;
      // Another run admitted it (and started it), or it ended meanwhile.
      started = undefined;
    }
  }
  await deps.admission.store.dequeue(job.id);
  if (started !== undefined) await deps.starter.start(started);
  return "skipped";
}

/** No configured account serves the job's model (or every one was tried): it can never run here. */
async function unroutable(deps: DispatchDeps, job: Job): Promise<void> {
  const tried = (job.fallbacks ?? []).map((attempt) => attempt.account);
  const message =
    tried.length > 0
      ? `Every upstream account that serves ${job.model} was tried (${tried.join(", ")}).`
      : job.upstreamAccount !== undefined
        ? `The job's upstream account "${job.upstreamAccount}" is no longer configured; its create may have been accepted there, so it is not sent elsewhere.`
        : `No upstream account serves the model ${job.model} (REELAY_UPSTREAMS models).`;
  try {
    const failed = await deps.jobs.transition(job.id, {
      from: ["queued"],
      to: "failed",
      set: {
        error: { code: "no_upstream_account" satisfies ErrorCode, message },
        finishedAt: deps.now().toISOString(),
      },
      note: "no upstream account",
    });
    await emitOnce(deps, failed);
  } catch (error) {
    if (!isReelayError(error, "job_conflict")) throw error;
  }
}

/** Marks the job admitted on `account`; a job that ended meanwhile (a cancel) gives its slot back. */
async function admit(
  deps: DispatchDeps,
  job: Job,
  account: AccountAdmission,
): Promise<Job | undefined> {
  if (job.admittedAt !== undefined) return job;
  try {
    return await deps.jobs.update(
      job.id,
      {
        admittedAt: deps.now().toISOString(),
        // The one-account form names no account on its jobs, as before pools.
        ...(deps.admission.isPool || job.upstreamAccount !== undefined
          ? { upstreamAccount: account.name }
          : {}),
        // An account with its own prices prices the job's run there; the budgets settle to it.
        ...(account.prices === undefined ? {} : { estimate: estimateOf(job, account.prices) }),
      },
      { unlessTerminal: true, unlessSet: "admittedAt", increment: { admissions: 1 } },
    );
  } catch (error) {
    if (!isReelayError(error, "job_conflict")) throw error;
    const current = await deps.jobs.get(job.id);
    // Admitted meanwhile by another run: on this account it holds this slot; on another, this one is freed.
    if (
      current !== undefined &&
      !isTerminal(current.status) &&
      current.admittedAt !== undefined &&
      (current.upstreamAccount === undefined || current.upstreamAccount === account.name)
    )
      return current;
    await deps.admission.release(job.id, account.name);
    return undefined;
  }
}
