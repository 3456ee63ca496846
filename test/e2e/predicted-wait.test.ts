/**
 * Acceptance: the predicted first wait on the local stack. Twenty jobs of one model and duration
 * teach reelay how long that model takes (each finish is recorded in the jobs table); the next job
 * of the same model waits that long before its first look, so it asks the upstream fewer times.
 *
 * On a stepped clock (support/clock.ts) shared by the pipeline and the simulator: a 12 s generation
 * on it, and every pause of a job taken on it. The clock moves only while every job is paused, so
 * each look happens at its scheduled time on that clock however busy the machine is, and the run
 * takes the real time of its work alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_HISTORY_SAMPLES } from "@reelay/core/domain";
import { SteppedClock } from "./support/clock.ts";
import {
  getJson,
  postJson,
  startTestStack,
  type TestStack,
  STACK_START_MS,
} from "./support/stack.ts";

const GENERATION_MS = 12_000;
const request = (n: number) => ({
  model: "gamma-3.1",
  duration_sec: 8,
  prompt: `a lighthouse ${n} [[sim:generation_ms=${GENERATION_MS}]]`,
});
const TERMINAL = ["succeeded", "failed", "cancelled"];

// Ahead of the real clock, so no time the pipeline writes precedes the API's createdAt.
const clock = new SteppedClock(Date.now() + 3_600_000);
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack(
    // Every job holds a slot from its create: a job waiting in the queue is not paused on the
    // clock, so the clock would not move while it waits.
    { REELAY_UPSTREAM_CONCURRENCY: String(MIN_HISTORY_SAMPLES + 1) },
    { timeScale: 1, now: clock.nowMs },
    { clock },
  );
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

/** Creates the jobs and moves the clock until every one has ended; their records. */
async function run(from: number, count: number): Promise<any[]> {
  const ids = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const created = await postJson(
        `${stack.url}/v1/video/generations`,
        stack.apiKey,
        request(from + i),
      );
      expect(created.status).toBe(200);
      return created.body.task_id as string;
    }),
  );
  return clock.runUntil(`jobs ${from}-${from + count - 1} to end`, async () => {
    const { body } = await getJson(`${stack.url}/v1/jobs?limit=100`, stack.apiKey);
    const jobs = (body.data as any[]).filter((job) => ids.includes(job.id));
    const ended = jobs.filter((job) => TERMINAL.includes(job.status));
    return {
      busy: count - ended.length,
      ...(ended.length === count ? { done: ended } : {}),
    };
  });
}

describe("predicted first wait on the local stack", () => {
  it("after 20 jobs of a model, the next one looks first near the model's time and polls fewer times than the first ones", async () => {
    // No history: the backoff schedule looks at 2, 5, 9.5 and 14.5 s, and sees the task done at the 4th.
    const learning = await run(0, MIN_HISTORY_SAMPLES);
    expect(learning.map((job) => job.status)).toEqual(Array(MIN_HISTORY_SAMPLES).fill("succeeded"));
    const coldPolls = learning.map((job) => job.polls as number);
    expect(Math.min(...coldPolls)).toBeGreaterThanOrEqual(4);

    // Predicted: the first look at about 12 s - 1.5 s, then every 2.5 s: done at the 2nd look.
    const [predicted] = await run(MIN_HISTORY_SAMPLES, 1);
    expect(predicted.status).toBe("succeeded");
    expect(predicted.polls).toBeLessThanOrEqual(2);
    expect(predicted.polls).toBeLessThan(Math.min(...coldPolls));
  }, 600_000);
});
