/**
 * The RecordFailure step, where every Catch of the flow leads: the job failed (unless it already
 * ended), its one event, and its manifest.
 */
import { isReelayError } from "../../domain/errors.ts";
import type { Job, TerminalStatus } from "../../domain/jobs/types.ts";
import { isTerminal } from "../../domain/jobs/types.ts";
import type { FailureInput } from "../../domain/pipeline/flow-state.ts";
import { asStepError } from "../../domain/pipeline/step-errors.ts";
import { failureOf } from "../../domain/pipeline/failure.ts";
import { emitOnce, writeManifest } from "../jobs/job-end.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";
import { inStepSpan, releaseSlot } from "./step-guard.ts";

/**
 * The failed record and its one event. A job already terminal (cancelled, or ended by another
 * step) keeps its status; its event is emitted if nobody has yet. Returns the job's final status.
 */
export function recordFailure(
  deps: PipelineDeps,
  input: FailureInput,
): Promise<{ jobId: string; status: TerminalStatus }> {
  return inStepSpan(input, "recordFailure", () => failJob(deps, input));
}

async function failJob(
  deps: PipelineDeps,
  input: FailureInput,
): Promise<{ jobId: string; status: TerminalStatus }> {
  try {
    if (input.slotReleased !== true) await releaseSlot(deps, input.jobId);
    const job = await deps.jobs.require(input.jobId);
    if (isTerminal(job.status)) {
      await emitOnce(deps, job);
      return { jobId: job.id, status: job.status };
    }
    let failed: Job;
    try {
      failed = await deps.jobs.transition(job.id, {
        from: ["queued", "running", "downloading"],
        to: "failed",
        set: { error: failureOf(input, job), finishedAt: deps.now().toISOString() },
      });
    } catch (error) {
      const status = isReelayError(error, "job_conflict") ? error.details?.status : undefined;
      if (typeof status === "string" && isTerminal(status)) return { jobId: job.id, status };
      throw error;
    }
    await emitOnce(deps, failed);
    // The manifest is a convenience beside the outputs; the record and the event are what count.
    await writeManifest(deps, failed).catch(() => undefined);
    return { jobId: failed.id, status: "failed" };
  } catch (error) {
    throw asStepError(error);
  }
}
