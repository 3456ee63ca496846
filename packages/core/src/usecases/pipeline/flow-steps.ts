/**
 * The job flow's steps by name: what each Task state of the flow runs, on Lambda
 * (functions/support/step.ts) and in process on the local stack (@reelay/local's handlers).
 *
 * Each step acts on the job record as it stands, so a step that is retried, repeated after a
 * crash, or resumed by the local stack does the right thing: never a second upstream task, never a
 * terminal job moved, never a second event. Submit, Download and Finish open with the conditional
 * write their usual case needs (its answer is the record); only when its condition fails (a repeat,
 * a resume, a cancel) do they read the record and decide from it.
 */
import type { FailureInput, FlowState } from "../../domain/pipeline/flow-state.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";
import { download } from "./download-step.ts";
import { finish } from "./finish-step.ts";
import { poll } from "./poll-step.ts";
import { recordFailure } from "./record-failure-step.ts";
import { submit } from "./submit-step.ts";

/** A step takes the state the step before it returned (or Catch's) and returns the next. */
export type FlowStep = (deps: PipelineDeps, input: FlowState & FailureInput) => Promise<unknown>;

export const FLOW_STEPS = {
  submit,
  poll,
  download,
  finish,
  recordFailure,
} as const satisfies Record<string, FlowStep>;
