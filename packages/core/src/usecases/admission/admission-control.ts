/**
 * What the rest of reelay asks of admission: put a job in the queue, free its slot when its
 * upstream task ends, put it back when a create met a 429, learn from clean creates, and say where
 * a waiting job stands. Every call that frees a slot or adds a job wakes the dispatcher.
 *
 *   create ──enqueue──> queue ──dispatch: slot + admittedAt──> execution: Submit ── 429 ──> requeue
 *                                                                          │
 *                           slot freed <── Poll (task ended), Finish, RecordFailure, cancel
 *
 * In a pool (REELAY_UPSTREAMS) every account has its own slots, learned limit, hold-back and
 * circuit, in its own admission item; the queue is one, so fairness holds over the whole pool.
 * A create an account certainly did not accept puts the job back too, free to go elsewhere.
 */
import type { AdmissionStorePort, JobStorePort, KeyLimitsPort } from "../ports.ts";
import { isReelayError } from "../../domain/errors.ts";
import type { Job } from "../../domain/jobs/types.ts";
import type { Clock, DispatchWaker } from "../ports.ts";
import {
  type AdmissionSettings,
  afterCleanCreate,
  afterRateLimited,
  effectiveLimit,
  MAX_HOLD_MS,
  type Priority,
} from "../../domain/admission/settings.ts";
import type { QueueEntry } from "../../domain/admission/queue.ts";
import {
  DEFAULT_ACCOUNT,
  serves,
  type Routing,
  type UpstreamAccount,
} from "../../domain/upstreams/accounts.ts";
import {
  afterFailure,
  CLOSED,
  circuitState,
  type CircuitState,
} from "../../domain/upstreams/circuit.ts";
import {
  type LastProblem,
  type ProblemKind,
  type RecentProblems,
  redactedMessage,
} from "../../domain/upstreams/problems.ts";

/** What is kept of a failed create: its code and a short redacted message, never a key. */
function problemOf(kind: ProblemKind, error: unknown, at: Date): LastProblem {
  const fallback = kind === "rate_limited" ? "upstream_rate_limited" : "upstream_unavailable";
  const code = isReelayError(error) ? error.code : fallback;
  const message =
    error instanceof Error
      ? redactedMessage(error.message)
      : kind === "rate_limited"
        ? "The account answered 429."
        : "The create failed.";
  return { kind, code, message, at: at.toISOString() };
}

/** After a create it certainly refused, an account takes no new create for this long. */
const REFUSED_HOLD_MS = 2_000;

/** How old a copy of the admission item a clean create may learn from. */
const RECENT_STATE_MS = 250;

/** Drops wait behind people: they default to low priority, the API and the CLI to normal. */
export function priorityOf(job: Pick<Job, "priority" | "source">): Priority {
  return job.priority ?? (job.source.type === "drop" ? "low" : "normal");
}

/** Still waiting for a slot: never admitted, or put back in the queue by a 429. */
export function isWaiting(job: Pick<Job, "status" | "admittedAt">): boolean {
  return job.status === "queued" && job.admittedAt === undefined;
}

/** Jobs are served round-robin across lanes: one per API key, one for drops. */
export function laneOf(job: Pick<Job, "source">): string {
  return job.source.apiKeyId ?? job.source.type;
}

/** One account of the pool, as admission sees it. */
export interface AccountAdmission
  extends Pick<UpstreamAccount, "name" | "models" | "weight" | "prices"> {
  store: AdmissionStorePort;
  settings: Pick<AdmissionSettings, "concurrency" | "ratePerS">;
}

interface AccountSnapshot {
  name: string;
  limit: number;
  limitSource: "configured" | "learned";
  ratePerS: number | null;
  held: number;
  heldBackUntil: string | null;
  circuit: CircuitState;
  circuitFailures: number;
  circuitOpenUntil: string | null;
}

