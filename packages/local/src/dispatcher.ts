/**
 * The dispatcher on one machine: what the Dispatch function and its schedule are on AWS. A wake
 * runs core's dispatch() in this process; wakes that arrive during a run make one more run, so
 * none is lost. A timer sweeps (usecases/admission/queue-sweep.ts) and dispatches again every few seconds, and a
 * run held back by the create rate sets a timer for when the next create is due.
 */
import {
  dispatch,
  type SweepDeps,
  sweep,
  type BatchDeps,
  completeDueBatches,
  completeStaleBatches,
  type DispatchWaker,
} from "@reelay/core/usecases";
import type { Logger } from "./log.ts";

/** How often the sweep runs; also the longest a lost wake could delay an admission. */
const SWEEP_INTERVAL_MS = 5_000;
/**
 * A wake waits this long before its run, so the wakes of a busy second (every create queues a job,
 * every ended task frees a slot) share runs: each run reads the admission item and the queue's
 * head whether it admits one job or ten.
 */
const COALESCE_MS = 10;
/** An open batch not counted up for this long is recounted by the sweep (a count lost to a crash). */
const STALE_BATCH_MS = 30_000;

/** What a run needs: admission's part, and the batches it completes. */
export type LocalDispatchDeps = SweepDeps & { completion: BatchDeps };

export class LocalDispatcher implements DispatchWaker {
  #deps: LocalDispatchDeps | undefined;
  readonly #log: Logger;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  #due: NodeJS.Timeout | undefined;
  #sweeps: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;
  /** The last run found no job waiting, and no wake but freed slots came since: a freed slot has nobody to admit. */
  #queueSeenEmpty = false;
  /** Wakes that may have queued a job, counted so a run knows whether one came while it ran. */
  #wakes = 0;

  constructor(log: Logger) {
    this.#log = log;
  }

  /**
   * The dispatcher needs the executions' starter, which needs the pipeline, which needs this
   * waker: it is attached once everything exists, and wakes before that wait for it.
   */
  attach(deps: LocalDispatchDeps, sweepIntervalMs = SWEEP_INTERVAL_MS): void {
    this.#deps = deps;
    this.#sweeps = setInterval(() => {
      this.#sweeping ??= this.#sweepThenDispatch().finally(() => {
        this.#sweeping = undefined;
      });
    }, sweepIntervalMs);
    this.#sweeps.unref();
    this.#kick();
  }

  async wake(why?: "freed"): Promise<void> {
    if (why === "freed" && this.#queueSeenEmpty) return;
    this.#wakes++;
    this.#queueSeenEmpty = false;
    this.#kick();
  }

  /** Resolves when no run is in progress. */
  async idle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#sweeps);
    clearTimeout(this.#due);
    await this.#sweeping;
    await this.idle();
  }

  #kick(): void {
    if (this.#deps === undefined || this.#stopped) return;
    if (this.#running !== undefined) {
      this.#again = true;
      return;
    }
    const deps = this.#deps;
    // Wakes during the pause set #again, which the run then clears: they ride this run.
    this.#running = new Promise((resolve) => setTimeout(resolve, COALESCE_MS))
      .then(() => this.#runs(deps))
      .finally(() => {
        this.#running = undefined;
      });
  }

  async #runs(deps: LocalDispatchDeps): Promise<void> {
    do {
      this.#again = false;
      const wakes = this.#wakes;
      try {
        const result = await dispatch(deps);
        this.#queueSeenEmpty = result.queueEmpty === true && this.#wakes === wakes;
        if (result.retryInMs !== undefined) this.#dueIn(result.retryInMs);
        const completed = await completeDueBatches(deps.completion);
        for (const batchId of completed) this.#log.info(`batch ${batchId} completed`, { batchId });
      } catch (error) {
        this.#log.error("a dispatch run stopped; the next wake or sweep goes on", error);
      }
    } while (this.#again && !this.#stopped);
  }

  #dueIn(ms: number): void {
    clearTimeout(this.#due);
    this.#due = setTimeout(() => this.#kick(), ms);
    this.#due.unref();
  }

  async #sweepThenDispatch(): Promise<void> {
    const deps = this.#deps;
    if (deps === undefined || this.#stopped) return;
    try {
      const swept = await sweep(deps);
      for (const action of ["released", "restarted", "expired"] as const)
        for (const jobId of swept[action])
          this.#log.info(`admission sweep: job ${jobId} ${action}`, { jobId });
      const completed = await completeStaleBatches(deps.completion, STALE_BATCH_MS);
      for (const batchId of completed)
        this.#log.info(`batch ${batchId} completed (recounted)`, { batchId });
    } catch (error) {
      this.#log.error("an admission sweep stopped; the next one goes on", error);
    }
    this.#kick();
  }
}
