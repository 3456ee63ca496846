/**
 * The job flow's steps, one per Task state (Submit, Poll, Download, Finish, RecordFailure). Each
 * acts on the job record as it stands, so a step that is retried, repeated after a crash, or
 * resumed by the local stack does the right thing: never a second upstream task, never a terminal
 * job moved, never a second event. Submit, Download and Finish open with the conditional write
 * their usual case needs (its answer is the record); only when its condition fails (a repeat, a
 * resume, a cancel) do they read the record and decide from it.
 */
import type { ErrorCode } from "../../domain/error-codes.ts";
import { isReelayError, ReelayError } from "../../domain/errors.ts";
import type { Job, JobOutput, TerminalStatus } from "../../domain/jobs/types.ts";
import { isTerminal } from "../../domain/jobs/types.ts";
import { generationStatsKey } from "../../domain/polling/generation-key.ts";
import { durationOf } from "../../domain/jobs/request.ts";
import type { GenerationHistory } from "../../domain/polling/history.ts";
import {
  firstWaitMs,
  jobDeadlineMs,
  lookUntilMs,
  maxPolls as pollLimit,
  nextPollDelayMs,
  observedGenerationMs,
  pollDelayMs,
} from "../../domain/polling/policy.ts";
import {
  recordCopy,
  recordDetection,
  recordVerificationFailure,
} from "../metrics/record-metrics.ts";
import { type CopiedObject, copyUrlToS3, type KeyChoice } from "../copy/copy-output.ts";
import type { TaskAnswer, UpstreamClientPort } from "../ports.ts";
import { fallBack, fallbackAllowed, requeue } from "./fallback.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";
import type { FailureInput, FlowState } from "../../domain/pipeline/flow-state.ts";
import { asStepError, Requeued, TransientError } from "../../domain/pipeline/step-errors.ts";
import { failureOf, timeoutError } from "../../domain/pipeline/failure.ts";
import { imageKey, videoKey } from "../../domain/jobs/outputs.ts";
import { emitOnce, writeManifest } from "./terminal.ts";
import { verifiedOutputs } from "./verify-outputs.ts";
import { inSpan, jobAttributes, type TraceSpan } from "../../domain/tracing.ts";
import { deliverOutputs } from "../copy/deliver-outputs.ts";
import { expiryOf, retentionTags } from "../../domain/jobs/retention.ts";
import { reuseScopeOf } from "../../domain/jobs/fingerprint.ts";
import { copyReused, verdictOf } from "../reuse/follow-source.ts";
import { noteThumbnailFailure, previewsFor } from "../thumbnails/make-thumbnails.ts";

/**
 * Runs a step in its span, a child of the job's trace context (the step's input carries it);
 * whatever it throws leaves as a TransientError or a permanent ReelayError, recorded on the job.
 */
function guarded<T>(
  deps: PipelineDeps,
  input: Pick<FlowState, "jobId" | "traceparent">,
  step: string,
  run: (span: TraceSpan) => Promise<T>,
): Promise<T> {
  return inStepSpan(input, step, (span) => recorded(deps, input.jobId, step, () => run(span)));
}

