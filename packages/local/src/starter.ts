/**
 * Runs one job flow execution per admitted job in this process, on the synthesized ASL: what
 * StartExecution is on AWS. Starting an execution that is already running here is a no-op (AWS
 * refuses a second execution of the same name), so the dispatcher, its sweep and the resume at
 * start-up may all call it.
 */
import { setMaxListeners } from "node:events";
import {
  ExecutionAbortedError,
  ExecutionError,
  runJobFlowLocally,
  type LocalTaskHandler,
} from "@reelay/flow/run-local";
import type { JobStore } from "@reelay/core/adapters";
import {
  isTerminal,
  type Job,
  REQUEUED_ERROR_NAME,
  jobContext,
  type LogContext,
} from "@reelay/core/domain";
import { JOB_FLOW_STATE_NAMES } from "@reelay/flow/job-flow-names";
import { executionName } from "@reelay/core/usecases";
import type { Logger } from "./log.ts";
import type { Pause } from "./window-sleep.ts";

export interface LocalStarterOptions {
  definition: Record<string, unknown>;
  handlers: Record<string, LocalTaskHandler>;
  log: Logger;
  /** Read when an execution ends, so its line names the upstream task and the error code. */
  jobs?: Pick<JobStore, "get">;
  /** Multiplies Waits and Retry intervals; 1 (real time) unless a test asks otherwise. */
  waitScale?: number;
  /**
   * A test's clock: the Wait before each Poll is taken on it, just before the Poll step (with
   * waitScale 0, so the interpreter's own Wait is none). Stopping the stack ends such a wait; a
   * cancel of one job does not, so its execution stops at its next step.
   */
  waits?: Pause;
}

export class LocalJobStarter {
  readonly #opts: LocalStarterOptions;
  readonly #running = new Map<string, Promise<void>>();
  /** One per execution, so a cancel stops that job alone. */
  readonly #cancels = new Map<string, AbortController>();
  readonly #abort = new AbortController();
  /** Steps in progress: an abort stops the interpreter, not a step already running. */
  readonly #steps = new Set<Promise<unknown>>();
  readonly #handlers: Record<string, LocalTaskHandler>;
  /** What each running job's log lines carry, from its record at start. */
  readonly #contexts = new Map<string, LogContext>();

