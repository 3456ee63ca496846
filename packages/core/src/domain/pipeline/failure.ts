/** Naming why a job failed, from whatever reached RecordFailure. */
import type { ErrorCode } from "../error-codes.ts";
import type { Job, JobError } from "../jobs/types.ts";
import type { FailureInput, FlowState } from "./flow-state.ts";
import { TRANSIENT_ERROR_NAME } from "./step-errors.ts";

const OWN_ERRORS = new Set(["ReelayError", TRANSIENT_ERROR_NAME]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** Lambda's Cause is JSON `{errorType, errorMessage, ...}`; other runtimes pass the message itself. */
function causeMessage(cause: unknown): { message?: string; code?: string } {
  if (typeof cause !== "string" || cause.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(cause);
    if (isObject(parsed)) {
      return {
        ...(typeof parsed.errorMessage === "string" ? { message: parsed.errorMessage } : {}),
        ...(typeof parsed.code === "string" ? { code: parsed.code } : {}),
      };
    }
  } catch {
    // not JSON: the text is the message
  }
  return { message: cause };
}

export function timeoutError(
  state: Pick<FlowState, "deadlineAt" | "polls">,
  detail = "",
): JobError {
  return {
    code: "timeout" satisfies ErrorCode,
    message: `The upstream gave no result before the job's deadline (${state.deadlineAt}, ${state.polls} polls)${detail}.`,
  };
}

/**
 * In order: the poll's own verdict ({code, message}); a Catch of one of our errors, named by the
 * step's recorded lastError (Lambda drops the code); a Catch of anything else (States.Timeout,
 * Lambda.*); the loop bound; else an unexplained failure, said plainly.
 */
export function failureOf(input: FailureInput, job: Job): JobError {
  const error = input.error;
  if (isObject(error) && typeof error.code === "string" && typeof error.message === "string") {
    return { code: error.code, message: error.message };
  }
  if (isObject(error) && typeof error.Error === "string") {
    const cause = causeMessage(error.Cause);
    if (OWN_ERRORS.has(error.Error) && job.lastError !== undefined) {
      const { code, message, path } = job.lastError;
      return { code, message, ...(path === undefined ? {} : { path }) };
    }
    if (cause.code !== undefined)
      return { code: cause.code, message: cause.message ?? error.Error };
    if (error.Error === "States.Timeout") {
      return {
        code: "step_timeout" satisfies ErrorCode,
        message: `A pipeline step ran past its time limit${job.lastError ? ` (last error: ${job.lastError.message})` : ""}.`,
      };
    }
    return {
      code: "step_failed" satisfies ErrorCode,
      message: cause.message ?? `A pipeline step failed with ${error.Error}.`,
    };
  }
  if (input.outcome === "running" && input.polls >= input.maxPolls)
    return timeoutError(input, ", the poll limit was reached");
  return {
    code: "internal_error" satisfies ErrorCode,
    message: "The job failed without a recorded reason.",
  };
}
