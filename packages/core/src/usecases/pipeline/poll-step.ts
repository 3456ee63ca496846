/**
 * The Poll step: looks at the job's upstream task (or, for a job that reuses, at its source) until
 * it is done or the poll window ends, and hands the state machine the next wait or the verdict.
 */
import type { ErrorCode } from "../../domain/error-codes.ts";
import { ReelayError } from "../../domain/errors.ts";
import type { Job } from "../../domain/jobs/types.ts";
import { isTerminal } from "../../domain/jobs/types.ts";
import { generationStatsKey } from "../../domain/polling/generation-key.ts";
import {
  lookUntilMs,
  nextPollDelayMs,
  observedGenerationMs,
  pollDelayMs,
} from "../../domain/polling/policy.ts";
import type { FlowState } from "../../domain/pipeline/flow-state.ts";
import { Requeued } from "../../domain/pipeline/step-errors.ts";
import { timeoutError } from "../../domain/pipeline/failure.ts";
import { recordDetection } from "../metrics/record-metrics.ts";
import type { TaskAnswer } from "../ports.ts";
import { verdictOf } from "../reuse/follow-source.ts";
import type { TraceSpan } from "../../domain/tracing.ts";
import { fallBack, fallbackAllowed, requeue } from "./fallback.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";
import {
  boundedMs,
  clientOf,
  guarded,
  historyOf,
  releaseSlot,
  stopped,
  unlessConflict,
  waitSecondsFor,
} from "./step-guard.ts";

/**
 * Looks at the upstream task until it is done or the poll window (deps.pollWindowMs) is used up,
 * pausing nextPollDelayMs between looks; then hands back to the state machine with the next wait.
 * Past the deadline or the poll bound, the job fails with code "timeout".
 */
export function poll(deps: PipelineDeps, state: FlowState): Promise<FlowState> {
  return guarded(deps, state, "poll", async (span) => {
    const next = await pollWindow(deps, state, span);
    // The upstream task ended (or the job did): its slot goes to the next job in the queue.
    if (next.outcome !== "running" && (await releaseSlot(deps, state.jobId)))
      return { ...next, slotReleased: true };
    return next;
  });
}

async function pollWindow(
  deps: PipelineDeps,
  state: FlowState,
  span: TraceSpan,
): Promise<FlowState> {
  const job = await deps.jobs.require(state.jobId);
  span.noteJob(job);
  if (isTerminal(job.status)) return stopped(state, job);
  if (job.reusedFrom !== undefined)
    return lookAtSource(deps, { ...job, reusedFrom: job.reusedFrom }, state);
  // Fell back to the queue and was stopped before its queue entry was written: write it now.
  if (job.status === "queued" && job.upstreamTaskId === undefined && job.fallbacks !== undefined) {
    await requeue(deps, job);
    throw new Requeued(job.id);
  }
  if (job.upstreamTaskId === undefined && (state.outputUrls?.length ?? 0) > 0)
    return { ...state, outcome: "succeeded", waitSeconds: 0 };
  if (job.upstreamTaskId === undefined) {
    throw new ReelayError(
      "not_submitted",
      `Job ${job.id} has no upstream task to poll; Submit did not finish.`,
    );
  }
  const task = { ...job, upstreamTaskId: job.upstreamTaskId };
  const windowEnd = deps.now().getTime() + (deps.pollWindowMs ?? 0);
  const history = await historyOf(deps, job);
  const sleep = sleepOf(deps);
  let current = state;
  for (let first = true; ; first = false) {
    // Looks keep their cadence: each pause is counted from when the look before it began.
    const lookedAt = deps.now().getTime();
    if (!first) {
      // A cancel during the pause ends the window before the task is asked about again.
      const latest = await deps.jobs.require(job.id);
      if (isTerminal(latest.status)) return stopped(current, latest);
    }
    current = await look(deps, task, current);
    if (current.outcome !== "running") return current;
    const now = deps.now();
    const delayMs = nextPollDelayMs({
      polls: current.polls,
      sinceSubmitMs: lookedAt - Date.parse(job.submittedAt ?? job.createdAt),
      history,
    });
    const pauseMs = boundedMs(
      Math.max(0, lookedAt + delayMs - now.getTime()),
      state.deadlineAt,
      now,
    );
    const handOff = { ...current, waitSeconds: waitSecondsFor(pauseMs, state.deadlineAt, now) };
    if (now.getTime() + pauseMs > windowEnd) return handOff;
    try {
      await sleep(pauseMs);
    } catch {
      return handOff;
    }
  }
}

