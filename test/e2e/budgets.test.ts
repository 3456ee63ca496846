/**
 * Budgets on the local stack, against the simulator, with a price table: parallel creates can
 * never reserve past a key's budget, refusals are 402 budget_exceeded naming what remains, the
 * key's spend after every job ended is the sum of its jobs' costs, and a job cancelled before any
 * upstream task was made gives its reservation back.
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
  eventsFor,
  batchJobIds,
  OS2_PRICES,
  STACK_START_MS,
} from "./support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack(
    { REELAY_PRICES: OS2_PRICES, REELAY_UPSTREAM_CONCURRENCY: "10" },
    { generationMs: 10_000 },
  );
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

async function keyWithBudget(name: string, amount: number): Promise<{ id: string; key: string }> {
  const { status, body } = await postJson(`${stack.url}/v1/keys`, stack.apiKey, {
    name,
    budget: { amount, unit: "currency", period: "day" },
  });
  expect(status).toBe(201);
  return { id: body.id, key: body.key };
}

async function used(keyId: string): Promise<number> {
  const { body } = await getJson(`${stack.url}/v1/keys`, stack.apiKey);
  return (body.data as any[]).find((record) => record.id === keyId).budget.used;
}

const create = (key: string, prompt: string) =>
  fetch(`${stack.url}/v1/video/generations`, {
    method: "POST",
    headers: bearer(key),
    body: JSON.stringify({ model: "os-2", prompt, duration_sec: 4 }),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

/** Creates at once against a budget for exactly FIT of them (0.1 each): every one that fits is a job run. */
const CREATES = 200;
const FIT = 20;

