/**
 * The Submit step: the job's one upstream task created (none for a job that reuses another's
 * output), the job running with its deadline, and the Wait before its first Poll.
 */
import { ReelayError, isReelayError } from "../../domain/errors.ts";
import type { Job } from "../../domain/jobs/types.ts";
import { isTerminal } from "../../domain/jobs/types.ts";
import { durationOf } from "../../domain/jobs/request.ts";
import {
  firstWaitMs,
  jobDeadlineMs,
  maxPolls as pollLimit,
  pollDelayMs,
} from "../../domain/polling/policy.ts";
import type { FlowState } from "../../domain/pipeline/flow-state.ts";
import { Requeued } from "../../domain/pipeline/step-errors.ts";
import { createTask } from "./create-task.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";
import { guarded, historyOf, stopped, unlessConflict, waitSecondsFor } from "./step-guard.ts";

/** The flow's state for the job as recorded: its wait by its polls so far, and its poll bound. */
function baseState(deps: PipelineDeps, job: Job, deadlineAt: string): FlowState {
  const deadlineMs = jobDeadlineMs({
    durationSec: durationOf(job.request),
    ...(deps.jobTimeoutS === undefined ? {} : { overrideS: deps.jobTimeoutS }),
  });
  return {
    jobId: job.id,
    kind: job.kind,
    waitSeconds: waitSecondsFor(pollDelayMs(job.polls), deadlineAt, deps.now()),
    polls: job.polls,
    maxPolls: pollLimit(deadlineMs),
    deadlineAt,
    outcome: "running",
    ...(job.traceparent === undefined ? {} : { traceparent: job.traceparent }),
  };
}

/**
 * Run again after its requeue was cut short (put back in the queue, not admitted again, maybe with
 * no queue entry yet): the job goes back to the queue rather than creating a task without a slot.
 */
async function requeueIfWaiting(deps: PipelineDeps, job: Job): Promise<void> {
  const admission = deps.admission;
  if (admission === undefined || job.status !== "queued" || job.upstreamTaskId !== undefined)
    return;
  if (job.admittedAt !== undefined || job.refusedSends === undefined) return;
  await admission.enqueue(job);
  throw new Requeued(job.id);
}

/** The job's deadline: as recorded, else from now by its duration (or REELAY_JOB_TIMEOUT_S). */
function deadlineOf(deps: PipelineDeps, job: Job, now: Date): string {
  if (job.deadlineAt !== undefined) return job.deadlineAt;
  const ms = jobDeadlineMs({
    durationSec: durationOf(job),
    ...(deps.jobTimeoutS === undefined ? {} : { overrideS: deps.jobTimeoutS }),
  });
  return new Date(now.getTime() + ms).toISOString();
}

/**
 * A refused queued -> running write whose record already holds this Submit's own `submittedAt`: the
 * write went through and only its answer was lost (the store's client retried it after a dropped
 * connection), so the job as written is the result. Any other refusal stands.
 */
async function ownWriteApplied(
  deps: PipelineDeps,
  jobId: string,
  submittedAt: string,
  error: unknown,
): Promise<Job> {
  if (!isReelayError(error, "job_conflict")) throw error;
  const current = await deps.jobs.require(jobId);
  if (current.status !== "running" || current.submittedAt !== submittedAt) throw error;
  return current;
}

/** A job that reuses makes no task: it runs, and its first Poll looks at its source at once. */
async function startReusing(deps: PipelineDeps, job: Job, deadlineAt: string): Promise<FlowState> {
  const running =
    job.status === "queued"
      ? ((await unlessConflict(
          deps.jobs.transition(job.id, {
            from: ["queued"],
            to: "running",
            set: { submittedAt: deps.now().toISOString(), deadlineAt },
            note: `reusing ${job.reusedFrom}`,
          }),
        )) ?? (await deps.jobs.require(job.id)))
      : job;
  if (isTerminal(running.status)) return stopped(baseState(deps, running, deadlineAt), running);
  return { ...baseState(deps, running, deadlineAt), waitSeconds: 0 };
}

