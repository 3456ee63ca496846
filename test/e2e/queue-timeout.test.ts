/**
 * How long a job may wait: a job with X-Reelay-Queue-Timeout: 2 (or a batch
 * with queue_timeout_s: 2) behind a full queue ends failed / queue_timeout, charged false, with its
 * key's budget reservation given back; a limit past REELAY_QUEUE_TIMEOUT_S is 400. On the local
 * stack with one upstream slot, held by a task that never finishes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  batchJobIds,
  bearer,
  getJson,
  OS2_PRICES,
  postJson,
  STACK_START_MS,
  startTestStack,
  type TestStack,
  waitFor,
  waitForTerminalJob,
} from "./support/stack.ts";

let stack: TestStack;
let blocker: string;

beforeAll(async () => {
  stack = await startTestStack({
    REELAY_PRICES: OS2_PRICES,
    REELAY_UPSTREAM_CONCURRENCY: "1",
    REELAY_QUEUE_TIMEOUT_S: "600",
  });
  // The one slot, held until the file ends.
  const held = await postJson(`${stack.url}/v1/video/generations`, stack.apiKey, {
    model: "os-2",
    prompt: "a clock with no hands [[sim:never_finish]]",
    duration_sec: 4,
  });
  blocker = held.body.task_id as string;
  await waitFor("the blocker to hold the slot", async () => {
    const { body } = await getJson(`${stack.url}/v1/jobs/${blocker}`, stack.apiKey);
    return body.status === "running" ? true : undefined;
  });
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

const create = (key: string, headers: Record<string, string>) =>
  fetch(`${stack.url}/v1/video/generations`, {
    method: "POST",
    headers: { ...bearer(key), ...headers },
    body: JSON.stringify({ model: "os-2", prompt: "a boat at dawn", duration_sec: 4 }),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

describe("how long a job may wait for a slot", () => {
  it("a job with X-Reelay-Queue-Timeout: 2 behind a full queue ends queue_timeout, charged false, its reservation given back", async () => {
    const key = await postJson(`${stack.url}/v1/keys`, stack.apiKey, {
      name: "waits-briefly",
      budget: { amount: 100, unit: "currency", period: "day" },
    });
    expect(key.status).toBe(201);
    const made = await create(key.body.key, { "X-Reelay-Queue-Timeout": "2" });
    expect(made.status).toBe(200);
    const id = made.body.task_id as string;
    const reservedNow = await usedOf(key.body.id);
    expect(reservedNow).toBeGreaterThan(0);

    const job = await waitForTerminalJob(stack.url, stack.apiKey, id);
    expect(job).toMatchObject({
      status: "failed",
      charged: false,
      error: { code: "queue_timeout", class: "queue_timeout" },
    });
    expect(job.error.message).toContain("queue_timeout_s, 2 s");
    // Settled just after the job ended: the reservation comes back, and nothing was spent.
    await waitFor("the reservation to be given back", async () =>
      (await usedOf(key.body.id)) === 0 ? true : undefined,
    );
    // The slot's holder is untouched.
    const { body: holder } = await getJson(`${stack.url}/v1/jobs/${blocker}`, stack.apiKey);
    expect(holder.status).toBe("running");
  });

  it("a batch's queue_timeout_s applies to each of its jobs", async () => {
    const request = { model: "os-2", prompt: "a gull over a pier", duration_sec: 4 };
    const made = await postJson(`${stack.url}/v1/batches`, stack.apiKey, {
      requests: [request, request],
      queue_timeout_s: 2,
    });
    expect(made.status).toBe(200);
    const ids = await batchJobIds(stack.url, stack.apiKey, made.body.id as string);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      const job = await waitForTerminalJob(stack.url, stack.apiKey, id);
      expect(job).toMatchObject({ status: "failed", error: { code: "queue_timeout" } });
    }
  });

  it("a limit that is not whole seconds from 1 to REELAY_QUEUE_TIMEOUT_S is 400 invalid_queue_timeout naming where it came from, and no job is made", async () => {
    const before = (await getJson(`${stack.url}/v1/jobs?limit=100`, stack.apiKey)).body.data.length;
    for (const value of ["0", "601", "1.5", "soon"]) {
      const refused = await create(stack.apiKey, { "X-Reelay-Queue-Timeout": value });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: "invalid_queue_timeout",
        path: "X-Reelay-Queue-Timeout",
      });
    }
    const batch = await postJson(`${stack.url}/v1/batches`, stack.apiKey, {
      requests: [{ model: "os-2", prompt: "x", duration_sec: 4 }],
      queue_timeout_s: "2",
    });
    expect(batch.status).toBe(400);
    expect(batch.body.error).toMatchObject({
      code: "invalid_queue_timeout",
      path: "queue_timeout_s",
    });
    const after = (await getJson(`${stack.url}/v1/jobs?limit=100`, stack.apiKey)).body.data.length;
    expect(after).toBe(before);
  });
});

async function usedOf(keyId: string): Promise<number> {
  const { body } = await getJson(`${stack.url}/v1/keys`, stack.apiKey);
  return (body.data as any[]).find((record) => record.id === keyId).budget.used;
}
