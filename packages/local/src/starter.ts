/**
 * Runs one job flow execution per admitted job in this process, on the synthesized ASL: what
 * StartExecution is on AWS. Starting an execution that is already running here is a no-op (AWS
 * refuses a second execution of the same name), so the dispatcher, its sweep and the resume at
 * start-up may all call it.
 */
import {
  ExecutionAbortedError,
  ExecutionError,
  runJobFlowLocally,
  type LocalTaskHandler,
} from "@reelay/flow/run-local";
import { isTerminal, type Job } from "@reelay/core/jobs/types";
import { REQUEUED_ERROR_NAME } from "@reelay/core/pipeline/errors";
import { executionName } from "@reelay/core/ports";
import type { Logger } from "./log.ts";

export interface LocalStarterOptions {
  definition: Record<string, unknown>;
  handlers: Record<string, LocalTaskHandler>;
  log: Logger;
  /** Multiplies Waits and Retry intervals; 1 (real time) unless a test asks otherwise. */
  waitScale?: number;
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

  constructor(opts: LocalStarterOptions) {
    this.#opts = opts;
    this.#handlers = Object.fromEntries(
      Object.entries(opts.handlers).map(([name, handler]) => [
        name,
        (input: unknown) => {
          const step = handler(input);
          this.#steps.add(step);
          void step.catch(() => undefined).finally(() => this.#steps.delete(step));
          return step;
        },
      ]),
    );
  }

  /** Names of the executions running now (executionName: the job id, then id-<admission>). */
  get running(): string[] {
    return [...this.#running.keys()];
  }

  /**
   * Starts the flow and returns at once. The execution's input is the job id alone: every step
   * reads the job record first (upstream task id, deadlineAt, polls), so a flow started again after
   * a crash picks up where the record says, without a second upstream task or a later deadline.
   */
  async start(job: Pick<Job, "id" | "status" | "admissions">): Promise<void> {
    const name = executionName(job);
    // Shutting down: the job stays queued in its record and the next start resumes it.
    if (this.#abort.signal.aborted || this.#running.has(name) || isTerminal(job.status)) return;
    const cancel = new AbortController();
    this.#cancels.set(name, cancel);
    const execution = runJobFlowLocally({
      definition: this.#opts.definition,
      handlers: this.#handlers,
      input: { jobId: job.id },
      executionName: name,
      signal: AbortSignal.any([this.#abort.signal, cancel.signal]),
      ...(this.#opts.waitScale === undefined ? {} : { waitScale: this.#opts.waitScale }),
    }).then(
      (output) =>
        this.#opts.log.info(
          `job ${job.id} ${requeued(output) ? "went back to the queue (429)" : "succeeded"}`,
        ),
      (error: unknown) => {
        if (error instanceof ExecutionAbortedError) return;
        // The flow's Fail state: RecordFailure already wrote the record and the event.
        if (error instanceof ExecutionError) this.#opts.log.info(`job ${job.id} failed`);
        else this.#opts.log.error(`job ${job.id}: the execution stopped unexpectedly`, error);
      },
    );
    this.#running.set(name, execution);
    void execution.finally(() => {
      this.#running.delete(name);
      this.#cancels.delete(name);
    });
  }

  /**
   * Stops one job's execution, what StopExecution is on AWS, and waits until the interpreter has
   * let go of it. A step already running finishes, but its writes are conditional on the job being
   * in progress, so it cannot undo the cancel. No execution here: nothing to do.
   */
  async cancel(name: string): Promise<void> {
    const execution = this.#running.get(name);
    this.#cancels.get(name)?.abort();
    if (execution !== undefined) {
      await execution;
      // Job ids have no "-": what follows one is the admission (executionName).
      this.#opts.log.info(`job ${name.split("-")[0]} cancelled; its execution stopped`);
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

/** The flow's Requeued end: Submit's Catch put the error under `error`. */
function requeued(output: unknown): boolean {
  const error = (output as { error?: { Error?: unknown } } | null)?.error;
  return error?.Error === REQUEUED_ERROR_NAME;
}
