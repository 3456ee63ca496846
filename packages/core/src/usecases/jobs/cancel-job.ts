/**
 * Cancelling a job. The record is the truth, so it moves first, in one conditional write from an
 * in-progress status; only then is the execution stopped. A step still running when the stop lands
 * finds the job cancelled: its own transitions are conditional on an in-progress status, so it can
 * never bring the job back.
 *
 *   cancel:  queued|running|downloading ──write──> cancelled ──emitOnce──> StopExecution
 *   step:                      (late) Poll/Download/Finish ──write──> condition fails
 */
import type { BudgetLedgerPort, JobStorePort } from "../ports.ts";
import type { ErrorCode } from "../../domain/error-codes.ts";
import { isReelayError, ReelayError } from "../../domain/errors.ts";
import type { AdmissionControl } from "../admission/admission-control.ts";
import type { BatchTracker } from "../batches/batch-progress.ts";
import {
  type Clock,
  type EventSink,
  type ExecutionStopper,
  executionName,
  type Metrics,
} from "../ports.ts";
import { emitOnce } from "./job-end.ts";
import type { Job, JobStatus } from "../../domain/jobs/types.ts";

const CANCELLABLE: readonly JobStatus[] = ["queued", "running", "downloading"];

export interface CancelDeps {
  jobs: JobStorePort;
  events: EventSink;
  /** Without one the job is still cancelled; its execution then ends at its next step. */
  stopper?: ExecutionStopper;
  /** Counts a batch job's end toward its batch. */
  batches: Pick<BatchTracker, "jobEnded">;
  /** Settles the job's budget reservation. */
  budgets: Pick<BudgetLedgerPort, "settle">;
  /** Frees the job's slot or queue place; without it the dispatcher's sweep does, later. */
  admission?: Pick<AdmissionControl, "forget">;
  /** Counts the job's end, with its event. */
  metrics: Metrics;
  now: Clock;
}

function notCancellable(job: Pick<Job, "id" | "status">): ReelayError {
  return new ReelayError(
    "job_not_cancellable",
    `Job ${job.id} is already ${job.status}; only a queued, running or downloading job can be cancelled.`,
    {
      status: 409,
      details: { jobId: job.id, status: job.status },
    },
  );
}

/** Cancels the job: `job_not_found` (404) for an unknown id, `job_not_cancellable` (409) for a terminal one. */
export async function cancelJob(
  deps: CancelDeps,
  id: string,
  reason = "Cancelled by request.",
): Promise<Job> {
  const at = deps.now().toISOString();
  let job: Job;
  try {
    job = await deps.jobs.transition(id, {
      from: CANCELLABLE,
      to: "cancelled",
      set: { error: { code: "cancelled" satisfies ErrorCode, message: reason }, finishedAt: at },
      note: "cancel",
    });
  } catch (error) {
    if (isReelayError(error, "job_conflict")) {
      throw notCancellable({ id, status: (error.details as { status: JobStatus }).status });
    }
    throw error;
  }
  await emitOnce(deps, job);
  await deps.stopper?.stop(executionName(job));
  await deps.admission?.forget(id);
  return deps.jobs.require(id);
}