/**
 * The upstream create, failing the job when its task already failed: a repeat of a create whose
 * first answer was lost can find it so. The task was made (and may be paid for), so the record
 * names it first.
 */
async function createOrFail(deps: PipelineDeps, job: Job) {
  const created = await createTask(deps, job);
  if (created.state.state !== "failed") return created;
  if (created.taskId !== undefined)
    await unlessConflict(
      deps.jobs.update(job.id, { upstreamTaskId: created.taskId }, { unlessTerminal: true }),
    );
  throw new ReelayError(
    "upstream_task_failed",
    created.state.error?.message ?? "The upstream refused the task.",
  );
}

/** Creates the upstream task exactly once: none at all when the job already has a task id. */
export function submit(
  deps: PipelineDeps,
  input: Pick<FlowState, "jobId" | "traceparent">,
): Promise<FlowState> {
  return guarded(deps, input, "submit", async (span) => {
    // A job in progress with no upstream task yet, not waiting in the queue again: this attempt is
    // counted by the write that reads it.
    const counted = await unlessConflict(
      deps.jobs.update(
        input.jobId,
        {},
        {
          unlessTerminal: true,
          unlessSet: "upstreamTaskId",
          unlessRequeued: true,
          unlessReused: true,
          increment: { attempts: 1 },
        },
      ),
    );
    let job = counted ?? (await deps.jobs.require(input.jobId));
    span.noteJob(job);
    if (counted === undefined) await requeueIfWaiting(deps, job);
    const now = deps.now();
    const deadlineAt = deadlineOf(deps, job, now);
    if (isTerminal(job.status)) return stopped(baseState(deps, job, deadlineAt), job);
    if (job.reusedFrom !== undefined) return startReusing(deps, job, deadlineAt);
    let outputUrls: string[] = [];
    if (counted !== undefined) {
      const created = await createOrFail(deps, job);
      outputUrls = created.taskId === undefined ? created.state.outputUrls : [];
      const set = {
        ...(created.taskId === undefined ? {} : { upstreamTaskId: created.taskId }),
        submittedAt: now.toISOString(),
        deadlineAt,
      };
      job =
        job.status === "queued"
          ? await deps.jobs
              .transition(job.id, {
                from: ["queued"],
                to: "running",
                set,
                note:
                  created.taskId === undefined
                    ? "answered at once"
                    : `upstream task ${created.taskId}`,
              })
              .catch((error: unknown) => ownWriteApplied(deps, job.id, set.submittedAt, error))
          : await deps.jobs.update(job.id, set, { unlessTerminal: true });
    } else if (job.status === "queued") {
      job = await deps.jobs.transition(job.id, {
        from: ["queued"],
        to: "running",
        set: { deadlineAt },
      });
    }
    const state = baseState(deps, job, deadlineAt);
    // An image answered synchronously has nothing to poll: go straight on to Download.
    if (outputUrls.length > 0)
      return { ...state, outcome: "succeeded", waitSeconds: 0, outputUrls };
    // Resumed after the upstream task succeeded (a crash before or during the download): nothing to
    // wait for, and its temporary URLs are ageing; a wait here would let a stack restarted every
    // few seconds with many jobs downloading fall behind for good.
    if (job.upstreamDoneAt !== undefined) return { ...state, waitSeconds: 0 };
    if (job.polls > 0 || job.submittedAt === undefined) return state;
    // The first look, timed from the create by what this model and duration took before.
    const dueMs =
      Date.parse(job.submittedAt) +
      firstWaitMs({ history: await historyOf(deps, job) }) -
      deps.now().getTime();
    return { ...state, waitSeconds: waitSecondsFor(dueMs, deadlineAt, deps.now()) };
  });
}
