import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BUCKET_RATIO,
  bucketOf,
  quantileMs,
  type GenerationHistory,
} from "../../../src/domain/polling/history.ts";
import {
  DETECT_POLL_MS,
  EARLY_FINISH_FACTOR,
  FIRST_POLL_MARGIN_MS,
  FIRST_POLL_QUANTILE,
  firstWaitMs,
  jobDeadlineMs,
  MAX_JOB_TIMEOUT_S,
  maxPolls,
  MIN_HISTORY_SAMPLES,
  nextPollDelayMs,
  observedGenerationMs,
  pollDelayMs,
  TAIL_QUANTILE,
  DENSE_FROM_QUANTILE,
  SPARSE_POLL_MS,
} from "../../../src/domain/polling/policy.ts";

const MIN = 60_000;

describe("pollDelayMs", () => {
  it("starts at 2 000 ms and grows by 1.5 to the 5 000 ms cap", () => {
    expect([0, 1, 2, 3, 4, 50].map((n) => pollDelayMs(n))).toEqual([
      2000, 3000, 4500, 5000, 5000, 5000,
    ]);
  });

  it("never decreases from one poll to the next without jitter", () => {
    for (let n = 0; n < 100; n += 1)
      expect(pollDelayMs(n + 1)).toBeGreaterThanOrEqual(pollDelayMs(n));
  });

  it("treats a negative, fractional or NaN poll number as a valid count", () => {
    expect(pollDelayMs(-3)).toBe(2000);
    expect(pollDelayMs(Number.NaN)).toBe(2000);
    expect(pollDelayMs(1.7)).toBe(3000);
    expect(pollDelayMs(Number.POSITIVE_INFINITY)).toBe(2000);
  });

  it("stays within 2-5 s for any poll number, jitter and random draw", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 10_000 }),
        fc.double({ min: -1, max: 2, noNaN: true }),
        fc.double({ min: -1, max: 2, noNaN: true }),
        (n, jitter, r) => {
          const delay = pollDelayMs(n, { jitter, random: () => r });
          expect(delay).toBeGreaterThanOrEqual(2000);
          expect(delay).toBeLessThanOrEqual(5000);
        },
      ),
    );
  });

  it("moves the delay with jitter when there is room inside the band", () => {
    expect(pollDelayMs(1, { jitter: 0.2, random: () => 0 })).toBe(2400);
    expect(pollDelayMs(1, { jitter: 0.2, random: () => 1 })).toBe(3600);
  });
});

/** A history of `count` samples of exactly `ms` each (one bucket). */
function flat(ms: number, count: number): GenerationHistory {
  return { samples: count, buckets: { [bucketOf(ms)]: count } };
}

/** 100 samples 100, 101, ..., 199 s: the 5 % quantile is 105 s, the 99 % quantile 199 s (to a bucket). */
const spread: GenerationHistory = (() => {
  const buckets: Record<number, number> = {};
  for (let s = 100; s < 200; s++)
    buckets[bucketOf(s * 1000)] = (buckets[bucketOf(s * 1000)] ?? 0) + 1;
  return { samples: 100, buckets };
})();

describe("firstWaitMs", () => {
  it("is the first poll delay without a history", () => {
    expect(firstWaitMs({ durationSec: 10 })).toBe(2000);
    expect(firstWaitMs()).toBe(2000);
  });

  it("is the first poll delay while the history has fewer than MIN_HISTORY_SAMPLES samples", () => {
    expect(firstWaitMs({ history: flat(300_000, MIN_HISTORY_SAMPLES - 1) })).toBe(2000);
    expect(firstWaitMs({ history: flat(300_000, MIN_HISTORY_SAMPLES) })).toBeGreaterThan(290_000);
  });

  it("is the history's 1 % quantile less FIRST_POLL_MARGIN_MS once trusted", () => {
    expect(FIRST_POLL_QUANTILE).toBe(0.01);
    const wait = firstWaitMs({ history: spread });
    expect(wait).toBe(Math.round(quantileMs(spread, FIRST_POLL_QUANTILE)! - FIRST_POLL_MARGIN_MS));
    expect(wait).toBeGreaterThan(101_000 / BUCKET_RATIO - FIRST_POLL_MARGIN_MS);
    expect(wait).toBeLessThan(101_000 * BUCKET_RATIO - FIRST_POLL_MARGIN_MS);
  });

  it("never goes under the first poll delay, however fast the model", () => {
    expect(firstWaitMs({ history: flat(1_000, 50) })).toBe(2000);
  });
});

