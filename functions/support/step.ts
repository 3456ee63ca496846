/**
 * One job flow step on Lambda: check the state machine's input, then call the core step. Errors
 * leave as thrown: their name (ReelayTransientError or ReelayError) is what Retry and Catch match.
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { ReelayError } from "@reelay/core/errors";
import { UPSTREAM_STEPS, type JobFlowStep } from "@reelay/flow/steps";
import type { FailureInput, FlowState, PipelineDeps } from "@reelay/core/pipeline/deps";
import { download, finish, poll, recordFailure, submit } from "@reelay/core/pipeline/steps";
import { buildPipelineDeps } from "./deps.ts";

const STEPS: Record<
  JobFlowStep,
  (deps: PipelineDeps, input: FlowState & FailureInput) => Promise<unknown>
> = {
  submit,
  poll,
  download,
  finish,
  recordFailure,
};

// Every step's input carries the job id; the step reads everything else it trusts from the record.
const StepInput = z.looseObject({ jobId: z.string().min(1) });

let deps: Promise<PipelineDeps> | undefined;

export async function runStep(step: JobFlowStep, event: unknown): Promise<unknown> {
  const parsed = StepInput.safeParse(event);
  if (!parsed.success) {
    throw new ReelayError("invalid_flow_state", `The ${step} step needs a job id in its input.`, {
      path: "jobId",
    });
  }
  deps ??= buildPipelineDeps({ callsUpstream: UPSTREAM_STEPS.includes(step) });
  return STEPS[step](await deps, parsed.data as unknown as FlowState & FailureInput);
}
