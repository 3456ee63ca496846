/**
 * What the flow's steps share: the guard every step runs in (its span, and its failure recorded on
 * the job), the flow's view of a job that ended elsewhere, the Wait state's timing, the conditional
 * write that tells a repeat from a first run, and the job's own upstream account and admission slot.
 */
import type { ErrorCode } from "../../domain/error-codes.ts";
import { isReelayError, ReelayError } from "../../domain/errors.ts";
import type { Job } from "../../domain/jobs/types.ts";
import { generationStatsKey } from "../../domain/polling/generation-key.ts";
import type { GenerationHistory } from "../../domain/polling/history.ts";
import type { FlowState } from "../../domain/pipeline/flow-state.ts";
import { asStepError, Requeued } from "../../domain/pipeline/step-errors.ts";
import type { UpstreamClientPort } from "../ports.ts";
import { inSpan, jobAttributes, type TraceSpan } from "../../domain/tracing.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";

/**
 * Runs a step in its span, a child of the job's trace context (the step's input carries it);
 * whatever it throws leaves as a TransientError or a permanent ReelayError, recorded on the job.
 */
export function guarded<T>(
  deps: PipelineDeps,
  input: Pick<FlowState, "jobId" | "traceparent">,
  step: string,
  run: (span: TraceSpan) => Promise<T>,
): Promise<T> {
  return inStepSpan(input, step, (span) => recorded(deps, input.jobId, step, () => run(span)));
}

/** The step's span, a child of the job's traceparent when its input carries one. */
export function inStepSpan<T>(
  input: Pick<FlowState, "jobId" | "traceparent">,
  step: string,
  work: (span: TraceSpan) => Promise<T>,
): Promise<T> {
  return inSpan(
    `step ${step}`,
    {
      parent: input.traceparent,
      attributes: { ...jobAttributes({ id: input.jobId }), "reelay.step": step },
    },
    work,
  );
}

async function recorded<T>(
  deps: PipelineDeps,
  jobId: string,
  step: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Requeued) throw error;
    const failure = asStepError(error);
    await deps.jobs
      .update(
        jobId,
        {
          lastError: {
            code: failure.code,
            message: failure.message,
            step,
            ...(failure.path === undefined ? {} : { path: failure.path }),
          },
        },
        { unlessTerminal: true },
      )
      .catch(() => undefined);
    throw failure;
  }
}

/** The flow's view of a job that ended elsewhere (cancelled, or failed by a late step). */
export function stopped(state: FlowState, job: Job): FlowState {
  return {
    ...state,
    outcome: "failed",
    waitSeconds: 0,
    error: job.error ?? {
      code:
        job.status === "cancelled"
          ? ("cancelled" satisfies ErrorCode)
          : ("job_ended" satisfies ErrorCode),
      message: `Job ${job.id} is already ${job.status}.`,
    },
  };
}

/** `ms` from now, cut at the deadline (at least 1 s, so the poll after it can say "timeout"). */
export function boundedMs(ms: number, deadlineAt: string, now: Date): number {
  return Math.min(ms, Math.max(Date.parse(deadlineAt) - now.getTime(), 1_000));
}

/** The Wait state's whole seconds for a pause of `ms`. */
export function waitSecondsFor(ms: number, deadlineAt: string, now: Date): number {
  return Math.max(1, Math.ceil(boundedMs(ms, deadlineAt, now) / 1000));
}

/** The model's observed generation times. Advisory: unreadable stats mean the plain schedule, never a failed step. */
export async function historyOf(
  deps: PipelineDeps,
  job: Job,
): Promise<GenerationHistory | undefined> {
  return deps.generationStats?.history(generationStatsKey(job)).catch(() => undefined);
}

/** The write's answer, or undefined when the job was not in a state it could be made in. */
export async function unlessConflict(write: Promise<Job>): Promise<Job | undefined> {
  try {
    return await write;
  } catch (error) {
    if (isReelayError(error, "job_conflict")) return undefined;
    throw error;
  }
}

/**
 * The client of the job's own account: every create, poll and download of a job goes to the
 * account it was admitted to, and a job is never looked up on another account.
 */
export function clientOf(deps: PipelineDeps, job: Job): UpstreamClientPort {
  if (job.upstreamAccount === undefined || deps.upstreams === undefined) return deps.upstream;
  const client = deps.upstreams.client(job.upstreamAccount);
  if (client !== undefined) return client;
  throw new ReelayError(
    "upstream_account_unknown",
    `Job ${job.id} is on the upstream account "${job.upstreamAccount}", which is no longer configured (REELAY_UPSTREAMS).`,
  );
}

/**
 * Frees the job's admission slot; false when that failed. Bookkeeping only: a failed release
 * never fails the job, and the dispatcher's sweep frees a slot whose job has ended.
 */
export async function releaseSlot(deps: PipelineDeps, jobId: string): Promise<boolean> {
  if (deps.admission === undefined) return false;
  return deps.admission.release(jobId).then(
    () => true,
    () => false,
  );
}