/** The step's span, a child of the job's traceparent when its input carries one. */
function inStepSpan<T>(
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
function stopped(state: FlowState, job: Job): FlowState {
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
function boundedMs(ms: number, deadlineAt: string, now: Date): number {
  return Math.min(ms, Math.max(Date.parse(deadlineAt) - now.getTime(), 1_000));
}

/** The Wait state's whole seconds for a pause of `ms`. */
function waitSecondsFor(ms: number, deadlineAt: string, now: Date): number {
  return Math.max(1, Math.ceil(boundedMs(ms, deadlineAt, now) / 1000));
}

/** The model's observed generation times. Advisory: unreadable stats mean the plain schedule, never a failed step. */
async function historyOf(deps: PipelineDeps, job: Job): Promise<GenerationHistory | undefined> {
  return deps.generationStats?.history(generationStatsKey(job)).catch(() => undefined);
}

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

/** The write's answer, or undefined when the job was not in a state it could be made in. */
async function unlessConflict(write: Promise<Job>): Promise<Job | undefined> {
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
function clientOf(deps: PipelineDeps, job: Job): UpstreamClientPort {
  if (job.upstreamAccount === undefined || deps.upstreams === undefined) return deps.upstream;
  const client = deps.upstreams.client(job.upstreamAccount);
  if (client !== undefined) return client;
  throw new ReelayError(
    "upstream_account_unknown",
    `Job ${job.id} is on the upstream account "${job.upstreamAccount}", which is no longer configured (REELAY_UPSTREAMS).`,
  );
}

/**
 * The upstream create. The same idempotency key on every attempt: the upstream answers a repeat
 * with the task it already made. Under admission control a 429 puts the job back in the queue; in
 * a pool, so does a create the account certainly did not accept (a refused connection, a 401/403),
 * and the job may then go to another account unless a create of it may have been accepted there:
 * an earlier Submit's (`sole` counts them), or an earlier try of this very call (the client retried
 * a timeout, a reset or a 5xx before the refusal). A create whose outcome is unknown (a timeout, a
 * reset, a 5xx: a service may make the task and then fail its answer) is retried only here, on the
 * same account, by the client and the state machine.
 */
async function createTask(deps: PipelineDeps, job: Job) {
  const admission = deps.admission;
  const pool = admission?.isPool === true;
  const account = admission?.accountOf(job).name;
  const opts = {
    idempotencyKey: job.idempotencyKey,
    ...(admission === undefined ? {} : { noRetryWhenRateLimited: true }),
    ...(pool ? { noRetryWhenNotAccepted: true } : {}),
  };
  // This create is the only one of the job not known refused: a refusal leaves it free to move.
  const sole = job.attempts <= (job.refusedSends ?? 0) + 1;
  const client = clientOf(deps, job);
  try {
    const created =
      job.kind === "video"
        ? await client.createVideo(job.request, opts)
        : await client.createImage(job.request, opts);
    // Advisory: a lost update only makes a learned limit grow a little later.
    await admission?.cleanCreate(account).catch(() => undefined);
    return created;
  } catch (error) {
    if (admission === undefined) throw error;
    // Only this call's one request was refused: none of its tries may have made a task.
    const alone = sole && triesOf(error) <= 1;
    if (isRateLimited(error)) {
      const retryAfterMs = (error as ReelayError).details?.retryAfterMs;
      await admission.requeue(
        job,
        typeof retryAfterMs === "number" ? retryAfterMs : undefined,
        alone,
        error,
      );
      throw new Requeued(job.id);
    }
    if (pool && notAccepted(error)) {
      await admission.refused(job, alone, error);
      throw new Requeued(job.id);
    }
    if (pool && account !== undefined && error instanceof ReelayError && error.retryable)
      await admission.createFailed(account, error).catch(() => undefined);
    throw error;
  }
}

/** The account certainly made no task: nothing listened, or it refused the key. */
function notAccepted(error: unknown): boolean {
  if (!(error instanceof ReelayError)) return false;
  return error.code === "upstream_auth" || error.details?.notAccepted === true;
}

/** The HTTP requests the client sent for this one call (its own retries included). */
function triesOf(error: unknown): number {
  const attempts = error instanceof ReelayError ? error.details?.attempts : undefined;
  return typeof attempts === "number" ? attempts : 1;
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

function isRateLimited(error: unknown): boolean {
  return isReelayError(error, "upstream_rate_limited");
}

/** Creates the upstream task exactly once: none at all when the job already has a task id. */
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
      const created = await createTask(deps, job);
      if (created.state.state === "failed") {
        throw new ReelayError(
          "upstream_task_failed",
          created.state.error?.message ?? "The upstream refused the task.",
        );
      }
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

/**
 * Frees the job's admission slot; false when that failed. Bookkeeping only: a failed release
 * never fails the job, and the dispatcher's sweep frees a slot whose job has ended.
 */
async function releaseSlot(deps: PipelineDeps, jobId: string): Promise<boolean> {
  if (deps.admission === undefined) return false;
  return deps.admission.release(jobId).then(
    () => true,
    () => false,
  );
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

/**
 * The look that saw the task done was given its output URLs; Download uses them for this long
 * after that look, which saves a task query per job. Older ones (a retried or resumed Download) may
 * be near expiry (docs/contract.md §8: they expire soon after success), so the task is asked again.
 */
const FRESH_URLS_MS = 60_000;

/** The poll's URLs while fresh; else fresh ones from the task itself; a synchronous image's from the state. */
function recentUrlsOf(deps: PipelineDeps, job: Job, state: FlowState): string[] | undefined {
  if (job.upstreamTaskId === undefined) return state.outputUrls ?? [];
  const seenAt =
    state.outputUrlsSeenAt === undefined ? Number.NaN : Date.parse(state.outputUrlsSeenAt);
  const fresh = deps.now().getTime() - seenAt < FRESH_URLS_MS;
  return fresh && (state.outputUrls ?? []).length > 0 ? state.outputUrls : undefined;
}

/** Fresh URLs from the task itself. */
async function askedUrlsOf(deps: PipelineDeps, job: Job): Promise<string[]> {
  if (job.upstreamTaskId === undefined) return [];
  const client = clientOf(deps, job);
  const answer =
    job.kind === "video"
      ? await client.getVideoTask(job.upstreamTaskId)
      : await client.getImageTask(job.upstreamTaskId);
  if (answer.state.state === "failed") {
    throw new ReelayError(
      "upstream_task_failed",
      answer.state.error?.message ?? "The upstream task failed.",
    );
  }
  if (answer.state.state === "running") {
    throw new TransientError(
      "output_not_ready",
      `The upstream task ${job.upstreamTaskId} shows no output yet.`,
    );
  }
  return answer.state.outputUrls;
}

/**
 * The media probe with its parsers (mp4box, image-size: a fifth of a function's code), loaded by the
 * first download rather than by every function that runs a pipeline step; the Download function
 * loads it with its module (functions/download.ts).
 */
export function loadMediaProbe(): Promise<typeof import("../../domain/media/probe.ts")> {
  return import("../../domain/media/probe.ts");
}

/**
 * One output copied and its structure read on the way (output_invalid when it does not parse),
 * counted as an upstream download (a 429 too) and by its bytes and speed.
 */
async function meteredCopy(
  deps: PipelineDeps,
  job: Job,
  url: string,
  key: KeyChoice,
): Promise<CopiedObject> {
  const { metrics } = deps;
  const operation = "download";
  const started = performance.now();
  metrics.count("reelay_upstream_requests_total", { operation });
  try {
    const { mediaProbe } = await loadMediaProbe();
    const copied = await copyUrlToS3(
      deps.fetch,
      url,
      deps.objects,
      key,
      mediaProbe(job.kind),
      retentionTags(job),
    );
    recordCopy(metrics, copied.bytes, performance.now() - started);
    return copied;
  } catch (error) {
    if (error instanceof ReelayError && error.status === 429)
      metrics.count("reelay_upstream_429_total", { operation });
    if (isReelayError(error, "output_invalid"))
      recordVerificationFailure(metrics, job, "output_invalid");
    throw error;
  }
}

async function copyOutputs(deps: PipelineDeps, job: Job, urls: string[]): Promise<JobOutput[]> {
  if (urls.length === 0)
    throw new ReelayError(
      "output_missing",
      `The upstream task for ${job.id} succeeded without an output URL.`,
    );
  const outputs: JobOutput[] = [];
  for (const [index, url] of (job.kind === "video" ? urls.slice(0, 1) : urls).entries()) {
    const key =
      job.kind === "video"
        ? videoKey(job.id)
        : (contentType: string) => imageKey(job.id, index, contentType, url);
    const copied = await meteredCopy(deps, job, url, key);
    outputs.push({
      bucket: copied.bucket,
      key: copied.key,
      bytes: copied.bytes,
      sha256: copied.sha256,
      contentType: copied.contentType,
      sourceUrlHost: copied.sourceUrlHost,
      ...(copied.media === undefined ? {} : { media: copied.media }),
    });
  }
  return outputs;
}

/** The task's outputs fetched into the bucket, with the poll's URLs while fresh. */
async function downloadOutputs(
  deps: PipelineDeps,
  job: Job,
  state: FlowState,
): Promise<JobOutput[]> {
  const recent = recentUrlsOf(deps, job, state);
  try {
    return await copyOutputs(deps, job, recent ?? (await askedUrlsOf(deps, job)));
  } catch (error) {
    // The poll's URLs were refused (expired after all): once more with fresh ones.
    if (recent === undefined || job.upstreamTaskId === undefined) throw error;
    if (!isReelayError(error, "output_unavailable")) throw error;
    return copyOutputs(deps, job, await askedUrlsOf(deps, job));
  }
}

/**
 * Streams every output into outputs/<jobId>/ (a job that reuses copies its source's instead), reading its structure on the way (output_invalid,
 * and output_mismatch as a warning or under REELAY_VERIFY=strict a failure), makes a video's
 * previews from the stored copy (usecases/thumbnails/make-thumbnails.ts), and writes the job.json
 * manifest.
 */
export function download(deps: PipelineDeps, state: FlowState): Promise<FlowState> {
  return guarded(deps, state, "download", async (span) => {
    const toDownloading = () =>
      deps.jobs.transition(state.jobId, { from: ["queued", "running"], to: "downloading" });
    let job = (await unlessConflict(toDownloading())) ?? (await deps.jobs.require(state.jobId));
    if (isTerminal(job.status)) {
      throw new ReelayError(
        "job_conflict",
        `Job ${job.id} is already ${job.status}; nothing to download.`,
        { details: { status: job.status } },
      );
    }
    if (job.status !== "downloading") job = await toDownloading();
    span.noteJob(job);
    const outputs =
      job.reusedFrom === undefined
        ? await downloadOutputs(deps, job, state)
        : await copyReused(deps, { ...job, reusedFrom: job.reusedFrom });
    const delivered = await deliverOutputs(deps, job, verifiedOutputs(deps, job, outputs));
    // A video's poster and spritesheet, from the copy just stored (best effort: a warning at worst),
    // recorded in the same write as the outputs.
    const previews = await previewsFor(deps, { ...job, ...delivered });
    job = await deps.jobs.update(
      job.id,
      { ...delivered, ...previews, ...expiryOf(job, deps.now()) },
      { unlessTerminal: true },
    );
    await writeManifest(deps, job);
    return { ...state, outcome: "succeeded", waitSeconds: 0 };
  });
}

/** The record after emitOnce: its answer, else (another step recorded the emit) read again. */
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
