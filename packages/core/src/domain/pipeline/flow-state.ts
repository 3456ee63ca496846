export interface FlowState {
  jobId: string;
  kind: "video" | "image";
  /** Seconds for the next WaitForTask (from the polling policy). */
  waitSeconds: number;
  /** Polls made so far. */
  polls: number;
  /** The loop bound: maxPolls(deadline). */
  maxPolls: number;
  /** ISO time; a Poll past it ends the job failed with code "timeout". */
  deadlineAt: string;
  outcome: "running" | "succeeded" | "failed";
  error?: { code: string; message: string };
  /**
   * Output URLs: an image answered synchronously (no task to poll), or those the look that saw the
   * task done was given (at outputUrlsSeenAt), which Download uses while fresh.
   */
  outputUrls?: string[];
  outputUrlsSeenAt?: string;
  /** Poll freed the job's admission slot when the task ended: Finish and RecordFailure need not again. */
  slotReleased?: boolean;
  /** ISO time the upstream task was last seen running, so a finish can be timed to within a poll interval. */
  runningSeenAt?: string;
  /**
   * The job's traceparent (Job.traceparent), carried from the execution's input on so that each
   * step starts its span in the job's trace before it reads the record.
   */
  traceparent?: string;
  /**
   * Catch's {Error, Cause} when the Thumbnail state of an execution started before the previews
   * moved into Download failed as a whole; Finish notes it as a warning.
   */
  thumbnailError?: unknown;
}

/** RecordFailure's input: the flow state, where `error` is the poll's verdict or Catch's {Error, Cause}. */
export type FailureInput = Omit<FlowState, "error"> & { error?: unknown };
