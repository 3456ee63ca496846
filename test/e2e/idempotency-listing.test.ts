/**
 * On the local stack: idempotency keys on reelay's own API,
 * and the job listing's filters, cursor and state history.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  getJson,
  postJson,
  startTestStack,
  waitForTerminalJob,
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

function create(body: unknown, key?: string): Promise<Response> {
  return fetch(`${stack.url}/v1/video/generations`, {
    method: "POST",
    headers: {
      ...bearer(stack.apiKey),
      "content-type": "application/json",
      ...(key === undefined ? {} : { "x-idempotency-key": key }),
    },
    body: JSON.stringify(body),
  });
}

describe("idempotency and listing on the local stack", () => {
  it("the same key and payload return one job (also when sent concurrently); a different payload is 409 idempotency_conflict", async () => {
    const body = { model: "os-2", prompt: "a lighthouse", duration_sec: 8 };
    const answers = await Promise.all([1, 2, 3].map(() => create(body, "order-1")));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const ids = new Set(
      await Promise.all(
        answers.map(async (a) => ((await a.json()) as { task_id: string }).task_id),
      ),
    );
    expect(ids.size).toBe(1);
    const [id] = [...ids];

    const conflict = await create({ ...body, prompt: "a different lighthouse" }, "order-1");
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({
      error: { code: "idempotency_conflict", path: "X-Idempotency-Key" },
    });

    const job = await waitForTerminalJob(stack.url, stack.apiKey, id!);
    expect(job.status).toBe("succeeded");
    // One upstream task for the three requests.
    expect(stack.simulator?.counters().tasksByKey[id!]).toBe(1);
  });

  it("GET /v1/jobs filters by status, model, kind and source with a cursor, and a job shows its timed history", async () => {
    const made: string[] = [];
    for (const model of ["os-2", "os-2", "theta-3.0-pro"]) {
      const { body } = await postJson(`${stack.url}/v1/video/generations`, stack.apiKey, {
        model,
        prompt: `listing ${made.length}`,
        duration_sec: model === "os-2" ? 4 : 5,
      });
      made.push(body.task_id);
    }
    await Promise.all(made.map((id) => waitForTerminalJob(stack.url, stack.apiKey, id)));

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `model=os-2&status=succeeded&kind=video&source=api&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const { status, body } = await getJson(`${stack.url}/v1/jobs?${query}`, stack.apiKey);
      expect(status).toBe(200);
      for (const job of body.data) {
        expect(job).toMatchObject({
          model: "os-2",
          status: "succeeded",
          kind: "video",
          source: { type: "api" },
        });
        seen.push(job.id);
      }
      cursor = body.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(expect.arrayContaining([made[0], made[1]]));
    expect(seen).not.toContain(made[2]);

    const bad = await getJson(`${stack.url}/v1/jobs?kind=sound`, stack.apiKey);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_query", path: "kind" });

    const { body: job } = await getJson(`${stack.url}/v1/jobs/${made[2]}`, stack.apiKey);
    const statuses = job.history.map((entry: { status: string }) => entry.status);
    expect(statuses[0]).toBe("queued");
    expect(statuses.at(-1)).toBe("succeeded");
    expect(statuses).toEqual(expect.arrayContaining(["running", "downloading"]));
    const times = job.history.map((entry: { at: string }) => Date.parse(entry.at));
    expect(times.every((t: number) => Number.isFinite(t))).toBe(true);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });
});
