/**
 * The job flow's Task states bound to the core steps, in process. Each handler fails the way the
 * Lambda would: the interpreter sees the error's name as the error type (so Retry on
 * ReelayTransientError and Catch match as on AWS) and Lambda's JSON Cause `{errorType, errorMessage}`.
 */
import { JOB_FLOW_STATE_NAMES, type JobFlowStep } from "@reelay/flow/job-flow-names";
import type { LocalTaskHandler } from "@reelay/flow/run-local";
import { FLOW_STEPS, type FlowStep, type PipelineDeps } from "@reelay/core/usecases";
import type { FailureInput, FlowState } from "@reelay/core/domain";

// Every state of the flow has its step (a state without one fails the typecheck).
const STEPS: Record<JobFlowStep, FlowStep> = FLOW_STEPS;

/** What the Lambda runtime reports for a thrown error. */
class LambdaStyleError extends Error {
  constructor(error: unknown) {
    const name = error instanceof Error ? error.name : "Error";
    const message = error instanceof Error ? error.message : String(error);
    super(JSON.stringify({ errorType: name, errorMessage: message, trace: [] }), { cause: error });
    this.name = name;
  }
}

export function jobFlowHandlers(deps: PipelineDeps): Record<string, LocalTaskHandler> {
  return Object.fromEntries(
    (Object.keys(STEPS) as JobFlowStep[]).map((step) => [
      JOB_FLOW_STATE_NAMES[step],
      async (input: FlowState & FailureInput) => {
        try {
          return await STEPS[step](deps, input);
        } catch (error) {
          throw new LambdaStyleError(error);
        }
      },
    ]),
  );
}
