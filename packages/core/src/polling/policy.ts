/**
 * When to poll an upstream task and when to give up (spec §8: poll every 2-5 s with an exponential
 * backoff cap; the whole wait commonly 5-15 minutes, set by duration_sec and queueing). Pure
 * functions, so the Step Functions definition and the local runtime compute the same numbers.
 */

export const MIN_POLL_MS = 2_000;
export const MAX_POLL_MS = 5_000;
export const POLL_FACTOR = 1.5;

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

/** Hint for the first wait after a create. The upstream never finishes in under 2 s, so the first poll delay. */
export function firstWaitMs(_request?: { durationSec?: number }): number {
  return pollDelayMs(0);
}

export const MIN_DEADLINE_MS = 5 * 60_000;
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
    raw === undefined || !Number.isFinite(raw) || raw < 0 ? DEFAULT_DURATION_SEC : raw === 0 ? FOLLOW_SOURCE_SEC : raw;
  const wanted = BASE_DEADLINE_MS + seconds * PER_VIDEO_SECOND_MS + (input.queueing === true ? QUEUEING_MS : 0);
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
