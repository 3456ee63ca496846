import { describe, expect, it } from "vitest";
import {
  afterCleanCreate,
  afterRateLimited,
  effectiveLimit,
  FIRST_LEARNED,
  type LearnedLimit,
} from "../../src/admission/settings.ts";

function cleanCreates(start: LearnedLimit, count: number, held: number): LearnedLimit {
  let learned = start;
  for (let i = 0; i < count; i++) learned = afterCleanCreate(learned, held);
  return learned;
}

describe("the learned limit", () => {
  it("probing opens one more slot for each clean create made with every slot held, and none otherwise", () => {
    expect(FIRST_LEARNED).toEqual({ limit: 2, probing: true, clean: 0 });
    expect(afterCleanCreate(FIRST_LEARNED, 2).limit).toBe(3);
    expect(afterCleanCreate({ limit: 3, probing: true, clean: 1 }, 3).limit).toBe(4);
    expect(afterCleanCreate({ limit: 5, probing: true, clean: 1 }, 2).limit).toBe(5);
  });

  it("a 429 while 21 slots are held sets the limit to the 20 the upstream took and ends slow start", () => {
    const probing = { limit: 32, probing: true, clean: 5 };
    expect(afterRateLimited(probing, 21)).toEqual({ limit: 20, probing: false, clean: 0 });
  });

  it("each 429 of a burst lowers the limit further, never below what a later one measured", () => {
    let learned: LearnedLimit = { limit: 32, probing: true, clean: 0 };
    // 12 rejected creates released one by one from 32 held: the last one sees 21 held.
    for (let held = 32; held >= 21; held--) learned = afterRateLimited(learned, held);
    expect(learned.limit).toBe(20);
  });

  it("never goes below one slot", () => {
    expect(afterRateLimited(FIRST_LEARNED, 1).limit).toBe(1);
  });

  it("after the first 429 it tries one slot more per four clean rounds (80 creates at 20)", () => {
    const settled = { limit: 20, probing: false, clean: 0 };
    expect(cleanCreates(settled, 79, 20).limit).toBe(20);
    expect(cleanCreates(settled, 80, 20).limit).toBe(21);
  });

  it("a configured concurrency replaces the learned limit", () => {
    expect(effectiveLimit({ concurrency: 7, queueTimeoutS: 60 }, FIRST_LEARNED)).toBe(7);
    expect(effectiveLimit({ queueTimeoutS: 60 }, { ...FIRST_LEARNED, limit: 9 })).toBe(9);
  });
});
