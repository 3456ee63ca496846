/**
 * What the rest of reelay asks of admission: put a job in the queue, free its slot when its
 * upstream task ends, put it back when a create met a 429, learn from clean creates, and say where
 * a waiting job stands. Every call that frees a slot or adds a job wakes the dispatcher.
 *
 *   create ──enqueue──> queue ──dispatch: slot + admittedAt──> execution: Submit ── 429 ──> requeue
 *                                                                          │
 *                           slot freed <── Poll (task ended), Finish, RecordFailure, cancel
 */
import type { AdmissionStorePort, JobStorePort } from "../ports.ts";
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
function laneOf(job: Pick<Job, "source">): string {
  return job.source.apiKeyId ?? job.source.type;
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
}

export interface AdmissionControlDeps {
  store: AdmissionStorePort;
  jobs: JobStorePort;
  settings: AdmissionSettings;
  waker: DispatchWaker;
  now: Clock;
}

export class AdmissionControl {
  readonly #deps: AdmissionControlDeps;

  constructor(deps: AdmissionControlDeps) {
    this.#deps = deps;
  }

  get settings(): AdmissionSettings {
    return this.#deps.settings;
  }

  get store(): AdmissionStorePort {
    return this.#deps.store;
  }

  /** The job's queue entry; the same job always makes the same entry, so enqueueing is idempotent. */
  entryOf(job: Pick<Job, "id" | "priority" | "source" | "createdAt">): QueueEntry {
    const expires = Date.parse(job.createdAt) + this.#deps.settings.queueTimeoutS * 1000;
    return {
      jobId: job.id,
      lane: laneOf(job),
      priority: priorityOf(job),
      enqueuedAt: job.createdAt,
      expiresAt: new Date(expires).toISOString(),
    };
  }

  async enqueue(job: Job): Promise<void> {
    await this.#deps.store.enqueue(this.entryOf(job));
    await this.wake();
  }

  /** Lets the dispatcher know there may be work (after many jobs were queued without a wake each). */
  async wake(): Promise<void> {
    await this.#deps.waker.wake();
  }

  /** Frees the job's slot, if it holds one, and lets the next job in. */
  async release(jobId: string): Promise<void> {
    if (await this.#deps.store.release(jobId)) await this.#deps.waker.wake("freed");
  }

  /** The job ended outside the flow (a cancel): its slot or its queue place goes. */
  async forget(jobId: string): Promise<void> {
    await this.#deps.store.dequeue(jobId);
    await this.release(jobId);
  }

  /** A create answered 429: lower the learned limit, hold creates back, and queue the job again at its old place. */
  async requeue(job: Job, retryAfterMs: number | undefined): Promise<void> {
    const { store, jobs, settings, now } = this.#deps;
    const state = await store.state();
    const holdUntil = now().getTime() + Math.min(retryAfterMs ?? 1000, MAX_HOLD_MS);
    const held = Object.keys(state.held).length;
    const learned =
      settings.concurrency === undefined ? afterRateLimited(state.learned, held) : state.learned;
    if (learned !== state.learned) await store.learn(state.learnedVersion, learned);
    await store.hold(holdUntil);
    await store.enqueue(this.entryOf(job));
    await jobs
      .update(job.id, {}, { unlessTerminal: true, onlyIfSet: "admittedAt", remove: ["admittedAt"] })
      .catch((error: unknown) => {
        if (!isReelayError(error, "job_conflict")) throw error;
      });
    // Its slot is free and it waits again: a wake for a queued job, not only a freed slot.
    await store.release(job.id);
    await this.wake();
  }

  /**
   * A create went through: the learned limit may grow, and a grown limit lets the next job in.
   * Losing a race with another learner here only delays growth.
   */
  async cleanCreate(): Promise<void> {
    const { store, settings, waker } = this.#deps;
    if (settings.concurrency !== undefined) return;
    // A copy read in the last RECENT_STATE_MS will do; one that lost the race is read again once.
    for (const maxAgeMs of [RECENT_STATE_MS, 0]) {
      const state = await store.recentState(maxAgeMs);
      const next = afterCleanCreate(state.learned, Object.keys(state.held).length);
      if (await store.learn(state.learnedVersion, next)) {
        if (next.limit > state.learned.limit) await waker.wake();
        return;
      }
    }
  }

  /** Where admission stands now: for operators (GET /v1/admission) and the soak's leak check. */
  async snapshot(): Promise<AdmissionSnapshot> {
    const { store, settings, now } = this.#deps;
    const state = await store.state();
    return {
      limit: effectiveLimit(settings, state.learned),
      limitSource: settings.concurrency === undefined ? "learned" : "configured",
      ratePerS: settings.ratePerS ?? null,
      held: Object.keys(state.held).sort(),
      queued: await store.queued(),
      heldBackUntil:
        state.nextAdmitAt > now().getTime() ? new Date(state.nextAdmitAt).toISOString() : null,
    };
  }

  /** 1-based place among the same caller's waiting jobs; undefined once admitted or unknown. */
  async position(job: Job): Promise<number | undefined> {
    if (job.status !== "queued" || job.admittedAt !== undefined) return undefined;
    const entry = await this.#deps.store.entry(job.id);
    return entry === undefined ? undefined : (await this.#deps.store.ahead(entry)) + 1;
  }
}