describe("budgets per API key", () => {
  it(`${CREATES} parallel creates against a budget for exactly ${FIT}: ${FIT} made and sent upstream, ${CREATES - FIT} refused 402; spend after they end is the sum of their costs`, async () => {
    const { id, key } = await keyWithBudget("exactly-fit", FIT / 10);
    const created = stack.simulator!.counters().tasksCreated;
    const answers = await Promise.all(
      Array.from({ length: CREATES }, (_, i) => create(key, `a paper crane, take ${i}`)),
    );
    const made = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 402);
    expect([made.length, refused.length]).toEqual([FIT, CREATES - FIT]);
    expect(refused[0]!.body.error).toMatchObject({ code: "budget_exceeded" });
    expect(refused[0]!.body.error.message).toMatch(/the key's day budget has 0 left/);
    const ended = await Promise.all(
      made.map((answer) => waitForTerminalJob(stack.url, key, answer.body.task_id, 180_000)),
    );
    expect(ended.every((job) => job.status === "succeeded")).toBe(true);
    const costs = await Promise.all(
      made.map(
        async (answer) =>
          (await getJson(`${stack.url}/v1/jobs/${answer.body.task_id}`, key)).body.cost as number,
      ),
    );
    expect(costs.reduce((sum, cost) => sum + cost, 0)).toBeCloseTo(FIT / 10, 6);
    expect(await used(id)).toBeCloseTo(FIT / 10, 6);
    // Only the FIT made reached the upstream.
    expect(stack.simulator!.counters().tasksCreated - created).toBe(FIT);
  }, 300_000);

  it("a running job cancelled after its upstream task was made settles as charged, at its estimate", async () => {
    const { id, key } = await keyWithBudget("cancel-running", 1);
    const answer = await create(key, "a slow heron [[sim:generation_ms=60000]]");
    expect(answer.status).toBe(200);
    const jobId = answer.body.task_id as string;
    await waitFor("the upstream task to exist", async () => {
      const { body } = await getJson(`${stack.url}/v1/jobs/${jobId}`, key);
      return body.status === "running" ? body : undefined;
    });
    const cancelled = await postJson(`${stack.url}/v1/jobs/${jobId}/cancel`, key, {});
    expect(cancelled.body).toMatchObject({ status: "cancelled", charged: true, cost: 0.1 });
    await waitFor("the spend to settle", async () =>
      Math.abs((await used(id)) - 0.1) < 1e-9 ? true : undefined,
    );
  }, 60_000);

  it("a job the upstream refuses at create (no task made) fails charged false, cost 0, and gives its reservation back", async () => {
    const { id, key } = await keyWithBudget("refused-at-create", 1);
    const answer = await create(key, "a refused heron [[sim:business_error on=create]]");
    expect(answer.status).toBe(200);
    const job = await waitForTerminalJob(stack.url, key, answer.body.task_id, 60_000);
    expect(job).toMatchObject({ status: "failed", charged: false, cost: 0 });
    expect(job.error.code).toBe("upstream_rejected");
    await waitFor("the reservation to be given back", async () =>
      (await used(id)) === 0 ? true : undefined,
    );
  }, 60_000);

  it("a batch from a key with budget for 3 of its 5 lines: 3 succeed, 2 end failed budget_exceeded at admission, never sent upstream, each with one event", async () => {
    const { id, key } = await keyWithBudget("batch-three", 0.3);
    const created = stack.simulator!.counters().tasksCreated;
    const body = Array.from({ length: 5 }, (_, i) =>
      JSON.stringify({ model: "os-2", prompt: `a batch crane ${i}`, duration_sec: 4 }),
    ).join("\n");
    const posted = await fetch(`${stack.url}/v1/batches`, {
      method: "POST",
      headers: { ...bearer(key), "content-type": "application/x-ndjson" },
      body,
    });
    expect(posted.status).toBe(200);
    const batchId = ((await posted.json()) as { id: string }).id;
    const done = await waitFor(
      "the batch to complete",
      async () => {
        const { body: batch } = await getJson(`${stack.url}/v1/batches/${batchId}`, key);
        return batch.status === "completed" ? batch : undefined;
      },
      90_000,
    );
    expect(done.counts).toMatchObject({ succeeded: 3, failed: 2 });
    const ids = await batchJobIds(stack.url, key, batchId);
    const jobs = await Promise.all(
      ids.map(async (jobId) => (await getJson(`${stack.url}/v1/jobs/${jobId}`, key)).body),
    );
    const failed = jobs.filter((job) => job.status === "failed");
    expect(failed).toHaveLength(2);
    for (const job of failed)
      expect(job).toMatchObject({
        charged: false,
        cost: 0,
        error: { code: "budget_exceeded", class: "budget_exceeded", retryable: true },
      });
    expect(stack.simulator!.counters().tasksCreated - created).toBe(3);
    for (const job of jobs) expect(await eventsFor(stack.dataDir, job.id)).toHaveLength(1);
    expect(await used(id)).toBeCloseTo(0.3, 6);
  }, 120_000);

  it("a job cancelled before any upstream task gives its reservation back, so the budget then holds exactly two more", async () => {
    const { id, key } = await keyWithBudget("two", 0.2);
    // The admin's long jobs hold every upstream slot, so the key's next job waits in the queue.
    const holders = await Promise.all(
      Array.from({ length: 10 }, (_, i) => i).map((i) =>
        postJson(`${stack.url}/v1/video/generations`, stack.apiKey, {
          model: "os-2",
          prompt: `a slow kite ${i} [[sim:generation_ms=60000]]`,
          duration_sec: 4,
        }),
      ),
    );
    // Every holder in its slot first: the fair queue serves the key's own lane in turn, so a slot
    // freed while a holder still waited (an earlier test's job ending) would go to the key's job.
    for (const holder of holders)
      await waitFor(`holder ${holder.body.task_id} to take a slot`, async () => {
        const { body } = await getJson(`${stack.url}/v1/jobs/${holder.body.task_id}`, stack.apiKey);
        return body.status === "queued" ? undefined : true;
      });
    const waiting = await create(key, "a queued crane");
    expect(waiting.status).toBe(200);
    expect(await used(id)).toBeCloseTo(0.1, 6);
    const cancelled = await postJson(
      `${stack.url}/v1/jobs/${waiting.body.task_id}/cancel`,
      key,
      {},
    );
    expect(cancelled.body).toMatchObject({ status: "cancelled", charged: false, cost: 0 });
    expect(await used(id)).toBe(0);
    const two = await Promise.all([create(key, "crane one"), create(key, "crane two")]);
    expect(two.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await create(key, "crane three")).status).toBe(402);
    for (const holder of holders)
      await postJson(`${stack.url}/v1/jobs/${holder.body.task_id}/cancel`, stack.apiKey, {});
    for (const answer of two) await waitForTerminalJob(stack.url, key, answer.body.task_id, 60_000);
    await waitFor("the spend to settle", async () =>
      Math.abs((await used(id)) - 0.2) < 1e-9 ? true : undefined,
    );
  }, 120_000);
});
