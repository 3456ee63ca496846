/**
 * Usage reports, the deployment's budget and batch retries on the local stack, against the
 * simulator, with a price table: GET /v1/usage adds up exactly the jobs it covers (counts, units,
 * cost, failures by class, charged failures), a stored key sees only its own, the deployment's
 * budget refuses what would pass it whoever asks, and a completed batch's retry makes a batch of
 * its retryable failures only, once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  getJson,
  postJson,
  startTestStack,
  type TestStack,
  waitFor,
  waitForTerminalJob,
  batchJobIds,
  OS2_PRICES,
  STACK_START_MS,
} from "./support/stack.ts";

// OS2_PRICES: a 4 s os-2 job is estimated at 0.1; the deployment may spend 1.0 in all.
// The simulator's task_fail says "Content moderation rejected the prompt" unless told otherwise.
const MODERATED = "[[sim:task_fail]]";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    REELAY_PRICES: OS2_PRICES,
    REELAY_BUDGET: '{"amount":1,"period":"total"}',
    REELAY_UPSTREAM_CONCURRENCY: "10",
  });
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

const create = (key: string, prompt: string) =>
  postJson(`${stack.url}/v1/video/generations`, key, { model: "os-2", prompt, duration_sec: 4 });

async function ended(key: string, prompt: string): Promise<any> {
  const answer = await create(key, prompt);
  expect(answer.status).toBe(200);
  return waitForTerminalJob(stack.url, key, answer.body.task_id, 60_000);
}

async function postBatch(lines: string[]): Promise<any> {
  const response = await fetch(`${stack.url}/v1/batches`, {
    method: "POST",
    headers: { ...bearer(stack.apiKey), "content-type": "application/x-ndjson" },
    body: lines
      .map((prompt) => JSON.stringify({ model: "os-2", prompt, duration_sec: 4 }))
      .join("\n"),
  });
  expect(response.status).toBe(200);
  return response.json();
}

const batchNow = async (id: string) =>
  (await getJson(`${stack.url}/v1/batches/${id}`, stack.apiKey)).body;

function completed(id: string): Promise<any> {
  return waitFor(
    `batch ${id} to complete`,
    async () => {
      const batch = await batchNow(id);
      return batch.status === "completed" ? batch : undefined;
    },
    60_000,
  );
}

async function jobsOf(batchId: string): Promise<any[]> {
  const ids = await batchJobIds(stack.url, stack.apiKey, batchId);
  return Promise.all(
    ids.map(async (id) => (await getJson(`${stack.url}/v1/jobs/${id}`, stack.apiKey)).body),
  );
}

describe("usage, the deployment's budget and batch retries", () => {
  it("GET /v1/usage counts exactly its jobs: units, cost, failures by class and charged failures; a stored key sees only its own", async () => {
    const key = (await postJson(`${stack.url}/v1/keys`, stack.apiKey, { name: "usage" })).body;
    const jobs = [
      await ended(stack.apiKey, "a lantern"),
      await ended(stack.apiKey, `a forbidden lantern ${MODERATED}`),
      await ended(key.key, "the key's lantern"),
    ];
    expect(jobs.map((job) => job.status)).toEqual(["succeeded", "failed", "succeeded"]);
    const all = (await getJson(`${stack.url}/v1/usage?group_by=key`, stack.apiKey)).body;
    expect(all.totals).toMatchObject({
      jobs: 3,
      succeeded: 2,
      failed: 1,
      in_progress: 0,
      failures: { content_policy: 1 },
      charged_failures: 1,
      // The failed task existed upstream: charged "unknown", counted at its estimate.
      units: { video_seconds: 12, images: 0 },
      cost: 0.3,
    });
    expect(all.groups.map((group: any) => [group.group, group.jobs])).toEqual([
      [key.id, 1],
      ["local", 2],
    ]);
    expect(all.budgets).toEqual([
      expect.objectContaining({ budget: "deployment", amount: 1, used: 0.3, remaining: 0.7 }),
    ]);
    const own = (await getJson(`${stack.url}/v1/usage`, key.key)).body;
    expect(own.totals).toMatchObject({ jobs: 1, succeeded: 1, cost: 0.1 });
    expect(own.groups).toEqual([expect.objectContaining({ group: "os-2", jobs: 1 })]);
    expect(own.budgets).toEqual([]);
  }, 120_000);

  it("a usage range before the jobs holds none; a malformed query is 400 with the parameter's path", async () => {
    const empty = await getJson(
      `${stack.url}/v1/usage?from=2020-01-01&to=2020-02-01`,
      stack.apiKey,
    );
    expect(empty.body.totals.jobs).toBe(0);
    for (const [query, path] of [
      ["group_by=week", "group_by"],
      ["from=yesterday", "from"],
      ["from=2026-11-02&to=2026-11-01", "to"],
    ]) {
      const bad = await getJson(`${stack.url}/v1/usage?${query}`, stack.apiKey);
      expect([bad.status, bad.body.error.code, bad.body.error.path]).toEqual([
        400,
        "invalid_request",
        path,
      ]);
    }
  });

  it("a completed batch's retry is a batch of its retryable failures only, linked both ways, made once; a running batch's is 409", async () => {
    const batch = await postBatch([
      "a kite [[sim:generation_ms=20000]]",
      `a falling kite [[sim:task_fail reason="the renderer crashed"]]`,
      `a forbidden kite ${MODERATED}`,
    ]);
    const early = await postJson(`${stack.url}/v1/batches/${batch.id}/retry`, stack.apiKey, {});
    expect([early.status, early.body.error.code]).toEqual([409, "not_retryable"]);
    await completed(batch.id);
    const jobs = await jobsOf(batch.id);
    expect(jobs.map((job) => job.error?.class ?? job.status)).toEqual([
      "succeeded",
      "upstream_failed",
      "content_policy",
    ]);
    const retry = await postJson(`${stack.url}/v1/batches/${batch.id}/retry`, stack.apiKey, {});
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ total: 1, retry_of: batch.id });
    const again = await postJson(`${stack.url}/v1/batches/${batch.id}/retry`, stack.apiKey, {});
    expect(again.body.id).toBe(retry.body.id);
    const [retried] = await jobsOf(retry.body.id);
    expect(retried.retryOf).toBe(jobs[1].id);
    expect((await getJson(`${stack.url}/v1/jobs/${jobs[1].id}`, stack.apiKey)).body.retriedBy).toBe(
      retried.id,
    );
    expect(
      (await getJson(`${stack.url}/v1/jobs/${jobs[2].id}`, stack.apiKey)).body.retriedBy,
    ).toBeUndefined();
    await completed(retry.body.id);
  }, 120_000);

  it("the deployment's budget refuses whoever would pass it, naming it; the refusal is 402 with what remains", async () => {
    const { budgets } = (await getJson(`${stack.url}/v1/usage`, stack.apiKey)).body;
    const left = budgets[0].remaining as number;
    const fits = Math.round(left / 0.1);
    const answers = await Promise.all(
      Array.from({ length: fits + 3 }, (_, i) => create(stack.apiKey, `a last lantern ${i}`)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(fits);
    const refused = answers.filter((answer) => answer.status === 402);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.body.error.message).toMatch(/the deployment's total budget has 0 left/);
    expect(refused[0]!.body.error).toMatchObject({ budget: "deployment", remaining: 0 });
  }, 60_000);
});
