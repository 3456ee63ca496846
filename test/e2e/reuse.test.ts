/**
 * Pay once for the same request, on the local stack against the
 * simulator with compressed time: 40 identical requests with X-Reelay-Reuse: 7d, 20 at once and
 * 20 after the first succeeded, make exactly one upstream task (counted at the simulator); all 40
 * succeed, each with its own copy under outputs/<id>/ and its own terminal event; 39 are
 * `charged: false` with `reused_from` the one that made the task; usage counts 1 charged job and
 * 39 reuses with what they saved. Without reuse the same requests make one task each (20 of them,
 * in the same two rounds). The 100 (50 and 50) hold the same way; each job is CPU the
 * suite pays.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  eventsFor,
  getJson,
  objectExists,
  OS2_PRICES,
  postJson,
  STACK_START_MS,
  startTestStack,
  type TestStack,
  waitForTerminalJob,
  batchJobIds,
} from "./support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  // A task takes a few seconds here, so the first 50 are all sent while it runs.
  stack = await startTestStack({ REELAY_PRICES: OS2_PRICES }, { generationMs: 20_000 });
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

const REQUEST = { model: "os-2", prompt: "a lantern on a jetty, once", duration_sec: 4 };

async function keyFor(name: string): Promise<{ id: string; key: string }> {
  const { status, body } = await postJson(`${stack.url}/v1/keys`, stack.apiKey, { name });
  expect(status).toBe(201);
  return { id: body.id, key: body.key };
}

function create(key: string, body: object, headers: Record<string, string> = {}) {
  return fetch(`${stack.url}/v1/video/generations`, {
    method: "POST",
    headers: { ...bearer(key), ...headers },
    body: JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
}

/** `perRound` at once, then (once those ended) as many more: every job as it ended. */
async function twoRounds(
  key: string,
  body: object,
  headers: Record<string, string>,
  perRound: number,
) {
  const jobs: any[] = [];
  for (let round = 0; round < 2; round++) {
    const made = await Promise.all(
      Array.from({ length: perRound }, () => create(key, body, headers)),
    );
    expect(made.map((answer) => answer.status)).toEqual(Array(perRound).fill(200));
    jobs.push(
      ...(await Promise.all(
        made.map((answer) => waitForTerminalJob(stack.url, key, answer.body.task_id, 120_000)),
      )),
    );
  }
  return jobs;
}

/** Identical requests a round (twice): enough that most wait on one task at once; each is a job run. */
const PER_ROUND = 12;
const ALL = PER_ROUND * 2;

