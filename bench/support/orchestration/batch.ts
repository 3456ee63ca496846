/**
 * A batch pass of the orchestration bench: every job of the batch queued at once behind reelay's
 * admission control (the learned limit, as a user who configures nothing gets it) against an
 * upstream that allows `cap` tasks in flight. The dispatcher is core's dispatch(), woken as on AWS
 * by every enqueue and slot release, and each of its runs is metered as one invocation of the
 * Dispatch function; executions start only when a slot is free, on the same interpreter, steps,
 * clock and meters as runPass.
 */
import {
  AdmissionControl,
  dispatch,
  type DispatchWaker,
  executionName,
  type ExecutionStarter,
  NO_BATCHES,
  NO_BUDGETS,
  noMetrics,
} from "@reelay/core/usecases";
import { DEFAULT_QUEUE_TIMEOUT_S, isTerminal } from "@reelay/core/domain";
import { AdmissionStore } from "@reelay/core/adapters";
import { runJobFlowLocally } from "@reelay/flow/run-local";
import type { MixJob } from "./mix.ts";
import {
  type BenchEnv,
  createMixJob,
  type JobMeasure,
  measureJobs,
  meteredHandlers,
  passDeps,
  UsageMeter,
} from "./run.ts";

/** The Dispatch function's memory (the stack's default for functions). */
const DISPATCH_MEMORY_MB = 512;
/** The Dispatch function's schedule, which sweeps and dispatches whatever a lost wake left. */
const SCHEDULE_MS = 60_000;

export interface BatchPass {
  measures: JobMeasure[];
  /** Virtual time from the batch's creation to its last job's end. */
  elapsedMs: number;
  /** Dispatch invocations (one per wake, plus the schedule's) and their GB-s, for the whole batch. */
  dispatchInvocations: number;
  dispatchGbSeconds: number;
  /** Executions started, a requeued job's second one included. */
  executions: number;
}

/** Runs a dispatch per wake, one after another, metered as Lambda invocations. */
class MeteredDispatcher implements DispatchWaker {
  runs = 0;
  billedMs = 0;
  #chain: Promise<void> = Promise.resolve();
  #run: (() => Promise<number | undefined>) | undefined;
  readonly #scale: number;

  constructor(scale: number) {
    this.#scale = scale;
  }

  attach(run: () => Promise<number | undefined>): void {
    this.#run = run;
  }

  /** Like an asynchronous Lambda invoke: queued and returned from at once. */
  async wake(): Promise<void> {
    this.#chain = this.#chain.then(() => this.#once());
  }

  async idle(): Promise<void> {
    let chain: Promise<void>;
    do {
      chain = this.#chain;
      await chain;
    } while (chain !== this.#chain);
  }

  async #once(): Promise<void> {
    if (this.#run === undefined) return;
    const started = performance.now();
    try {
      const retryInMs = await this.#run();
      // Held back by an upstream's Retry-After: the function's own timer on AWS is the schedule;
      // here it wakes itself when the hold ends, which only makes the queued case look better.
      if (retryInMs !== undefined)
        setTimeout(() => void this.wake(), retryInMs * this.#scale).unref();
    } finally {
      this.runs += 1;
      this.billedMs += Math.max(1, Math.ceil(performance.now() - started));
    }
  }
}

export async function runBatchPass(
  env: BenchEnv,
  opts: { definition: Record<string, unknown>; jobs: readonly MixJob[] },
): Promise<BatchPass> {
  const { clock } = env;
  const meter = new UsageMeter();
  const dispatcher = new MeteredDispatcher(clock.scale);
  const admission = new AdmissionControl({
    store: new AdmissionStore(env.ddb, env.table),
    jobs: env.jobs,
    settings: { queueTimeoutS: DEFAULT_QUEUE_TIMEOUT_S },
    waker: dispatcher,
    now: clock.now,
  });
  const handlers = meteredHandlers(env, { ...passDeps(env, true), admission }, meter);
  const executions = new Set<Promise<unknown>>();
  const starter: ExecutionStarter = {
    async start(job) {
      const execution = runJobFlowLocally({
        definition: opts.definition,
        handlers,
        input: { jobId: job.id },
        executionName: executionName(job),
        waitScale: clock.scale,
        onEvent: meter.onEvent(job.id),
      }).catch(() => undefined);
      executions.add(execution);
    },
  };
  dispatcher.attach(
    async () =>
      (
        await dispatch({
          admission,
          jobs: env.jobs,
          starter,
          now: clock.now,
          sleep: clock.sleep,
          events: { emit: async () => undefined },
          batches: NO_BATCHES,
          budgets: NO_BUDGETS,
          metrics: noMetrics,
        })
      ).retryInMs,
  );

  const began = clock.nowMs();
  const ids: string[] = [];
  for (const [index, mixJob] of opts.jobs.entries()) {
    const job = await createMixJob(env, mixJob, index);
    ids.push(job.id);
    await admission.enqueue(job);
  }
  await admission.wake();
  // Executions start as slots free up: wait until every job has ended and nothing more starts.
  for (;;) {
    const started = executions.size;
    await Promise.all([...executions]);
    await dispatcher.idle();
    if (executions.size !== started) continue;
    const records = await Promise.all(ids.map((id) => env.jobs.require(id)));
    if (records.every((job) => isTerminal(job.status))) break;
    await clock.sleep(1_000);
  }
  const elapsedMs = clock.nowMs() - began;
  const scheduled = Math.ceil(elapsedMs / SCHEDULE_MS);
  const perRunMs = dispatcher.billedMs / Math.max(1, dispatcher.runs);
  return {
    measures: await measureJobs(env, ids, meter),
    elapsedMs,
    dispatchInvocations: dispatcher.runs + scheduled,
    dispatchGbSeconds:
      ((dispatcher.billedMs + scheduled * perRunMs) / 1000) * (DISPATCH_MEMORY_MB / 1024),
    executions: executions.size,
  };
}
