import { describe, expect, it } from "vitest";
import {
  afterCleanCreate,
  afterRateLimited,
  effectiveLimit,
  FIRST_LEARNED,
  type LearnedLimit,
} from "../../../src/domain/admission/settings.ts";

function cleanCreates(start: LearnedLimit, count: number, held: number): LearnedLimit {
  let learned = start;
  for (let i = 0; i < count; i++) learned = afterCleanCreate(learned, held);
  return learned;
}

const probing = (limit: number, proven: number): LearnedLimit => ({
  limit,
  probing: true,
  clean: 0,
  proven,
});
const settled = (limit: number, proven: number): LearnedLimit => ({
  limit,
  probing: false,
  clean: 0,
  proven,
});

describe("the learned limit", () => {
  it("starts at 2, probing, with nothing proven", () => {
    expect(FIRST_LEARNED).toEqual({ limit: 2, probing: true, clean: 0, proven: 0 });
  });

  it("probing opens one more slot for each clean create made with every slot held, and none otherwise", () => {
    expect(afterCleanCreate(FIRST_LEARNED, 2)).toMatchObject({ limit: 3, proven: 2 });
    expect(afterCleanCreate(probing(3, 2), 3)).toMatchObject({ limit: 4, proven: 3 });
    expect(afterCleanCreate(probing(5, 4), 2)).toMatchObject({ limit: 5, proven: 4 });
  });

  it("a 429 above the proven level sets the limit to what the upstream took and ends probing", () => {
    expect(afterRateLimited(probing(21, 20), 21)).toMatchObject({
      limit: 20,
      probing: false,
      clean: 0,
    });
  });

  it("each 429 of a burst above the proven level lowers the limit further, to the capacity", () => {
    let learned = probing(32, 20);
    // 12 rejected creates released one by one from 32 held: the last one sees 21 held.
    for (let held = 32; held >= 21; held--) learned = afterRateLimited(learned, held);
    expect(learned.limit).toBe(20);
  });

  it("a 429 at or below the proven level is taken for a passing one: the limit stays, the proven level drops by one", () => {
    expect(afterRateLimited(settled(8, 8), 6)).toEqual(settled(8, 7));
  });

  it("an account that really shrank: repeated 429s soon come above the proven level and lower the limit", () => {
    let learned = settled(8, 8);
    for (let i = 0; i < 3; i++) learned = afterRateLimited(learned, 6);
    expect(learned.limit).toBe(8);
    learned = afterRateLimited(learned, 6);
    expect(learned).toMatchObject({ limit: 5, probing: false });
  });

  it("a flaky upstream (one create in ten refused at random) keeps the limit near the account's capacity", () => {
    const capacity = 8;
    let learned = FIRST_LEARNED;
    for (let create = 1; create <= 1000; create++) {
      const held = learned.limit;
      const refused = held > capacity || create % 10 === 0;
      learned = refused ? afterRateLimited(learned, held) : afterCleanCreate(learned, held);
    }
    expect(learned.limit).toBeGreaterThanOrEqual(capacity - 1);
    expect(learned.limit).toBeLessThanOrEqual(capacity + 1);
  });

  it("never goes below one slot", () => {
    expect(afterRateLimited(FIRST_LEARNED, 1).limit).toBe(1);
  });

  it("after the first 429 it tries one slot more per four clean rounds (80 creates at 20)", () => {
    expect(cleanCreates(settled(20, 20), 79, 20).limit).toBe(20);
    expect(cleanCreates(settled(20, 20), 80, 20).limit).toBe(21);
  });

  it("a configured concurrency replaces the learned limit", () => {
    expect(effectiveLimit({ concurrency: 7 }, FIRST_LEARNED)).toBe(7);
    expect(effectiveLimit({}, settled(9, 9))).toBe(9);
  });
});