/** One look at the upstream task: the job's verdict, or "running" with the look counted. */
async function look(
  deps: PipelineDeps,
  job: Job & { upstreamTaskId: string },
  state: FlowState,
): Promise<FlowState> {
  // Ask first: a task that finished just before a late poll is still worth its download.
  const { answer, failed } = await ask(deps, job, state);
  const now = deps.now();
  const done =
    answer !== undefined && answer.state.state !== "failed" && answer.state.state !== "running";
  // A task seen done is recorded with the look's count, in one write.
  const counted = await countPoll(deps, job.id, {
    ...(failed === undefined ? {} : { failedLook: failed }),
    ...(done ? { upstreamDoneAt: now.toISOString() } : {}),
  });
  if (counted === undefined) return stopped(state, await deps.jobs.require(job.id));
  const next = { ...state, polls: counted.polls };
  if (answer?.state.state === "failed") {
    const reason = answer.state.error?.message ?? "The upstream task failed without a reason.";
    const error = { code: "upstream_task_failed" satisfies ErrorCode, message: reason };
    // Tried again on another account where REELAY_FALLBACK_ATTEMPTS allows (fallback.ts).
    if (fallbackAllowed(deps, counted, error) && (await fallBack(deps, counted, error)))
      throw new Requeued(job.id);
    return { ...next, outcome: "failed", waitSeconds: 0, error };
  }
  if (answer === undefined || answer.state.state === "running") {
    const lastLook = failed === undefined ? "" : `; the last look failed: ${failed.message}`;
    if (now.getTime() >= Date.parse(state.deadlineAt))
      return { ...next, outcome: "failed", waitSeconds: 0, error: timeoutError(next, lastLook) };
    if (counted.polls >= state.maxPolls)
      return {
        ...next,
        outcome: "failed",
        waitSeconds: 0,
        error: timeoutError(next, `, the poll limit was reached${lastLook}`),
      };
    return {
      ...next,
      outcome: "running",
      ...(answer === undefined ? {} : { runningSeenAt: now.toISOString() }),
    };
  }
  // Seen done before (a repeat or a resume): its sample is in the stats already. `job` is the
  // record this Poll read first; no look of its window before this one saw the task done.
  if (job.upstreamDoneAt === undefined && job.submittedAt !== undefined) {
    const ms = observedGenerationMs({
      submittedAtMs: Date.parse(job.submittedAt),
      ...(state.runningSeenAt === undefined
        ? {}
        : { runningSeenAtMs: Date.parse(state.runningSeenAt) }),
      doneSeenAtMs: now.getTime(),
    });
    // Advisory, like reading it: a lost sample must not fail a job whose task is done.
    await deps.generationStats?.record(generationStatsKey(job), ms).catch(() => undefined);
    recordDetection(deps.metrics, job, {
      runningSeenAt: state.runningSeenAt,
      doneSeenAt: now,
    });
  }
  return {
    ...next,
    outcome: "succeeded",
    waitSeconds: 0,
    outputUrls: answer.state.outputUrls,
    outputUrlsSeenAt: now.toISOString(),
  };
}

/**
 * Asks the upstream about the task, giving up LAST_LOOK_MS past the deadline at the latest. An
 * upstream that is down, slow or rate limiting (a retryable error) makes a look that learned
 * nothing (undefined): the loop goes on at its pace and the deadline still ends it. Thrown to the
 * state machine instead, its Retry waits (up to 120 s each) could carry a job far past its deadline.
 */
async function ask(
  deps: PipelineDeps,
  job: Job & { upstreamTaskId: string },
  state: FlowState,
): Promise<{ answer?: TaskAnswer; failed?: ReelayError }> {
  const opts = { until: lookUntilMs(Date.parse(state.deadlineAt), deps.now().getTime()) };
  const client = clientOf(deps, job);
  try {
    return {
      answer:
        job.kind === "video"
          ? await client.getVideoTask(job.upstreamTaskId, opts)
          : await client.getImageTask(job.upstreamTaskId, opts),
    };
  } catch (error) {
    if (error instanceof ReelayError && error.retryable) return { failed: error };
    throw error;
  }
}

/** Counts the look, with what it learned: a failed look's error, or the time the task was seen done. */
function countPoll(
  deps: PipelineDeps,
  jobId: string,
  learned: { failedLook?: ReelayError; upstreamDoneAt?: string },
): Promise<Job | undefined> {
  const { failedLook, upstreamDoneAt } = learned;
  const set = {
    ...(failedLook === undefined
      ? {}
      : { lastError: { code: failedLook.code, message: failedLook.message, step: "poll" } }),
    ...(upstreamDoneAt === undefined ? {} : { upstreamDoneAt }),
  };
  return unlessConflict(
    deps.jobs.update(jobId, set, { unlessTerminal: true, increment: { polls: 1 } }),
  );
}

function sleepOf(deps: PipelineDeps): (ms: number) => Promise<void> {
  return deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
}

/**
 * One Poll of a job that reuses: its source's verdict (reuse/follow-source.ts), the look counted
 * so the flow's loop bound holds while a source runs long.
 */
async function lookAtSource(
  deps: PipelineDeps,
  job: Job & { reusedFrom: string },
  state: FlowState,
): Promise<FlowState> {
  const verdict = verdictOf(job, await deps.jobs.get(job.reusedFrom), deps.now());
  const counted = await countPoll(deps, job.id, {});
  if (counted === undefined) return stopped(state, await deps.jobs.require(job.id));
  const next = { ...state, polls: counted.polls };
  if (verdict.outcome === "failed")
    return { ...next, outcome: "failed", waitSeconds: 0, error: verdict.error };
  if (verdict.outcome === "succeeded") return { ...next, outcome: "succeeded", waitSeconds: 0 };
  return {
    ...next,
    outcome: "running",
    waitSeconds: waitSecondsFor(pollDelayMs(counted.polls), state.deadlineAt, deps.now()),
  };
}
