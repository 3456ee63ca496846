import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BUCKET_RATIO,
  bucketOf,
  bucketStartMs,
  quantileMs,
  type GenerationHistory,
} from "../../../src/domain/polling/history.ts";

function historyOf(samplesMs: number[]): GenerationHistory {
  const buckets: Record<number, number> = {};
  for (const ms of samplesMs) buckets[bucketOf(ms)] = (buckets[bucketOf(ms)] ?? 0) + 1;
  return { samples: samplesMs.length, buckets };
}

function exactQuantile(samplesMs: number[], q: number): number {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

describe("bucketOf / bucketStartMs", () => {
  it("puts every time between 1 s and 2 h into the bucket whose range holds it", () => {
    fc.assert(
      fc.property(fc.double({ min: 1_000, max: 7_199_000, noNaN: true }), (ms) => {
        const index = bucketOf(ms);
        expect(bucketStartMs(index)).toBeLessThanOrEqual(ms * (1 + 1e-9));
        expect(bucketStartMs(index + 1)).toBeGreaterThan(ms * (1 - 1e-9));
      }),
    );
  });

  it("files times under 1 s (and nonsense) in bucket 0 and times over 2 h in the last bucket", () => {
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(-5)).toBe(0);
    expect(bucketOf(999)).toBe(0);
    expect(bucketOf(10 * 60 * 60_000)).toBe(bucketOf(2 * 60 * 60_000));
  });
});

describe("quantileMs", () => {
  it("is undefined without samples", () => {
    expect(quantileMs({ samples: 0, buckets: {} }, 0.5)).toBeUndefined();
  });

  it("lands within one bucket width (2 %) of the exact sample quantile", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1_000, max: 3_600_000 }), { minLength: 1, maxLength: 300 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (samples, q) => {
          const estimate = quantileMs(historyOf(samples), q)!;
          const exact = exactQuantile(samples, q);
          expect(estimate).toBeGreaterThanOrEqual(bucketStartMs(bucketOf(exact)) * (1 - 1e-9));
          expect(estimate).toBeLessThanOrEqual(exact * BUCKET_RATIO ** 2);
        },
      ),
    );
  });

  it("never decreases as q grows", () => {
    const h = historyOf([30_000, 31_000, 29_500, 45_000, 60_000, 33_000]);
    const qs = [0, 0.05, 0.1, 0.3, 0.5, 0.9, 0.99, 1];
    const values = qs.map((q) => quantileMs(h, q)!);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });

  it("ignores empty and malformed buckets", () => {
    expect(
      quantileMs({ samples: 2, buckets: { [bucketOf(40_000)]: 2, 3: 0, [-1]: 5 } }, 0),
    ).toBeCloseTo(bucketStartMs(bucketOf(40_000)));
  });
});