  constructor(opts: LocalStarterOptions) {
    this.#opts = opts;
    // One listener per running execution (removed when it ends): dozens at once are the normal
    // case, not a leak.
    setMaxListeners(0, this.#abort.signal);
    this.#handlers = Object.fromEntries(
      Object.entries(opts.handlers).map(([name, handler]) => [
        name,
        (input: unknown) => {
          const step =
            this.#opts.waits === undefined
              ? handler(input)
              : this.#waitBefore(name, input).then(() => handler(input));
          this.#steps.add(step);
          this.#logStep(name, input, step);
          void step.catch(() => undefined).finally(() => this.#steps.delete(step));
          return step;
        },
      ]),
    );
  }

  /** The flow's WaitForTask, when a test's clock takes it: `waitSeconds` of the Poll's input. */
  #waitBefore(name: string, input: unknown): Promise<void> {
    const waits = this.#opts.waits;
    if (waits === undefined || name !== JOB_FLOW_STATE_NAMES.poll) return Promise.resolve();
    const seconds = Number((input as { waitSeconds?: unknown } | null)?.waitSeconds ?? 0);
    return waits(seconds * 1000, this.#abort.signal);
  }

  /** A debug line per step run, a warning per step failure (the flow's Retry or Catch takes it). */
  #logStep(name: string, input: unknown, step: Promise<unknown>): void {
    const jobId = (input as { jobId?: unknown } | null)?.jobId;
    if (typeof jobId !== "string") return;
    const context = { ...(this.#contexts.get(jobId) ?? { jobId }), step: name };
    const log = this.#opts.log;
    log.debug(`job ${jobId}: ${name} started`, context);
    void step.then(
      async () => {
        if (name !== JOB_FLOW_STATE_NAMES.submit) {
          log.debug(`job ${jobId}: ${name} done`, context);
          return;
        }
        // The upstream task is known from here on: this line and the later steps' name it.
        const known = await this.#endContext(jobId);
        if (this.#contexts.has(jobId)) this.#contexts.set(jobId, known);
        log.debug(`job ${jobId}: ${name} done`, { ...known, step: name });
      },
      (error: unknown) => log.warn(`job ${jobId}: ${name} failed`, error, context),
    );
  }

  /**
   * The job's context as its record now says (upstream task, error code), else as it started: the
   * record is read only for a logger whose lines carry it.
   */
  async #endContext(jobId: string): Promise<LogContext> {
    const started = this.#contexts.get(jobId) ?? { jobId };
    if (this.#opts.log.structured !== true) return started;
    const job = await this.#opts.jobs?.get(jobId).catch(() => undefined);
    if (job === undefined) return started;
    return {
      ...jobContext(job),
      ...(job.error === undefined ? {} : { errorCode: job.error.code }),
    };
  }

  /** Names of the executions running now (executionName: the job id, then id-<admission>). */
  get running(): string[] {
    return [...this.#running.keys()];
  }

  /**
   * Starts the flow and returns at once. The execution's input is the job id (and its traceparent,
   * for the steps' spans only): every step reads the job record first (upstream task id,
   * deadlineAt, polls), so a flow started again after a crash picks up where the record says,
   * without a second upstream task or a later deadline.
   */
  async start(job: StartedJob): Promise<void> {
    const name = executionName(job);
    // Shutting down: the job stays queued in its record and the next start resumes it.
    if (this.#abort.signal.aborted || this.#running.has(name) || isTerminal(job.status)) return;
    // Aborted by a cancel of this job or by stop(); the listener on stop()'s signal goes when the
    // execution ends, so the signal that lives as long as the stack holds no finished execution.
    const cancel = new AbortController();
    const stopping = () => cancel.abort();
    this.#abort.signal.addEventListener("abort", stopping, { once: true });
    this.#cancels.set(name, cancel);
    this.#contexts.set(job.id, jobContext(job));
    this.#opts.log.debug(`job ${job.id}: execution ${name} started`, jobContext(job));
    const execution = runJobFlowLocally({
      definition: this.#opts.definition,
      handlers: this.#handlers,
      // The job's trace context rides along so that each step's span joins the job's trace.
      input: {
        jobId: job.id,
        ...(job.traceparent === undefined ? {} : { traceparent: job.traceparent }),
      },
      executionName: name,
      signal: cancel.signal,
      ...(this.#opts.waitScale === undefined ? {} : { waitScale: this.#opts.waitScale }),
    }).then(
      async (output) => {
        const ended = requeued(output) ? "went back to the queue (429)" : "succeeded";
        this.#opts.log.info(`job ${job.id} ${ended}`, await this.#endContext(job.id));
      },
      async (error: unknown) => {
        if (error instanceof ExecutionAbortedError) return;
        const context = await this.#endContext(job.id);
        // The flow's Fail state: RecordFailure already wrote the record and the event.
        if (error instanceof ExecutionError) this.#opts.log.info(`job ${job.id} failed`, context);
        else
          this.#opts.log.error(`job ${job.id}: the execution stopped unexpectedly`, error, context);
      },
    );
    this.#running.set(name, execution);
    void execution.finally(() => {
      this.#abort.signal.removeEventListener("abort", stopping);
      this.#running.delete(name);
      this.#cancels.delete(name);
      this.#contexts.delete(job.id);
    });
  }

  /**
   * Stops one job's execution, what StopExecution is on AWS, and waits until the interpreter has
   * let go of it. A step already running finishes, but its writes are conditional on the job being
   * in progress, so it cannot undo the cancel. No execution here: nothing to do.
   */
  async cancel(name: string): Promise<void> {
    const execution = this.#running.get(name);
    // Job ids have no "-": what follows one is the admission (executionName).
    const jobId = name.split("-")[0] as string;
    const context = this.#contexts.get(jobId) ?? { jobId };
    this.#cancels.get(name)?.abort();
    if (execution !== undefined) {
      await execution;
      this.#opts.log.info(`job ${jobId} cancelled; its execution stopped`, context);
    }
  }

  /**
   * Aborts every execution (their jobs resume on the next start) and waits until they and any step
   * still running are done, so nothing touches the stores after they close.
   */
  async stop(): Promise<void> {
    this.#abort.abort();
    await Promise.allSettled([...this.#running.values(), ...this.#steps]);
  }
}

/** What start() is given: the record's fields the execution's name and the log lines need. */
type StartedJob = Pick<Job, "id" | "status" | "admissions"> &
  Partial<Pick<Job, "model" | "source" | "batchId" | "upstreamTaskId" | "traceparent">>;

/** The flow's Requeued end: Submit's Catch put the error under `error`. */
function requeued(output: unknown): boolean {
  const error = (output as { error?: { Error?: unknown } } | null)?.error;
  return error?.Error === REQUEUED_ERROR_NAME;
}
