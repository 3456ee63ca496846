import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstWaitMs, jobDeadlineMs, MAX_JOB_TIMEOUT_S, maxPolls, pollDelayMs } from "../../src/polling/policy.ts";

const MIN = 60_000;

describe("pollDelayMs", () => {
  it("starts at 2 000 ms and grows by 1.5 to the 5 000 ms cap", () => {
    expect([0, 1, 2, 3, 4, 50].map((n) => pollDelayMs(n))).toEqual([2000, 3000, 4500, 5000, 5000, 5000]);
  });

  it("never decreases from one poll to the next without jitter", () => {
    for (let n = 0; n < 100; n += 1) expect(pollDelayMs(n + 1)).toBeGreaterThanOrEqual(pollDelayMs(n));
  });

  it("treats a negative, fractional or NaN poll number as a valid count", () => {
    expect(pollDelayMs(-3)).toBe(2000);
    expect(pollDelayMs(Number.NaN)).toBe(2000);
    expect(pollDelayMs(1.7)).toBe(3000);
    expect(pollDelayMs(Number.POSITIVE_INFINITY)).toBe(2000);
  });

  it("stays within 2-5 s for any poll number, jitter and random draw", () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 10_000 }), fc.double({ min: -1, max: 2, noNaN: true }), fc.double({ min: -1, max: 2, noNaN: true }), (n, jitter, r) => {
        const delay = pollDelayMs(n, { jitter, random: () => r });
        expect(delay).toBeGreaterThanOrEqual(2000);
        expect(delay).toBeLessThanOrEqual(5000);
      }),
    );
  });

  it("moves the delay with jitter when there is room inside the band", () => {
    expect(pollDelayMs(1, { jitter: 0.2, random: () => 0 })).toBe(2400);
    expect(pollDelayMs(1, { jitter: 0.2, random: () => 1 })).toBe(3600);
  });
});

describe("firstWaitMs", () => {
  it("is the first poll delay", () => {
    expect(firstWaitMs({ durationSec: 10 })).toBe(2000);
    expect(firstWaitMs()).toBe(2000);
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
  ])("%j -> %i ms (5 min + 40 s per video second, +2 min queueing, clamped to 5-15 min)", (input, expected) => {
    expect(jobDeadlineMs(input)).toBe(expected);
  });

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
    for (const overrideS of [0, -1, Number.NaN]) expect(jobDeadlineMs({ durationSec: 5, overrideS })).toBe(8 * MIN + 20_000);
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
