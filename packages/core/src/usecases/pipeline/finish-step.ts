/**
 * The Finish step: the job succeeded, its one event, its manifest as it now stands, and its output
 * offered for reuse.
 */
import { isReelayError, ReelayError } from "../../domain/errors.ts";
import type { Job } from "../../domain/jobs/types.ts";
import { isTerminal } from "../../domain/jobs/types.ts";
import { reuseScopeOf } from "../../domain/jobs/fingerprint.ts";
import type { FlowState } from "../../domain/pipeline/flow-state.ts";
import { emitOnce, writeManifest } from "../jobs/job-end.ts";
import { noteThumbnailFailure } from "../thumbnails/make-thumbnails.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";
import { guarded, releaseSlot, unlessConflict } from "./step-guard.ts";

/** Emits the succeeded job's event once, then writes its manifest from the record as it now stands. */
async function announce(deps: PipelineDeps, job: Job): Promise<void> {
  const emitted = await emitOnce(deps, job);
  await writeManifest(deps, emitted ?? (await deps.jobs.get(job.id)) ?? job);
  await offerForReuse(deps, job);
}

/**
 * A job that made its own output is the newest its fingerprint may reuse. Advisory: a lost write
 * only means a later request makes its own task.
 */
async function offerForReuse(deps: PipelineDeps, job: Job): Promise<void> {
  if (job.fingerprint === undefined || job.reusedFrom !== undefined) return;
  await deps.jobs.reuse
    .succeeded(
      reuseScopeOf(job.source),
      job.fingerprint,
      job.id,
      job.finishedAt ?? deps.now().toISOString(),
    )
    .catch(() => undefined);
}

/** The succeeded record and its one event; a repeat finds the job succeeded and emits only if the first did not. */
export function finish(
  deps: PipelineDeps,
  state: FlowState,
): Promise<{ jobId: string; status: "succeeded" }> {
  return guarded(deps, state, "finish", async () => {
    if (state.slotReleased !== true) await releaseSlot(deps, state.jobId);
    // A warning only: the job succeeds with its video whatever became of its thumbnail (an
    // execution started before the previews moved into Download, whose Thumbnail state failed).
    if (state.thumbnailError !== undefined)
      await noteThumbnailFailure(deps, state.jobId).catch(() => undefined);
    const done = { jobId: state.jobId, status: "succeeded" as const };
    const succeed = () =>
      deps.jobs.transition(state.jobId, {
        from: ["downloading"],
        to: "succeeded",
        set: { finishedAt: deps.now().toISOString() },
        nonEmpty: "outputs",
      });
    let finished = await unlessConflict(succeed());
    if (finished === undefined) {
      const job = await deps.jobs.require(state.jobId);
      if (job.status === "succeeded") {
        // A retry: the first attempt may have stopped after the write, the emit or the manifest.
        await announce(deps, job);
        return done;
      }
      if (isTerminal(job.status)) {
        throw new ReelayError(
          "job_conflict",
          `Job ${job.id} is already ${job.status}; it cannot succeed.`,
          { details: { status: job.status } },
        );
      }
      if (job.status !== "downloading" || (job.outputs ?? []).length === 0) {
        throw new ReelayError(
          "output_missing",
          `Job ${job.id} has no stored output; it cannot succeed.`,
        );
      }
      try {
        finished = await succeed();
      } catch (error) {
        // Lost the race to another finish: that one emits.
        if (isReelayError(error, "job_conflict") && error.details?.status === "succeeded")
          return done;
        throw error;
      }
    }
    await announce(deps, finished);
    return done;
  });
}
