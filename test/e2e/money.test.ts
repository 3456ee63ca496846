/**
 * Money on the local stack, against the simulator, with an operator's price table: the create
 * answer carries the estimate; a job that succeeds costs its estimate and says it was charged, in
 * its record, its event and its job.json; a job cancelled before any upstream task was made cost
 * nothing, one cancelled while the upstream generated is charged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventsFor,
  getJson,
  objectText,
  postJson,
  startTestStack,
  type TestStack,
  waitFor,
  waitForTerminalJob,
  STACK_START_MS,
} from "./support/stack.ts";

const PRICES = JSON.stringify({
  currency: "USD",
  models: { "os-2": { per_second: { default: 0.025 }, audio_per_second: 0.01 } },
});

let stack: TestStack;
beforeAll(async () => {
  // One task in flight, 40 s tasks (2 s at the test time scale): a second job waits in the queue.
  stack = await startTestStack(
    { REELAY_PRICES: PRICES, REELAY_UPSTREAM_CONCURRENCY: "1" },
    { generationMs: 40_000 },
  );
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

const create = (prompt: string) =>
  postJson(`${stack.url}/v1/video/generations`, stack.apiKey, {
    model: "os-2",
    prompt,
    duration_sec: 4,
  });

describe("usage and cost on the local stack", () => {
  it("the create answers the estimate; the finished job costs it, charged, in its record, event and job.json", async () => {
    const created = await create("a lantern on a pier");
    expect(created.status).toBe(200);
    expect(created.body.estimate).toMatchObject({
      usage: { unit: "video_second", quantity: 4, resolution: null, audio: false },
      cost: 0.1,
      currency: "USD",
    });
    expect(created.body.estimate.price_version).toMatch(/^[0-9a-f]{64}$/);
    const id = created.body.task_id as string;
    await waitForTerminalJob(stack.url, stack.apiKey, id, 60_000);
    const { body: job } = await getJson(`${stack.url}/v1/jobs/${id}`, stack.apiKey);
    expect([job.status, job.cost, job.charged]).toEqual(["succeeded", 0.1, true]);
    const [event] = await eventsFor(stack.dataDir, id);
    expect([event?.detail.cost, event?.detail.charged]).toEqual([0.1, true]);
    // job.json is rewritten by the step that ends the job, a moment after the record says so.
    const manifest = await waitFor("job.json to show the ended job", async () => {
      const text = await objectText(stack.s3, stack.bucket, `outputs/${id}/job.json`).catch(
        () => undefined,
      );
      const parsed = text === undefined ? undefined : JSON.parse(text);
      return parsed?.status === "succeeded" ? parsed : undefined;
    });
    expect([manifest.cost, manifest.charged, manifest.usage.quantity]).toEqual([0.1, true, 4]);
  });

  it("cancelled while queued (no upstream task): charged false, cost 0; cancelled while generating: charged at its estimate", async () => {
    const running = (await create("a long lantern")).body.task_id as string;
    const queued = (await create("a queued lantern")).body.task_id as string;
    await waitFor("the first job to run upstream", async () => {
      const { body } = await getJson(`${stack.url}/v1/jobs/${running}`, stack.apiKey);
      return body.upstreamTaskId === null ? undefined : true;
    });
    for (const id of [queued, running])
      expect((await postJson(`${stack.url}/v1/jobs/${id}/cancel`, stack.apiKey, {})).status).toBe(
        200,
      );
    const view = async (id: string) =>
      (await getJson(`${stack.url}/v1/jobs/${id}`, stack.apiKey)).body;
    expect(await view(queued)).toMatchObject({ status: "cancelled", charged: false, cost: 0 });
    expect(await view(running)).toMatchObject({ status: "cancelled", charged: true, cost: 0.1 });
  });
});
