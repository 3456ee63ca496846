/**
 * Acceptance: jobs that cannot succeed end `failed`, with the reason, and exactly one
 * Generation Failed event: an upstream task that fails, and a job that runs past its deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventsFor, postJson, startTestStack, waitForTerminalJob, type TestStack } from "./support/stack.ts";

const JOB_TIMEOUT_S = 4;
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ REELAY_JOB_TIMEOUT_S: String(JOB_TIMEOUT_S) });
});
afterAll(async () => {
  await stack?.dispose();
});

async function create(prompt: string): Promise<string> {
  const { status, body } = await postJson(`${stack.url}/v1/video/generations`, stack.apiKey, { model: "gamma-3.1", prompt, duration_sec: 4 });
  expect(status).toBeLessThan(300);
  return body.task_id as string;
}

describe("failed jobs on the local stack", () => {
  it("an upstream task that fails ends the job failed with the upstream's reason and one Generation Failed event", async () => {
    const id = await create('a glass city [[sim:task_fail reason="blocked by the content policy"]]');
    const job = await waitForTerminalJob(stack.url, stack.apiKey, id);
    expect(job.status).toBe("failed");
    expect(job.error).toEqual({ code: "upstream_task_failed", message: expect.stringContaining("blocked by the content policy") });
    const events = await eventsFor(stack.dataDir, id);
    expect(events.map((event) => event["detail-type"])).toEqual(["Generation Failed"]);
    expect(events[0]?.detail.error).toEqual(job.error);
  });

  it("a task that never finishes ends the job failed with error.code timeout after REELAY_JOB_TIMEOUT_S, one Generation Failed event", async () => {
    const id = await create("a clock with no hands [[sim:never_finish]]");
    const job = await waitForTerminalJob(stack.url, stack.apiKey, id);
    expect(job.status).toBe("failed");
    expect(job.error?.code).toBe("timeout");
    // The deadline is the override, counted from submission, not the 5-15 min formula.
    expect(Date.parse(job.timings.deadlineAt) - Date.parse(job.timings.submittedAt)).toBe(JOB_TIMEOUT_S * 1000);
    expect(stack.simulator?.counters().tasksByKey[id]).toBe(1);
    expect((await eventsFor(stack.dataDir, id)).map((event) => event["detail-type"])).toEqual(["Generation Failed"]);
  });
});
