import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffDelayMs, parseRetryAfterMs } from "../../../src/adapters/upstream/retry.ts";

const NOW = Date.parse("2026-03-01T12:00:00Z");

describe("parseRetryAfterMs", () => {
  it.each([
    ["2", 2000],
    ["0", 0],
    ["1.5", 1500],
    ["120", 60_000],
    [new Date(NOW + 10_000).toUTCString(), 10_000],
    [new Date(NOW - 10_000).toUTCString(), 0],
    [new Date(NOW + 3_600_000).toUTCString(), 60_000],
    ["soon", undefined],
    ["-5", undefined],
    ["", undefined],
    [null, undefined],
  ])("%s -> %s", (header, expected) => {
    expect(parseRetryAfterMs(header, NOW)).toBe(expected);
  });
});

describe("backoffDelayMs", () => {
  it("doubles the ceiling from the base up to the cap", () => {
    const top = [1, 2, 3, 4, 5, 6].map((attempt) =>
      backoffDelayMs(attempt, { baseMs: 500, capMs: 8000 }, () => 1),
    );
    expect(top).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it("stays between zero and the cap for any attempt and random draw", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -3, max: 10_000 }),
        fc.double({ min: -1, max: 2, noNaN: true }),
        (attempt, r) => {
          const delay = backoffDelayMs(attempt, { baseMs: 500, capMs: 8000 }, () => r);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(8000);
        },
      ),
    );
  });
});
