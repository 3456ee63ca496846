/**
 * The job flow's steps by name: what each Task state of the flow runs, on Lambda
 * (functions/support/step.ts) and in process on the local stack (@reelay/local's handlers).
 */
import type { FailureInput, FlowState } from "../../domain/pipeline/flow-state.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";
import { download, finish, poll, recordFailure, submit } from "./pipeline-steps.ts";

/** A step takes the state the step before it returned (or Catch's) and returns the next. */
export type FlowStep = (deps: PipelineDeps, input: FlowState & FailureInput) => Promise<unknown>;

export const FLOW_STEPS = {
  submit,
  poll,
  download,
  finish,
  recordFailure,
} as const satisfies Record<string, FlowStep>;
