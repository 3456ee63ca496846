/**
 * The ports between reelay's parts: what one part asks of another without knowing which platform
 * answers. Each has an AWS side (Step Functions, EventBridge) and a local side (the in-process
 * interpreter, a JSONL file), chosen once by the wiring (`wiring.ts`, `functions/support/`,
 * `packages/local`).
 */
import type { ReelayEvent } from "../domain/events/types.ts";
import type { Job } from "../domain/jobs/types.ts";
import type { MetricLabels, MetricNameOf } from "../domain/metrics/names.ts";

/** Runs a recorded job's flow. Starting a job that already runs is a no-op on both platforms. */
export interface JobStarter {
  /** AWS: StartExecution named by executionName(job); local: the flow in-process; or into the admission queue. */
  start(job: Job): Promise<void>;
}

/** Stops a cancelled job's flow. */
export interface ExecutionStopper {
  /** AWS: StopExecution of the execution of that name (executionName below); local: aborts it. No error when none runs. */
  stop(execution: string): Promise<void>;
}

/**
 * A job's execution is named by its id, and by its admission count after a 429 put it back in the
 * queue: Step Functions keeps a closed execution's name for 90 days.
 */
export function executionName(job: Pick<Job, "id" | "admissions">): string {
  return (job.admissions ?? 1) > 1 ? `${job.id}-${job.admissions}` : job.id;
}

/** Where terminal events go: the EventBridge bus on AWS, `events.jsonl` and its subscribers locally. */
export interface EventSink {
  emit(event: ReelayEvent): Promise<void>;
}

/** Terminal events as they happen (the local stack's SSE stream and webhooks). */
export interface EventSource {
  /** Calls `listener` for every later terminal event; returns the unsubscribe function. */
  subscribe(listener: (event: ReelayEvent) => void): () => void;
}

/** Asks the dispatcher to admit waiting jobs: after a job is queued and after a slot is freed. */
export interface DispatchWaker {
  /**
   * AWS: an asynchronous invoke of the Dispatch function; local: a run in this process. Never waits
   * for the run. `"freed"`: only a slot came free, which matters only if jobs wait (the local
   * dispatcher skips the run when its last one found the queue empty and nothing was queued since).
   */
  wake(why?: "freed"): Promise<void>;
}

/** The time now; tests and the bench pass their own. */
export type Clock = () => Date;

/**
 * Where the pipeline's metrics go: the local stack's Prometheus registry (`GET /metrics`), or the
 * CloudWatch embedded metric format on AWS. Typed on the catalog (metrics/names.ts), so a name
 * that is not there, or a label it does not have, fails to compile. Recording never throws and
 * never waits: a metric must not fail a job.
 */
export interface Metrics {
  count<N extends MetricNameOf<"counter">>(name: N, labels: MetricLabels<N>, n?: number): void;
  observe<N extends MetricNameOf<"histogram">>(
    name: N,
    labels: MetricLabels<N>,
    value: number,
  ): void;
  set<N extends MetricNameOf<"gauge">>(name: N, labels: MetricLabels<N>, value: number): void;
}
