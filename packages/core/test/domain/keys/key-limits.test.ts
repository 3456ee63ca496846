/** Limits per key as rules: what a key's `limits` may say, how they fall back, and the call bucket. */
import { describe, expect, it } from "vitest";
import {
  effectiveLimits,
  parseKeyLimitDefaults,
  parseKeyLimits,
  takeFromBucket,
} from "../../../src/domain/keys/key-limits.ts";

describe("a key's limits", () => {
  it("take the four fields as positive numbers (whole but for rate) or null, and refuse anything else", () => {
    expect(
      parseKeyLimits({ rate: 0.5, burst: 3, max_queued: null }, "limits", "invalid_request"),
    ).toEqual({ rate: 0.5, burst: 3, max_queued: null });
    expect(() => parseKeyLimits({ burst: 1.5 }, "limits", "invalid_request")).toThrow(
      /limits.burst/,
    );
    expect(() => parseKeyLimits({ rate: -1 }, "limits", "invalid_request")).toThrow(/limits.rate/);
    expect(() => parseKeyLimits({ max_jobs: 1 }, "limits", "invalid_request")).toThrow(
      expect.objectContaining({ code: "unknown_field", path: "limits.max_jobs" }),
    );
  });

  it("fall back field by field to REELAY_KEY_LIMITS; null is no limit whatever the default; burst defaults to a second's worth", () => {
    const defaults = parseKeyLimitDefaults(
      '{"rate": 2.5, "max_queued": 100, "deployment": {"max_in_flight": 8}}',
      "REELAY_KEY_LIMITS",
    );
    expect(defaults.deployment).toEqual({ max_in_flight: 8 });
    expect(effectiveLimits({ max_queued: null }, defaults.keys)).toEqual({ rate: 2.5, burst: 3 });
    expect(effectiveLimits({ burst: 10, max_in_flight: 2 }, defaults.keys)).toEqual({
      rate: 2.5,
      burst: 10,
      maxQueued: 100,
      maxInFlight: 2,
    });
    expect(effectiveLimits(undefined, {})).toEqual({});
  });

  it("a setting with a field it does not know is invalid_config naming it", () => {
    expect(() => parseKeyLimitDefaults('{"max_qeued": 5}', "REELAY_KEY_LIMITS")).toThrow(
      expect.objectContaining({ code: "invalid_config", path: "REELAY_KEY_LIMITS.max_qeued" }),
    );
  });
});

describe("the call bucket", () => {
  const limits = { rate: 5, burst: 5 };

  it("lets `burst` calls through at one instant, refuses the next with Retry-After, and refills at `rate`", () => {
    let tat = 0;
    const now = 1_000_000;
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const turn = takeFromBucket(tat, now, limits);
      expect(turn.allowed).toBe(true);
      remaining.push(turn.remaining);
      tat = turn.tat;
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const refused = takeFromBucket(tat, now, limits);
    expect(refused).toMatchObject({ allowed: false, tat, remaining: 0, retryAfterS: 1, resetS: 1 });
    expect(takeFromBucket(tat, now + 200, limits).allowed).toBe(true);
    expect(takeFromBucket(tat, now + 1000, limits).remaining).toBe(4);
  });
});