export interface AdmissionSnapshot {
  /** Upstream tasks in flight at most, now. */
  limit: number;
  limitSource: "configured" | "learned";
  ratePerS: number | null;
  /** Jobs holding a slot. */
  held: string[];
  /** Jobs waiting for one. */
  queued: number;
  /** Set while a create rate or an upstream's Retry-After holds admissions back. */
  heldBackUntil: string | null;
  /** Each account on its own (one, `default`, in the one-account form). */
  accounts: AccountSnapshot[];
}

export interface AdmissionControlDeps {
  store: AdmissionStorePort;
  jobs: JobStorePort;
  settings: AdmissionSettings;
  waker: DispatchWaker;
  now: Clock;
  /** A pool's accounts, in REELAY_UPSTREAMS's order; absent = one account on `store` and `settings`. */
  accounts?: readonly AccountAdmission[];
  routing?: Routing;
  /** Limits per key (max_queued, max_in_flight); absent = none. */
  keyLimits?: KeyLimitsPort;
}

export class AdmissionControl {
  readonly #deps: AdmissionControlDeps;

  constructor(deps: AdmissionControlDeps) {
    this.#deps = deps;
  }

  get settings(): AdmissionSettings {
    return this.#deps.settings;
  }

  /** The queue, and the one-account form's admission item. */
  get store(): AdmissionStorePort {
    return this.#deps.store;
  }

  get keyLimits(): KeyLimitsPort | undefined {
    return this.#deps.keyLimits;
  }

  get routing(): Routing {
    return this.#deps.routing ?? "balanced";
  }