describe("nextPollDelayMs", () => {
  it("without a trusted history follows the backoff schedule", () => {
    expect([0, 1, 2, 3].map((polls) => nextPollDelayMs({ polls, sinceSubmitMs: 150_000 }))).toEqual(
      [2000, 3000, 4500, 5000],
    );
    expect(
      nextPollDelayMs({
        polls: 3,
        sinceSubmitMs: 150_000,
        history: flat(160_000, MIN_HISTORY_SAMPLES - 1),
      }),
    ).toBe(5000);
  });

  it("is 4.5 s before the history's 5 % quantile (never past it by more than a look), then DETECT_POLL_MS", () => {
    // Half a second under the 5 s poller's delay: room for the next look's own answer time.
    expect(SPARSE_POLL_MS).toBe(4500);
    const dense = quantileMs(spread, DENSE_FROM_QUANTILE)!;
    const early = firstWaitMs({ history: spread });
    expect(nextPollDelayMs({ polls: 1, sinceSubmitMs: early, history: spread })).toBe(
      Math.max(DETECT_POLL_MS, Math.min(SPARSE_POLL_MS, dense - early)),
    );
    expect(nextPollDelayMs({ polls: 1, sinceSubmitMs: dense - 20_000, history: spread })).toBe(
      4500,
    );
    expect(nextPollDelayMs({ polls: 2, sinceSubmitMs: dense - 3_000, history: spread })).toBe(3000);
    expect(nextPollDelayMs({ polls: 2, sinceSubmitMs: dense - 1_000, history: spread })).toBe(
      DETECT_POLL_MS,
    );
    expect(nextPollDelayMs({ polls: 3, sinceSubmitMs: dense, history: spread })).toBe(
      DETECT_POLL_MS,
    );
  });

  it("is DETECT_POLL_MS (2.5 s, inside the 2-5 s band) from the 5 % to the history's 99 % quantile", () => {
    expect(DETECT_POLL_MS).toBe(2500);
    expect(nextPollDelayMs({ polls: 7, sinceSubmitMs: 110_000, history: spread })).toBe(
      DETECT_POLL_MS,
    );
    expect(
      nextPollDelayMs({
        polls: 7,
        sinceSubmitMs: quantileMs(spread, TAIL_QUANTILE)! - 1,
        history: spread,
      }),
    ).toBe(DETECT_POLL_MS);
  });

  it("past the 99 % quantile goes back to the backoff schedule", () => {
    expect(
      nextPollDelayMs({
        polls: 7,
        sinceSubmitMs: quantileMs(spread, TAIL_QUANTILE)!,
        history: spread,
      }),
    ).toBe(5000);
  });
});