describe("pay once for the same request", () => {
  it(`${ALL} identical requests with reuse: 7d (${PER_ROUND} at once, ${PER_ROUND} after the first succeeded) make one upstream task; each of the ${ALL} succeeds with its own copy and event, ${ALL - 1} charged false; usage counts 1 charged job`, async () => {
    const { id: keyId, key } = await keyFor("reuser");
    const from = new Date().toISOString();
    const tasksBefore = stack.simulator!.counters().tasksCreated;
    const jobs = await twoRounds(key, REQUEST, { "X-Reelay-Reuse": "7d" }, PER_ROUND);

    expect(stack.simulator!.counters().tasksCreated - tasksBefore).toBe(1);
    expect(jobs.map((job) => job.status)).toEqual(Array(ALL).fill("succeeded"));
    const leaders = jobs.filter((job) => job.reused_from === undefined);
    expect(leaders).toHaveLength(1);
    const leader = leaders[0];
    expect(leader).toMatchObject({ charged: true });
    expect(leader.cost).toBeGreaterThan(0);
    const reused = jobs.filter((job) => job.reused_from !== undefined);
    expect(reused).toHaveLength(ALL - 1);
    for (const job of reused)
      expect(job).toMatchObject({
        reused_from: leader.id,
        charged: false,
        cost: 0,
        upstreamTaskId: null,
        fingerprint: leader.fingerprint,
      });
    // Each job's own objects, the same bytes as the one that was generated.
    const sha256 = leader.outputs[0].sha256;
    for (const job of jobs) {
      expect(job.outputs).toHaveLength(1);
      expect(job.outputs[0]).toMatchObject({ key: `outputs/${job.id}/video.mp4`, sha256 });
      expect(await objectExists(stack.s3, stack.bucket, `outputs/${job.id}/video.mp4`)).toBe(true);
      expect(await objectExists(stack.s3, stack.bucket, `outputs/${job.id}/job.json`)).toBe(true);
      const events = await eventsFor(stack.dataDir, job.id);
      expect(events).toHaveLength(1);
      expect(events[0]!.detail).toMatchObject({
        status: "succeeded",
        charged: job.id === leader.id,
        output: { key: `outputs/${job.id}/video.mp4`, sha256 },
      });
    }

    const to = new Date(Date.now() + 1000).toISOString();
    const usage = await getJson(`${stack.url}/v1/usage?from=${from}&to=${to}`, key);
    expect(usage.status).toBe(200);
    expect(usage.body.totals).toMatchObject({
      jobs: ALL,
      succeeded: ALL,
      charged: 1,
      reused: ALL - 1,
    });
    // Saved: ALL - 1 times the leader's estimate (0.1 each for 4 s of os-2).
    expect(usage.body.totals.saved).toBeCloseTo((ALL - 1) * 0.1, 6);
    expect(usage.body.totals.cost).toBeCloseTo(0.1, 6);
    expect(keyId).toMatch(/^key_/);
  }, 300_000);

  it("without reuse the same requests (10 at once, 10 after) make one upstream task each, every one charged", async () => {
    const { key } = await keyFor("no-reuse");
    const tasksBefore = stack.simulator!.counters().tasksCreated;
    const jobs = await twoRounds(key, REQUEST, {}, 10);
    expect(stack.simulator!.counters().tasksCreated - tasksBefore).toBe(20);
    expect(jobs.filter((job) => job.status === "succeeded")).toHaveLength(20);
    expect(jobs.filter((job) => job.charged === true)).toHaveLength(20);
    expect(jobs.filter((job) => job.reused_from !== undefined)).toHaveLength(0);
  }, 300_000);

  it("when the task the requests share fails, every follower fails the same way (same code and class) uncharged, and the next identical request leads a new task", async () => {
    const { key } = await keyFor("shared-failure");
    const failing = { ...REQUEST, prompt: "a storm that never renders [[sim:task_fail]]" };
    const tasksBefore = stack.simulator!.counters().tasksCreated;
    const made = await Promise.all(
      Array.from({ length: 5 }, () => create(key, failing, { "X-Reelay-Reuse": "1h" })),
    );
    const jobs = await Promise.all(
      made.map((answer) => waitForTerminalJob(stack.url, key, answer.body.task_id, 60_000)),
    );
    expect(stack.simulator!.counters().tasksCreated - tasksBefore).toBe(1);
    expect(jobs.map((job) => job.status)).toEqual(Array(5).fill("failed"));
    const leader = jobs.find((job) => job.reused_from === undefined);
    const followers = jobs.filter((job) => job.reused_from !== undefined);
    expect(followers).toHaveLength(4);
    for (const job of followers) {
      expect(job).toMatchObject({
        reused_from: leader.id,
        charged: false,
        cost: 0,
        error: { code: leader.error.code, class: leader.error.class },
      });
      expect(job.error.message).toContain(leader.id);
    }
    // A failed job is never a source: the same request again makes its own task.
    const again = await create(key, failing, { "X-Reelay-Reuse": "1h" });
    const retried = await waitForTerminalJob(stack.url, key, again.body.task_id, 60_000);
    expect(retried.reused_from).toBeUndefined();
    expect(stack.simulator!.counters().tasksCreated - tasksBefore).toBe(2);
  }, 120_000);

  it("reuse never crosses projects: another key's identical request makes its own task", async () => {
    const { key } = await keyFor("other-project");
    const tasksBefore = stack.simulator!.counters().tasksCreated;
    const made = await create(key, REQUEST, { "X-Reelay-Reuse": "7d" });
    const job = await waitForTerminalJob(stack.url, key, made.body.task_id, 60_000);
    expect(job).toMatchObject({ status: "succeeded", charged: true });
    expect(job.reused_from).toBeUndefined();
    expect(stack.simulator!.counters().tasksCreated - tasksBefore).toBe(1);
  }, 120_000);

  it("a batch's reuse makes its identical lines share one task", async () => {
    const { key } = await keyFor("batch-reuser");
    const tasksBefore = stack.simulator!.counters().tasksCreated;
    const line = { ...REQUEST, prompt: "a kite over dunes, once" };
    const made = await postJson(`${stack.url}/v1/batches`, key, {
      requests: [line, line, line],
      reuse: "12h",
    });
    expect(made.status).toBe(200);
    const ids = await batchJobIds(stack.url, key, made.body.id as string);
    const jobs = await Promise.all(ids.map((id) => waitForTerminalJob(stack.url, key, id, 60_000)));
    expect(jobs.map((job) => job.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(jobs.filter((job) => job.charged === false)).toHaveLength(2);
    expect(stack.simulator!.counters().tasksCreated - tasksBefore).toBe(1);
  }, 120_000);

  it("a reuse that is not a max age nor false is 400 invalid_reuse naming where it came from, and no job is made", async () => {
    const before = (await getJson(`${stack.url}/v1/jobs?limit=100`, stack.apiKey)).body.data.length;
    for (const value of ["7", "1w", "0d", "366d", "true", "-1h"]) {
      const refused = await create(stack.apiKey, REQUEST, { "X-Reelay-Reuse": value });
      expect(refused.status, value).toBe(400);
      expect(refused.body.error).toMatchObject({ code: "invalid_reuse", path: "X-Reelay-Reuse" });
    }
    const batch = await postJson(`${stack.url}/v1/batches`, stack.apiKey, {
      requests: [REQUEST],
      reuse: 7,
    });
    expect(batch.status).toBe(400);
    expect(batch.body.error).toMatchObject({ code: "invalid_reuse", path: "reuse" });
    const after = (await getJson(`${stack.url}/v1/jobs?limit=100`, stack.apiKey)).body.data.length;
    expect(after).toBe(before);
  });
});
