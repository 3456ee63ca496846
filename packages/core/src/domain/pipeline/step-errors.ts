/**
 * The two kinds of failure a pipeline step reports. Lambda reports the thrown error's `name` as
 * its errorType, and the state machine's Retry matches on it: "ReelayTransientError" is retried,
 * a plain "ReelayError" is permanent and goes straight to RecordFailure.
 */
import type { ErrorCode, RelayedCode } from "../error-codes.ts";
import { ReelayError, type ReelayErrorOptions } from "../errors.ts";

export const TRANSIENT_ERROR_NAME = "ReelayTransientError";
/** The name the state machine's Catch on Submit matches to end the execution as "Requeued". */
export const REQUEUED_ERROR_NAME = "ReelayRequeued";

/**
 * Not a failure: a create met a full upstream (429) and the job went back to the admission queue,
 * so this execution ends and the dispatcher starts a new one when a slot is free.
 */
export class Requeued extends Error {
  constructor(jobId: string) {
    super(`Job ${jobId} went back to the queue: the upstream answered 429 to its create.`);
    this.name = REQUEUED_ERROR_NAME;
  }
}

export class TransientError extends ReelayError {
  constructor(
    code: ErrorCode | RelayedCode,
    message: string,
    options: Omit<ReelayErrorOptions, "retryable"> = {},
  ) {
    super(code, message, { ...options, retryable: true });
    this.name = TRANSIENT_ERROR_NAME;
  }
}

/** What a step throws for any error: retryable ReelayErrors become TransientErrors, unknown ones too (AWS SDK and network faults). */
export function asStepError(error: unknown): ReelayError {
  if (error instanceof TransientError) return error;
  if (error instanceof ReelayError) {
    if (!error.retryable) return error;
    return new TransientError(error.code, error.message, {
      cause: error,
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.details === undefined ? {} : { details: error.details }),
    });
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new TransientError("step_failed", message.slice(0, 500), { cause: error });
}
