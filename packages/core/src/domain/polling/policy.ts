/**
 * When to poll an upstream task and when to give up (docs/contract.md §8: poll every 2-5 s with an exponential
 * backoff cap; the whole wait commonly 5-15 minutes, set by duration_sec and queueing). Pure
 * functions, so the Step Functions definition and the local runtime compute the same numbers.
 */
import { quantileMs, type GenerationHistory } from "./history.ts";

const MIN_POLL_MS = 2_000;
export const MAX_POLL_MS = 5_000;
const POLL_FACTOR = 1.5;

export interface PollDelayOptions {
  /** 0..1: the delay may move this fraction either way, still clamped to 2-5 s. Default 0. */
  jitter?: number;
  random?: () => number;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

/**
 * Wait before the next poll, where `pollNumber` counts polls already made (0 = the wait before the
 * first poll): 2 000, 3 000, 4 500, then 5 000 ms forever. Jitter never leaves the 2-5 s band.
 */
export function pollDelayMs(pollNumber: number, opts: PollDelayOptions = {}): number {
  const n = Number.isFinite(pollNumber) && pollNumber > 0 ? Math.floor(pollNumber) : 0;
  const base = Math.min(MAX_POLL_MS, MIN_POLL_MS * POLL_FACTOR ** Math.min(n, 64));
  const jitter = clamp(opts.jitter ?? 0, 0, 1);
  if (jitter === 0) return Math.round(base);
  const pick = clamp((opts.random ?? Math.random)(), 0, 1);
  return Math.round(clamp(base * (1 + jitter * (2 * pick - 1)), MIN_POLL_MS, MAX_POLL_MS));
}

/**
 * Looks this far apart see a finished task within 2.5 s of its end plus one answer's latency,
 * under the 3 s detection target with room for that latency (3 s apart would put the 95th
 * percentile at 2.85 s + latency, at the edge). Inside the contract's 2-5 s band.
 */
export const DETECT_POLL_MS = 2_500;
/**
 * How long one Poll invocation keeps looking (a look every DETECT_POLL_MS or pollDelayMs) before it
 * hands back to the state machine's Wait. A second of Lambda at 128 MB costs about 1/45 of the three
 * state transitions a Wait -> Poll -> Choice round costs, so looking from inside one invocation is
 * the cheap way to look often. 60 s plus one look with all its retries (3 x 15 s and a Retry-After
 * of up to a minute) stays inside the poll function's 180 s timeout.
 */
export const POLL_WINDOW_MS = 60_000;
/**
 * The first poll goes out at this quantile of the model's observed generation times ... A task that
 * finishes before the first look is noticed late by as much as it beat the look, so the look sits
 * low in the distribution: about 1 % of tasks finish before it.
 */
export const FIRST_POLL_QUANTILE = 0.01;
/**
 * ... less this margin, so the estimate settles just below the quantile rather than drifting up.
 * 2.5 s: 1.5 s under the quantile, and 1 s more because the state machine's Wait counts whole
 * seconds and rounds the first wait up by as much as that. At 1.5 s the bench's one task far
 * faster than its model's history (a 3-sigma draw) was seen 4.73-4.86 s late, its detection p99
 * a hair under the 5 s target.
 */
export const FIRST_POLL_MARGIN_MS = 2_500;
/** Fewer samples than this and the history is not trusted: the plain schedule applies. */
export const MIN_HISTORY_SAMPLES = 20;
/**
 * Until this quantile few tasks finish, so the looks there are SPARSE_POLL_MS apart (a task that
 * ends there is still seen within 5 s, no later than a 5 s poller would see it); from it on,
 * DETECT_POLL_MS apart. The sparse early looks are what a low first look costs.
 */
export const DENSE_FROM_QUANTILE = 0.05;
/** Past this quantile the task is slower than nearly all before it: back to the backoff schedule. */
export const TAIL_QUANTILE = 0.99;
/**
 * Looks before the 5 % quantile: 4.5 s apart, not 5, so a task that ends just after one is seen
 * within 5 s counting the next look's own answer time (under load, a tenth of a second and more).
 * Looks exactly 5 s apart put such a task at 5 s plus that time, past the 5 s poller's promise: the
 * bench's detection p99 came out 4.73-4.86 s against 5 in three runs.
 */
export const SPARSE_POLL_MS = 4_500;

/** Observed generation times for the job's model and duration (domain/polling/history.ts). */
export interface PollingHistory {
  history?: GenerationHistory;
}

function trusted(history: GenerationHistory | undefined): GenerationHistory | undefined {
  return history !== undefined && history.samples >= MIN_HISTORY_SAMPLES ? history : undefined;
}

/**
 * The wait from the upstream create to the first poll. Without a trusted history: the first poll
 * delay (the upstream never finishes in under 2 s). With one: the model's 1 % quantile less 2.5 s,
 * so about 99 % of tasks are still running at the first look and none is polled minutes early.
 *
 * This wait is longer than 5 s for any model that takes longer than about 8 s. docs/contract.md §8 says
 * "Polling interval 2-5 seconds, with exponential backoff cap"; we read that as the interval
 * between looks at a task, which stays 2-5 s. Someone could read it as also bounding the first
 * look after the create; then the prediction breaks it, on purpose.
 */
export function firstWaitMs(request: PollingHistory & { durationSec?: number } = {}): number {
  const history = trusted(request.history);
  const at = history === undefined ? undefined : quantileMs(history, FIRST_POLL_QUANTILE);
  return Math.max(pollDelayMs(0), Math.round((at ?? 0) - FIRST_POLL_MARGIN_MS));
}

/** A task the first look already saw done is filed at this fraction of that look's time (see below). */
export const EARLY_FINISH_FACTOR = 0.9;

/**
 * The generation time a look that saw the task done vouches for, counted from the create: the
 * midpoint between the last look that saw it running and this one. When the first look already
 * saw it done, all that is known is "before this look"; it is filed at 0.9 x the look's time. Filed
 * at the look's time itself, such samples would hold the 1 % quantile at the first look whenever
 * more than 1 % of tasks finish before it, so a prediction that came out late (the upstream got
 * faster) could never move earlier. Filed below it, they move nothing while fewer than 1 % finish
 * before the first look (they sit under the quantile either way), and otherwise pull the first look
 * 10 % earlier each time they make up the 1 %.
 */
export function observedGenerationMs(times: {
  submittedAtMs: number;
  runningSeenAtMs?: number;
  doneSeenAtMs: number;
}): number {
  const { submittedAtMs, runningSeenAtMs, doneSeenAtMs } = times;
  if (runningSeenAtMs !== undefined && runningSeenAtMs > submittedAtMs)
    return (runningSeenAtMs + doneSeenAtMs) / 2 - submittedAtMs;
  return EARLY_FINISH_FACTOR * (doneSeenAtMs - submittedAtMs);
}

export interface NextPollInput extends PollingHistory {
  /** Polls already made. */
  polls: number;
  /** Time since the upstream create. */
  sinceSubmitMs: number;
}

/**
 * The wait before the next look at a running task: SPARSE_POLL_MS before the history's 5 % quantile
 * (few tasks end there), DETECT_POLL_MS from there while the task may finish any moment (up to its
 * 99 % quantile); otherwise, and without a trusted history, the backoff schedule (pollDelayMs) up
 * to its 5 s cap.
 */
export function nextPollDelayMs(input: NextPollInput): number {
  const history = trusted(input.history);
  if (history === undefined) return pollDelayMs(input.polls);
  const dense = quantileMs(history, DENSE_FROM_QUANTILE) ?? 0;
  const tail = quantileMs(history, TAIL_QUANTILE) ?? 0;
  if (input.sinceSubmitMs < dense)
    return Math.max(DETECT_POLL_MS, Math.min(SPARSE_POLL_MS, dense - input.sinceSubmitMs));
  return input.sinceSubmitMs < tail ? DETECT_POLL_MS : pollDelayMs(input.polls);
}

const MIN_DEADLINE_MS = 5 * 60_000;
export const MAX_DEADLINE_MS = 15 * 60_000;
/**
 * The largest REELAY_JOB_TIMEOUT_S accepted (config refuses more): the formula's own maximum. A
 * longer poll loop could outgrow Step Functions' 25,000-event execution history in the worst case
 * the definition allows (test/flow/history-limit.test.ts computes it); raise this only with that test.
 */
export const MAX_JOB_TIMEOUT_S = MAX_DEADLINE_MS / 1000;
const BASE_DEADLINE_MS = 5 * 60_000;
const PER_VIDEO_SECOND_MS = 40_000;
const QUEUEING_MS = 2 * 60_000;
/** duration_sec=0 (alpha-2.7-videoedit: follow the source) is budgeted as that model's 10 s cap. */
const FOLLOW_SOURCE_SEC = 10;
const DEFAULT_DURATION_SEC = 5;

export interface DeadlineInput {
  durationSec?: number;
  /** The upstream is known to queue (e.g. a task was seen queued): allow 2 minutes more. */
  queueing?: boolean;
  /** REELAY_JOB_TIMEOUT_S through Config: replaces the formula entirely, up to MAX_JOB_TIMEOUT_S. */
  overrideS?: number;
}

/**
 * Overall deadline for one job, from create to a terminal state:
 *   5 min + 40 s per second of video (+ 2 min when queueing), clamped to [5, 15] min.
 * 5 s -> 8 min 20 s, 10 s -> 11 min 40 s, 15 s -> 15 min. Missing duration_sec counts as the
 * contract default 5. An operator override is taken as given (tests need short ones), as long as it
 * is a positive number, up to MAX_JOB_TIMEOUT_S.
 */
export function jobDeadlineMs(input: DeadlineInput): number {
  if (input.overrideS !== undefined && Number.isFinite(input.overrideS) && input.overrideS > 0) {
    return Math.round(Math.min(input.overrideS, MAX_JOB_TIMEOUT_S) * 1000);
  }
  const raw = input.durationSec;
  const seconds =
    raw === undefined || !Number.isFinite(raw) || raw < 0
      ? DEFAULT_DURATION_SEC
      : raw === 0
        ? FOLLOW_SOURCE_SEC
        : raw;
  const wanted =
    BASE_DEADLINE_MS + seconds * PER_VIDEO_SECOND_MS + (input.queueing === true ? QUEUEING_MS : 0);
  return clamp(wanted, MIN_DEADLINE_MS, MAX_DEADLINE_MS);
}

/**
 * Upper bound on polls for a deadline: every wait is at least MIN_POLL_MS, so no more than
 * deadline / MIN_POLL_MS polls fit, plus one final poll at the deadline. It bounds the loop; the
 * deadline, not this count, is what normally ends a job.
 */
export function maxPolls(deadlineMs: number): number {
  if (!Number.isFinite(deadlineMs) || deadlineMs <= 0) return 1;
  return Math.ceil(deadlineMs / MIN_POLL_MS) + 1;
}

/**
 * How long a look at the upstream task may run past the job's deadline, retries, backoff and
 * Retry-After included: one poll interval. After it the job fails with "timeout", so no job stays
 * unfinished longer than its deadline plus this and the steps' own time, however the upstream fails.
 * @alias of MAX_POLL_MS by design: the same length, named for what this bound is for.
 */
export const LAST_LOOK_MS = MAX_POLL_MS;

/** When (epoch ms) a look starting at `nowMs` must give up: LAST_LOOK_MS past the deadline, or past now for a look that starts late. */
export function lookUntilMs(deadlineAtMs: number, nowMs: number): number {
  return Math.max(deadlineAtMs, nowMs) + LAST_LOOK_MS;
}