describe("observedGenerationMs", () => {
  it("is the midpoint of the last running look and the done look", () => {
    expect(
      observedGenerationMs({ submittedAtMs: 1_000, runningSeenAtMs: 91_000, doneSeenAtMs: 94_000 }),
    ).toBe(91_500);
    expect(
      observedGenerationMs({ submittedAtMs: 0, runningSeenAtMs: 50_000, doneSeenAtMs: 60_000 }),
    ).toBe(55_000);
  });

  it("is 0.9 x the done look's time when the first look already saw the task done", () => {
    expect(EARLY_FINISH_FACTOR).toBe(0.9);
    expect(observedGenerationMs({ submittedAtMs: 1_000, doneSeenAtMs: 301_000 })).toBe(270_000);
    expect(
      observedGenerationMs({ submittedAtMs: 1_000, runningSeenAtMs: 1_000, doneSeenAtMs: 301_000 }),
    ).toBe(270_000);
  });

  it("leaves the 1 % quantile alone while fewer than 1 % finish before the first look, and pulls it earlier once more do", () => {
    const firstLookMs = 100_000;
    const running = Array.from({ length: 197 }, (_, i) => 101_000 + i * 500);
    const historyWith = (early: number) => {
      const buckets: Record<number, number> = {};
      const add = (ms: number) => (buckets[bucketOf(ms)] = (buckets[bucketOf(ms)] ?? 0) + 1);
      running.forEach(add);
      for (let i = 0; i < early; i++)
        add(observedGenerationMs({ submittedAtMs: 0, doneSeenAtMs: firstLookMs }));
      return { samples: running.length + early, buckets };
    };
    const without = quantileMs(
      { samples: 197, buckets: historyWith(0).buckets },
      FIRST_POLL_QUANTILE,
    )!;
    expect(quantileMs(historyWith(1), FIRST_POLL_QUANTILE)!).toBeGreaterThan(firstLookMs);
    expect(quantileMs(historyWith(1), FIRST_POLL_QUANTILE)!).toBeLessThanOrEqual(without);
    expect(quantileMs(historyWith(20), FIRST_POLL_QUANTILE)!).toBeLessThan(firstLookMs * 0.95);
  });
});

describe("jobDeadlineMs", () => {
  it.each([
    [{ durationSec: 5 }, 8 * MIN + 20_000],
    [{}, 8 * MIN + 20_000],
    [{ durationSec: 10 }, 11 * MIN + 40_000],
    [{ durationSec: 15 }, 15 * MIN],
    [{ durationSec: 60 }, 15 * MIN],
    [{ durationSec: 1 }, 5 * MIN + 40_000],
    [{ durationSec: 0 }, 11 * MIN + 40_000],
    [{ durationSec: -4 }, 8 * MIN + 20_000],
    [{ durationSec: 5, queueing: true }, 10 * MIN + 20_000],
    [{ durationSec: 12, queueing: true }, 15 * MIN],
  ])(
    "%j -> %i ms (5 min + 40 s per video second, +2 min queueing, clamped to 5-15 min)",
    (input, expected) => {
      expect(jobDeadlineMs(input)).toBe(expected);
    },
  );

  it("stays inside 5-15 minutes for any duration without an override", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), fc.boolean(), (durationSec, queueing) => {
        const deadline = jobDeadlineMs({ durationSec, queueing });
        expect(deadline).toBeGreaterThanOrEqual(5 * MIN);
        expect(deadline).toBeLessThanOrEqual(15 * MIN);
      }),
    );
  });

  it("lets a positive override replace the formula in both directions, up to MAX_JOB_TIMEOUT_S", () => {
    expect(jobDeadlineMs({ durationSec: 15, overrideS: 3 })).toBe(3000);
    expect(jobDeadlineMs({ durationSec: 5, overrideS: 720 })).toBe(12 * MIN);
    expect(MAX_JOB_TIMEOUT_S).toBe(15 * 60);
    expect(jobDeadlineMs({ durationSec: 5, overrideS: 3600 })).toBe(MAX_JOB_TIMEOUT_S * 1000);
  });

  it("ignores a zero, negative or NaN override", () => {
    for (const overrideS of [0, -1, Number.NaN])
      expect(jobDeadlineMs({ durationSec: 5, overrideS })).toBe(8 * MIN + 20_000);
  });
});

describe("maxPolls", () => {
  it("bounds the polls that fit in a deadline at the minimum delay, plus one", () => {
    expect(maxPolls(10_000)).toBe(6);
    expect(maxPolls(15 * MIN)).toBe(451);
  });

  it("is at least the number of polls a real schedule makes before the deadline", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 15 * MIN }), (deadline) => {
        let elapsed = 0;
        let polls = 0;
        while (elapsed + pollDelayMs(polls) <= deadline) {
          elapsed += pollDelayMs(polls);
          polls += 1;
        }
        expect(maxPolls(deadline)).toBeGreaterThanOrEqual(polls + 1);
      }),
    );
  });

  it("gives one poll for a zero or invalid deadline", () => {
    expect(maxPolls(0)).toBe(1);
    expect(maxPolls(Number.NaN)).toBe(1);
  });
});
