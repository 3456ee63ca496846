/**
 * The ports between reelay's parts: what one part asks of another without knowing which platform
 * answers. Each has an AWS side (Step Functions, EventBridge) and a local side (the in-process
 * interpreter, a JSONL file), chosen once by the wiring (`wiring.ts`, `functions/support/`,
 * `packages/local`).
 */
import type { TerminalEvent } from "./events/types.ts";
import type { Job } from "./jobs/types.ts";

/** Runs a recorded job's flow. Starting a job that already runs is a no-op on both platforms. */
export interface JobStarter {
  /** AWS: StartExecution named by the job id; local: the flow in-process. */
  start(job: Pick<Job, "id" | "status">): Promise<void>;
}

/** Stops a cancelled job's flow. */
export interface ExecutionStopper {
  /** AWS: StopExecution of the execution named by the job id; local: aborts it. No error when none runs. */
  stop(jobId: string): Promise<void>;
}

/** Where terminal events go: the EventBridge bus on AWS, `events.jsonl` and its subscribers locally. */
export interface EventSink {
  emit(event: TerminalEvent): Promise<void>;
}

/** Terminal events as they happen (the local stack's SSE stream and webhooks). */
export interface EventSource {
  /** Calls `listener` for every later terminal event; returns the unsubscribe function. */
  subscribe(listener: (event: TerminalEvent) => void): () => void;
}

/** The time now; tests and the bench pass their own. */
export type Clock = () => Date;
