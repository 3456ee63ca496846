import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AUTH, createVideo, get, post, sim } from "./helpers.ts";

async function errorOf(
  res: Response,
): Promise<{ status: number; code: unknown; message: unknown }> {
  const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
  return { status: res.status, code: body.error?.code, message: typeof body.error?.message };
}

describe("HTTP surface", () => {
  it("answers 401 with an error body without the right bearer key", async () => {
    const s = await sim();
    const none = await fetch(`${s.url}/models`);
    expect(await errorOf(none)).toEqual({ status: 401, code: "unauthorized", message: "string" });
    const wrong = await fetch(`${s.url}/models`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect((await fetch(`${s.url}/models`, { headers: AUTH })).status).toBe(200);
  });

  it("needs no key when apiKey is not set", async () => {
    const s = await sim({ apiKey: undefined });
    expect((await fetch(`${s.url}/models`)).status).toBe(200);
  });

  it("answers 404 for an unknown task id, and only the exact id finds a task", async () => {
    const s = await sim();
    const id = await createVideo(s);
    expect(await errorOf(await get(s, "/video/tasks/vidtsk_unknown"))).toMatchObject({
      status: 404,
      code: "task_not_found",
    });
    expect((await get(s, `/video/tasks/${id.toUpperCase()}`)).status).toBe(404);
    expect((await get(s, `/video/tasks/${id}x`)).status).toBe(404);
    expect((await get(s, `/video/tasks/${id}`)).status).toBe(200);
  });

  const invalid: [string, unknown, string][] = [
    ["body is not JSON", "{not json", "invalid_json"],
    ["body is a JSON array", [1, 2], "invalid_body"],
    ["model is missing", { prompt: "x" }, "model_required"],
    ["model is unknown to the listing", { model: "alpha-9", prompt: "x" }, "model_not_found"],
    ["model is an image model", { model: "deltaq2-image", prompt: "x" }, "model_not_found"],
    ["no prompt and no material", { model: "alpha-2.7" }, "prompt_required"],
    [
      "logo_add is present",
      { model: "alpha-2.7", prompt: "x", model_specific_config: { logo_add: true } },
      "unsupported_config_key",
    ],
  ];
  for (const [what, body, code] of invalid) {
    it(`create answers 400 ${code} when ${what}`, async () => {
      const s = await sim();
      expect(await errorOf(await post(s, "/video/generations", body))).toEqual({
        status: 400,
        code,
        message: "string",
      });
      expect(s.counters().tasksCreated).toBe(0);
    });
  }

  it("create accepts material without a prompt", async () => {
    const s = await sim();
    const body = {
      model: "alpha-2.7",
      frame_images: [
        { type: "image_url", frame_type: "first_frame", image_url: { url: "https://x/a.png" } },
      ],
    };
    expect((await post(s, "/video/generations", body)).status).toBe(200);
  });

  it("answers 413 for a body over maxBodyBytes", async () => {
    const s = await sim({ maxBodyBytes: 1000 });
    const res = await post(s, "/video/generations", {
      model: "alpha-2.7",
      prompt: "x".repeat(5000),
    });
    expect(await errorOf(res)).toMatchObject({ status: 413, code: "payload_too_large" });
  });

  it("answers 404 for unknown routes and 405 for a wrong method", async () => {
    const s = await sim();
    expect((await get(s, "/nothing")).status).toBe(404);
    expect((await fetch(`${s.origin}/elsewhere`)).status).toBe(404);
    expect((await get(s, "/video/generations")).status).toBe(405);
  });

  it("never answers 5xx or drops the connection for arbitrary create bodies", async () => {
    const s = await sim();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.json(), fc.string()), async (body) => {
        const res = await post(s, "/video/generations", body);
        await res.arrayBuffer();
        return res.status === 200 || (res.status >= 400 && res.status < 500);
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string(), async (id) => {
        const res = await fetch(`${s.url}/video/tasks/${encodeURIComponent(id)}`, {
          headers: AUTH,
        });
        await res.arrayBuffer();
        return res.status === 404 || res.status === 200;
      }),
      { numRuns: 40 },
    );
  });

  it("lists models filtered by modality", async () => {
    const s = await sim({
      models: [
        { id: "v1", modality: "video" },
        { id: "i1", modality: "image" },
      ],
    });
    expect(await (await get(s, "/models?modality=video")).json()).toEqual({
      object: "list",
      data: [{ id: "v1", object: "model", modality: "video" }],
    });
    expect(await (await get(s, "/models?modality=image")).json()).toEqual({
      object: "list",
      data: [{ id: "i1", object: "model", modality: "image" }],
    });
    expect(((await (await get(s, "/models")).json()) as { data: unknown[] }).data).toHaveLength(2);
    expect((await get(s, "/models?modality=audio")).status).toBe(400);
  });

  it("the default listing holds every video model code of the contract and the image model", async () => {
    const s = await sim();
    const ids = (
      (await (await get(s, "/models?modality=video")).json()) as { data: { id: string }[] }
    ).data.map((m) => m.id);
    expect(ids).toContain("gamma-3.1-lite");
    expect(ids).toContain("kappa-omni-flash-preview");
    expect(ids).toHaveLength(30);
    const images = (
      (await (await get(s, "/models?modality=image")).json()) as { data: { id: string }[] }
    ).data;
    expect(images.map((m) => m.id)).toEqual(["deltaq2-image"]);
  });

  it("counts requests, creates, polls per task; reset() forgets tasks and counters", async () => {
    // A task that stays in flight for the whole test, so the in-flight count is known.
    const s = await sim({ generationMs: 60_000 });
    const id = await createVideo(s);
    await (await get(s, `/video/tasks/${id}`)).arrayBuffer();
    await (await get(s, `/video/tasks/${id}`)).arrayBuffer();
    expect(s.counters()).toEqual({
      requests: 3,
      creates: 1,
      tasksCreated: 1,
      createsByKey: {},
      tasksByKey: {},
      polls: 2,
      pollsByTask: { [id]: 2 },
      downloads: 0,
      downloadsByTask: {},
      faultsInjected: {},
      limited: 0,
      limitedByApiKey: {},
      peakInFlight: 1,
      peakInFlightByApiKey: { "test-key": 1 },
      inFlight: 1,
      inFlightByApiKey: { "test-key": 1 },
      materialFetches: [],
    });
    s.reset();
    expect(s.task(id)).toBeUndefined();
    expect(s.counters().requests).toBe(0);
    expect((await get(s, `/video/tasks/${id}`)).status).toBe(404);
  });

  it("task() exposes the request and idempotency key the task was created with", async () => {
    const s = await sim();
    const id = await createVideo(s, "hello", { "x-idempotency-key": "abc" });
    expect(s.task(id)).toMatchObject({
      id,
      kind: "video",
      model: "alpha-2.7",
      request: { model: "alpha-2.7", prompt: "hello" },
      idempotencyKey: "abc",
    });
  });
});

