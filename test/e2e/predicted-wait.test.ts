/**
 * Acceptance: the predicted first wait on the local stack. Twenty jobs of one model and duration
 * teach reelay how long that model takes (each finish is recorded in the jobs table); the next job
 * of the same model waits that long before its first look, so it asks the upstream fewer times.
 * Real time: a 12 s generation (the simulator's time scale undone by the directive).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_HISTORY_SAMPLES } from "@reelay/core/domain";
import {
  postJson,
  SIM_TIME_SCALE,
  startTestStack,
  waitForTerminalJob,
  type TestStack,
} from "./support/stack.ts";

const GENERATION_MS = 12_000;
const request = (n: number) => ({
  model: "gamma-3.1",
  duration_sec: 8,
  prompt: `a lighthouse ${n} [[sim:generation_ms=${Math.round(GENERATION_MS / SIM_TIME_SCALE)}]]`,
});

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.dispose();
});

async function run(n: number): Promise<{ polls: number }> {
  const created = await postJson(`${stack.url}/v1/video/generations`, stack.apiKey, request(n));
  expect(created.status).toBe(200);
  const job = await waitForTerminalJob(
    stack.url,
    stack.apiKey,
    created.body.task_id as string,
    60_000,
  );
  expect(job.status).toBe("succeeded");
  return { polls: job.polls as number };
}

describe("predicted first wait on the local stack", () => {
  it("after 20 jobs of a model, the next one looks first near the model's time and polls fewer times than the first ones", async () => {
    // No history: the backoff schedule looks at 2, 5, 9.5 and 14.5 s, and sees the task done at the 4th.
    const learning = await Promise.all(
      Array.from({ length: MIN_HISTORY_SAMPLES }, (_, n) => run(n)),
    );
    const coldPolls = learning.map((job) => job.polls);
    expect(Math.min(...coldPolls)).toBeGreaterThanOrEqual(4);

    // Predicted: the first look at about 12 s - 1.5 s, then every 2.5 s: done at the 2nd look.
    const predicted = await run(MIN_HISTORY_SAMPLES);
    expect(predicted.polls).toBeLessThanOrEqual(2);
    expect(predicted.polls).toBeLessThan(Math.min(...coldPolls));
  }, 120_000);
});
