/**
 * Acceptance: cancelling a running job on the local stack ends it `cancelled` with one Generation
 * Cancelled event, and its execution stops: the upstream task is polled no more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_POLL_MS } from "@reelay/core/domain";
import {
  eventsFor,
  getJson,
  postJson,
  startTestStack,
  waitFor,
  type TestStack,
  STACK_START_MS,
} from "./support/stack.ts";

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pollsOf(taskId: string): number {
  return stack.simulator?.counters().pollsByTask[taskId] ?? 0;
}

describe("cancel on the local stack", () => {
  it("a running job is cancelled: status cancelled, one Generation Cancelled event, and no more polls of its upstream task", async () => {
    const created = await postJson(`${stack.url}/v1/video/generations`, stack.apiKey, {
      model: "gamma-3.1",
      prompt: "a clock with no hands [[sim:never_finish]]",
      duration_sec: 4,
    });
    expect(created.status).toBe(200);
    const id = created.body.task_id as string;
    // Running and polled at least once, so the execution is in its Wait -> Poll loop.
    const taskId = await waitFor(`job ${id} to be polled`, async () => {
      const { body } = await getJson(`${stack.url}/v1/jobs/${id}`, stack.apiKey);
      return body.status === "running" &&
        typeof body.upstreamTaskId === "string" &&
        pollsOf(body.upstreamTaskId) > 0
        ? (body.upstreamTaskId as string)
        : undefined;
    });

    const cancelled = await postJson(`${stack.url}/v1/jobs/${id}/cancel`, stack.apiKey, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id, status: "cancelled", error: { code: "cancelled" } });
    const pollsAtCancel = pollsOf(taskId);

    // Longer than the longest wait between polls: a live execution would have polled again.
    await pause(MAX_POLL_MS * 1.5);
    expect(pollsOf(taskId)).toBe(pollsAtCancel);
    const { body: job } = await getJson(`${stack.url}/v1/jobs/${id}`, stack.apiKey);
    expect(job.status).toBe("cancelled");
    expect(job.history.map((entry: { status: string }) => entry.status)).toEqual([
      "queued",
      "running",
      "cancelled",
    ]);
    const events = await eventsFor(stack.dataDir, id);
    expect(events.map((event) => event["detail-type"])).toEqual(["Generation Cancelled"]);
    expect(stack.logLines).toContain(`job ${id} cancelled; its execution stopped`);

    const again = await postJson(`${stack.url}/v1/jobs/${id}/cancel`, stack.apiKey, {});
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "job_not_cancellable", status: "cancelled" });
  }, 60_000);
});
