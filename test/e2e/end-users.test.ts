/**
 * Acceptance (end users), on the local stack with a slow simulator so jobs overlap: a key with
 * `user_limits.max_in_flight: 1` and two end users each sending 5 jobs never has more than one job
 * of a user in flight, both users progress, the key's jobs for no user are not held back, and
 * `group_by=user` sums to the key's usage. A job made for a user carries it in its view, job.json,
 * terminal event (the webhook payload's data) and batch result, and `GET /v1/jobs?user=` finds it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  eventsFor,
  getJson,
  objectText,
  postJson,
  STACK_START_MS,
  startTestStack,
  type TestStack,
  waitFor,
  waitForTerminalJob,
} from "./support/stack.ts";

// 20 s generations at the stacks' 0.05 time scale: 1 s each, long enough for jobs to overlap.
const SIMULATOR = { maxConcurrent: 16, generationMs: 20_000 };
const REQUEST = { model: "os-2", prompt: "a lighthouse at dusk", duration_sec: 4 };

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ REELAY_UPSTREAM_CONCURRENCY: "16" }, SIMULATOR);
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

/** A create for `user` (none: the key's own) through the contract's route and X-Reelay-User. */
async function create(key: string, user: string | undefined, n: number): Promise<string> {
  const response = await fetch(`${stack.url}/v1/video/generations`, {
    method: "POST",
    headers: { ...bearer(key), ...(user === undefined ? {} : { "X-Reelay-User": user }) },
    body: JSON.stringify({ ...REQUEST, prompt: `${REQUEST.prompt}, take ${n}` }),
  });
  const body = (await response.json()) as { task_id: string };
  if (response.status !== 200) throw new Error(`create answered ${response.status}`);
  return body.task_id;
}

/** Whether two jobs held the upstream at the same time (from its create to its end upstream). */
function overlap(a: any, b: any): boolean {
  const span = (job: any) => [
    Date.parse(job.timings.submittedAt),
    Date.parse(job.timings.upstreamDoneAt),
  ];
  const [aFrom, aTo] = span(a) as [number, number];
  const [bFrom, bTo] = span(b) as [number, number];
  return aFrom < bTo && bFrom < aTo;
}

// Waits are on conditions (each job's end), bounded at 120 s each; the stack start has its own.
describe("end users on the local stack", { timeout: 240_000 }, () => {
  it("user_limits.max_in_flight 1, two users of 5 jobs: never two of a user in flight, both progress, the key's other jobs unharmed, group_by=user sums to the key's usage", async () => {
    const made = await postJson(`${stack.url}/v1/keys`, stack.apiKey, {
      name: "end users",
      user_limits: { max_in_flight: 1 },
    });
    expect(made.status).toBe(201);
    expect(made.body.user_limits).toMatchObject({ max_in_flight: 1, rate: null, budget: null });
    const key = made.body.key as string;
    const ids: Record<string, string[]> = { alice: [], bob: [], none: [] };
    for (let i = 0; i < 5; i++) {
      ids.alice?.push(await create(key, "alice", i));
      ids.bob?.push(await create(key, "bob", i));
      if (i < 3) ids.none?.push(await create(key, undefined, i));
    }
    const ended: Record<string, any[]> = {};
    for (const [who, list] of Object.entries(ids))
      ended[who] = await Promise.all(list.map((id) => waitForTerminalJob(stack.url, key, id)));
    for (const who of ["alice", "bob"]) {
      const jobs = ended[who] as any[];
      expect(jobs.map((job) => job.status)).toEqual(Array(5).fill("succeeded"));
      expect(jobs.every((job) => job.user === who)).toBe(true);
      for (const a of jobs)
        for (const b of jobs) if (a.id !== b.id) expect(overlap(a, b)).toBe(false);
    }
    // The key's own jobs were not queued behind its users': they ran side by side.
    const own = ended.none as any[];
    expect(own.map((job) => job.status)).toEqual(Array(3).fill("succeeded"));
    expect(own.some((a) => own.some((b) => a.id !== b.id && overlap(a, b)))).toBe(true);
    const lastOwn = Math.max(...own.map((job) => Date.parse(job.timings.finishedAt)));
    const lastAlice = Math.max(
      ...(ended.alice as any[]).map((j) => Date.parse(j.timings.finishedAt)),
    );
    expect(lastOwn).toBeLessThan(lastAlice);

    const listed = await getJson(`${stack.url}/v1/jobs?user=alice&limit=100`, key);
    expect((listed.body.data as any[]).map((job) => job.id).sort()).toEqual(
      [...(ids.alice as string[])].sort(),
    );
    const usage = await getJson(`${stack.url}/v1/usage?group_by=user`, key);
    expect(usage.status).toBe(200);
    const groups = usage.body.groups as any[];
    expect(groups.map((g) => g.group)).toEqual(["alice", "bob", null]);
    const sum = (field: string) => groups.reduce((total, g) => total + g[field], 0);
    expect(usage.body.totals.jobs).toBe(13);
    for (const field of ["jobs", "succeeded", "failed", "charged"])
      expect(sum(field)).toBe(usage.body.totals[field]);
  });

  it("a job's user is in its view, job.json and terminal event; a batch's user in each result line; a bad one is 400 invalid_user", async () => {
    const id = await create(stack.apiKey, "carol", 0);
    const job = await waitForTerminalJob(stack.url, stack.apiKey, id);
    expect(job).toMatchObject({ status: "succeeded", user: "carol" });
    const manifest = JSON.parse(await objectText(stack.s3, stack.bucket, `outputs/${id}/job.json`));
    expect(manifest.user).toBe("carol");
    const [event] = await eventsFor(stack.dataDir, id);
    expect(event?.detail.user).toBe("carol");

    const batch = await postJson(`${stack.url}/v1/batches`, stack.apiKey, {
      requests: [REQUEST, { ...REQUEST, prompt: "a harbour" }],
      user: "dave",
    });
    expect(batch.status).toBe(200);
    const lines = await waitFor(
      "the batch's results",
      async () => {
        const { body } = await getJson(`${stack.url}/v1/batches/${batch.body.id}`, stack.apiKey);
        if (body.finished_at === null) return undefined;
        const answer = await fetch(`${stack.url}/v1/batches/${batch.body.id}/results`, {
          headers: bearer(stack.apiKey),
        });
        return (await answer.text())
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line));
      },
      120_000,
      500,
    );
    expect(lines.map((line) => line.user)).toEqual(["dave", "dave"]);

    const bad = await fetch(`${stack.url}/v1/video/generations`, {
      method: "POST",
      headers: { ...bearer(stack.apiKey), "X-Reelay-User": "a".repeat(129) },
      body: JSON.stringify(REQUEST),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toMatchObject({
      code: "invalid_user",
      path: "X-Reelay-User",
    });
  });
});