  /** The accounts in their configured order; one named `default` without a pool. */
  get accounts(): readonly AccountAdmission[] {
    return (
      this.#deps.accounts ?? [
        {
          name: DEFAULT_ACCOUNT,
          store: this.#deps.store,
          settings: this.#deps.settings,
          weight: 1,
        },
      ]
    );
  }

  /** More than one account: creates an account refused go elsewhere. */
  get isPool(): boolean {
    return this.accounts.length > 1;
  }

  /**
   * For submitJob's `served`: in a pool, whether some account serves the model; absent without one
   * (the one account serves every model).
   */
  get served(): ((model: string) => boolean) | undefined {
    if (!this.isPool) return undefined;
    const accounts = this.accounts;
    return (model) => accounts.some((account) => serves(account, model));
  }

  /** The job's account (where its slot and task are), or the first when it names none. */
  accountOf(job: Pick<Job, "upstreamAccount">): AccountAdmission {
    const accounts = this.accounts;
    return (
      accounts.find((account) => account.name === job.upstreamAccount) ??
      (accounts[0] as AccountAdmission)
    );
  }

  /** The job's queue entry; the same job always makes the same entry, so enqueueing is idempotent. */
  entryOf(
    job: Pick<
      Job,
      | "id"
      | "priority"
      | "source"
      | "createdAt"
      | "queueCounted"
      | "admissions"
      | "queueTimeoutS"
      | "user"
      | "userQueueCounted"
    >,
  ): QueueEntry {
    const expires = Date.parse(job.createdAt) + this.queueTimeoutSOf(job) * 1000;
    const firstWait = (job.admissions ?? 0) === 0;
    return {
      jobId: job.id,
      lane: laneOf(job),
      priority: priorityOf(job),
      enqueuedAt: job.createdAt,
      expiresAt: new Date(expires).toISOString(),
      // Only its first wait counts: a job put back after a 429 was counted back when admitted.
      ...(job.queueCounted === true && firstWait ? { counted: true as const } : {}),
      ...(job.user === undefined ? {} : { user: job.user }),
      ...(job.userQueueCounted === true && firstWait ? { userCounted: true as const } : {}),
    };
  }

  /** How long the job may wait for a slot: its own limit, never past REELAY_QUEUE_TIMEOUT_S. */
  queueTimeoutSOf(job: Pick<Job, "queueTimeoutS">): number {
    const limit = this.#deps.settings.queueTimeoutS;
    return job.queueTimeoutS === undefined ? limit : Math.min(job.queueTimeoutS, limit);
  }

  async enqueue(job: Job): Promise<void> {
    await this.#deps.store.enqueue(this.entryOf(job));
    await this.wake();
  }

  /** Lets the dispatcher know there may be work (after many jobs were queued without a wake each). */
  async wake(): Promise<void> {
    await this.#deps.waker.wake();
  }

  /**
   * Frees the job's slot, if it holds one, and lets the next job in. With its account named only
   * that item is written; else each account's until one held it.
   */
  async release(jobId: string, account?: string): Promise<void> {
    const named = this.accounts.filter((a) => account === undefined || a.name === account);
    for (const { store } of named.length === 0 ? this.accounts : named) {
      if (await store.release(jobId)) {
        await this.#deps.waker.wake("freed");
        return;
      }
    }
  }

  /** The job ended outside the flow (a cancel): its slot or its queue place goes. */
  async forget(jobId: string): Promise<void> {
    await this.#deps.store.dequeue(jobId);
    await this.release(jobId);
  }

  /**
   * A create answered 429: lower the account's learned limit, hold its creates back, and queue the
   * job again at its old place. `sole` = this create was the job's only one not known refused, so
   * the job may go to any account; otherwise it stays on this one.
   */
  async requeue(
    job: Job,
    retryAfterMs: number | undefined,
    sole = true,
    error?: unknown,
  ): Promise<void> {
    const { now } = this.#deps;
    const account = this.accountOf(job);
    const { store, settings } = account;
    await this.#recordProblem(account, "rate_limited", error);
    const state = await store.state();
    const holdUntil = now().getTime() + Math.min(retryAfterMs ?? 1000, MAX_HOLD_MS);
    const held = Object.keys(state.held).length;
    const learned =
      settings.concurrency === undefined ? afterRateLimited(state.learned, held) : state.learned;
    if (learned !== state.learned) await store.learn(state.learnedVersion, learned);
    await store.hold(holdUntil);
    await this.#backInQueue(job, account, sole);
  }

  /**
   * A create the account certainly did not accept (a refused connection, a 401/403): its circuit
   * counts a failure, it takes no create for a moment, and the job goes back
   * to the queue, free to go to another account when this was its only create not known refused.
   */
  async refused(job: Job, sole: boolean, error?: unknown): Promise<void> {
    const account = this.accountOf(job);
    await this.createFailed(account.name, error);
    await account.store.hold(this.#deps.now().getTime() + REFUSED_HOLD_MS);
    await this.#backInQueue(job, account, sole);
  }

  /**
   * The job waits again: first its record says so (not admitted), then its slot is freed, then its
   * queue entry is written. In this order a dispatcher never finds the entry of a job still marked
   * admitted (it would start the job's execution again, and the entry would be gone for good), nor
   * takes a slot the job still holds. A crash before the entry is written leaves a queued job with
   * none: the local stack's resume queues every waiting job at start, and Submit, run again by the
   * state machine, queues a job it finds not admitted instead of creating its task.
   */
  async #backInQueue(job: Job, account: AccountAdmission, sole: boolean): Promise<void> {
    const { store, jobs } = this.#deps;
    // In a pool a job may move when nothing it sent may have been accepted; without one, it never moves.
    const free = sole && this.#deps.accounts !== undefined;
    await jobs
      .update(
        job.id,
        {},
        {
          unlessTerminal: true,
          onlyIfSet: "admittedAt",
          remove: free ? ["admittedAt", "upstreamAccount"] : ["admittedAt"],
          increment: { refusedSends: 1 },
        },
      )
      .catch((error: unknown) => {
        if (!isReelayError(error, "job_conflict")) throw error;
      });
    await account.store.release(job.id);
    await store.enqueue(this.entryOf(job));
    // Its slot is free and it waits again: a wake for a queued job, not only a freed slot.
    await this.wake();
  }

  /** A create failed on the wire (refused, reset, timed out, 5xx): one more toward opening the account's circuit. */
  async createFailed(accountName: string, error?: unknown): Promise<void> {
    const account = this.accountOf({ upstreamAccount: accountName });
    const { store } = account;
    await this.#recordProblem(account, "error", error);
    for (let tries = 0; tries < 3; tries++) {
      const { circuit } = await store.state();
      if (await store.setCircuit(circuit, afterFailure(circuit, this.#deps.now().getTime())))
        return;
    }
  }

  /**
   * A create went through: the account's circuit closes, and its learned limit may grow (a grown
   * limit lets the next job in). Losing a race with another learner here only delays growth.
   */
  async cleanCreate(accountName?: string): Promise<void> {
    const { waker } = this.#deps;
    const { store, settings } = this.accountOf({ upstreamAccount: accountName });
    // A copy read in the last RECENT_STATE_MS will do; one that lost the race is read again once.
    for (const maxAgeMs of [RECENT_STATE_MS, 0]) {
      const state = await store.recentState(maxAgeMs);
      if (state.circuit.failures > 0 && !(await store.setCircuit(state.circuit, CLOSED))) continue;
      if (settings.concurrency !== undefined) return;
      const next = afterCleanCreate(state.learned, Object.keys(state.held).length);
      if (await store.learn(state.learnedVersion, next)) {
        if (next.limit > state.learned.limit) await waker.wake();
        return;
      }
    }
  }

  /**
   * Kept for operators (GET /v1/upstreams), never in the way of the create it describes: a failed
   * write loses one count, not the requeue.
   */
  async #recordProblem(account: AccountAdmission, kind: ProblemKind, error: unknown) {
    const at = this.#deps.now();
    await account.store
      .recordProblem(problemOf(kind, error, at), at.getTime())
      .catch(() => undefined);
  }

  /** Each account's 429s and failed creates over the recent window, and its last error. */
  async problems(): Promise<{ name: string; problems: RecentProblems }[]> {
    const at = this.#deps.now().getTime();
    return Promise.all(
      this.accounts.map(async ({ name, store }) => ({ name, problems: await store.problems(at) })),
    );
  }

  /** Where admission stands now: for operators (GET /v1/admission) and the soak's leak check. */
  async snapshot(): Promise<AdmissionSnapshot> {
    const { store, now } = this.#deps;
    const at = now().getTime();
    const accounts: AccountSnapshot[] = [];
    const held: string[] = [];
    let nextAdmitAt = Number.POSITIVE_INFINITY;
    for (const account of this.accounts) {
      const state = await account.store.state();
      held.push(...Object.keys(state.held));
      nextAdmitAt = Math.min(nextAdmitAt, state.nextAdmitAt);
      accounts.push({
        name: account.name,
        limit: effectiveLimit(account.settings, state.learned),
        limitSource: account.settings.concurrency === undefined ? "learned" : "configured",
        ratePerS: account.settings.ratePerS ?? null,
        held: Object.keys(state.held).length,
        heldBackUntil: state.nextAdmitAt > at ? new Date(state.nextAdmitAt).toISOString() : null,
        circuit: circuitState(state.circuit, at),
        circuitFailures: state.circuit.failures,
        circuitOpenUntil:
          state.circuit.openUntil > at ? new Date(state.circuit.openUntil).toISOString() : null,
      });
    }
    const rates = accounts.map((a) => a.ratePerS);
    return {
      limit: accounts.reduce((sum, a) => sum + a.limit, 0),
      limitSource: accounts.every((a) => a.limitSource === "configured") ? "configured" : "learned",
      ratePerS: rates.includes(null) ? null : rates.reduce<number>((sum, r) => sum + (r ?? 0), 0),
      held: held.sort(),
      queued: await store.queued(),
      // Admissions are held back only when every account is.
      heldBackUntil: nextAdmitAt > at ? new Date(nextAdmitAt).toISOString() : null,
      accounts,
    };
  }

  /** 1-based place among the same caller's waiting jobs; undefined once admitted or unknown. */
  async position(job: Job): Promise<number | undefined> {
    if (job.status !== "queued" || job.admittedAt !== undefined) return undefined;
    const entry = await this.#deps.store.entry(job.id);
    return entry === undefined ? undefined : (await this.#deps.store.ahead(entry)) + 1;
  }
}