describe("idempotency", () => {
  it("the same X-Idempotency-Key returns the same task and makes one task", async () => {
    const s = await sim();
    const headers = { "x-idempotency-key": "job-1" };
    const a = await createVideo(s, "x", headers);
    const b = await createVideo(s, "x", headers);
    const c = await createVideo(s, "x", { "x-idempotency-key": "job-2" });
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(s.counters()).toMatchObject({
      creates: 3,
      tasksCreated: 2,
      createsByKey: { "job-1": 2, "job-2": 1 },
      tasksByKey: { "job-1": 1, "job-2": 1 },
    });
  });

  it("a retried create after server_error with after:true returns the task made by the lost answer", async () => {
    const s = await sim({
      faults: [{ fault: "server_error", on: "create", after: true, times: 1 }],
    });
    const headers = { "x-idempotency-key": "k" };
    expect(
      (await post(s, "/video/generations", { model: "alpha-2.7", prompt: "x" }, headers)).status,
    ).toBe(503);
    const id = await createVideo(s, "x", headers);
    expect(s.task(id)?.idempotencyKey).toBe("k");
    expect(s.counters()).toMatchObject({ creates: 2, tasksCreated: 1, tasksByKey: { k: 1 } });
  });

  it("a create refused by 429 makes no task, so the retry makes the first one", async () => {
    const s = await sim({ faults: [{ fault: "rate_limit", on: "create", times: 1 }] });
    const headers = { "x-idempotency-key": "k" };
    expect(
      (await post(s, "/video/generations", { model: "alpha-2.7", prompt: "x" }, headers)).status,
    ).toBe(429);
    expect(s.counters().tasksCreated).toBe(0);
    await createVideo(s, "x", headers);
    expect(s.counters()).toMatchObject({ createsByKey: { k: 2 }, tasksByKey: { k: 1 } });
  });
});
