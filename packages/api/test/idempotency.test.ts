import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { requestHashOf } from "@reelay/core/domain";
import { harness, json, VALID } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

interface Body {
  task_id: string;
  error: { code: string; message: string; path?: string; task_id?: string };
}

const KEY = { "X-Idempotency-Key": "order-7" };

describe("X-Idempotency-Key", () => {
  it("the same payload with keys reordered and a default spelled out answers the first job; one job is recorded with its request hash", async () => {
    const h = await harness(aws);
    const first = (await (
      await h.post({ model: "gamma-3.1", prompt: "a paper boat in the rain" }, KEY)
    ).json()) as Body;
    const again = await h.post(
      { prompt: "a paper boat in the rain", duration_sec: 8, model: "gamma-3.1" },
      KEY,
    );
    expect(again.status).toBe(200);
    expect(((await again.json()) as Body).task_id).toBe(first.task_id);
    expect((await h.jobs.list({ limit: 100 })).jobs).toHaveLength(1);
    expect((await h.jobs.require(first.task_id)).requestHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a different payload under a used key is 409 idempotency_conflict naming the key and the first job, and records or starts nothing", async () => {
    const h = await harness(aws);
    const first = (await (await h.post(VALID, KEY)).json()) as Body;
    const startedBefore = h.starter.started.length;

    const response = await h.post({ ...VALID, prompt: "a paper plane in the wind" }, KEY);
    expect(response.status).toBe(409);
    const { error } = (await response.json()) as Body;
    expect(error.code).toBe("idempotency_conflict");
    expect(error.path).toBe("X-Idempotency-Key");
    expect(error.task_id).toBe(first.task_id);
    expect(error.message).toContain("order-7");
    expect(error.message).toContain("different request");
    expect((await h.jobs.list({ limit: 100 })).jobs).toHaveLength(1);
    expect(h.starter.started).toHaveLength(startedBefore);
  });

  it("the conflict holds after the first job ended, and a new key makes a new job", async () => {
    const h = await harness(aws);
    const first = (await (await h.post(VALID, KEY)).json()) as Body;
    await h.jobs.transition(first.task_id, { from: ["queued"], to: "failed" });
    expect((await h.post({ ...VALID, duration_sec: 4 }, KEY)).status).toBe(409);
    const fresh = await h.post({ ...VALID, duration_sec: 4 }, { "X-Idempotency-Key": "order-8" });
    expect(fresh.status).toBe(200);
    expect(((await fresh.json()) as Body).task_id).not.toBe(first.task_id);
  });

  it("concurrent requests with one key and one payload make one job; with two payloads, one job and every loser is 409", async () => {
    const h = await harness(aws);
    const same = await Promise.all(
      [1, 2, 3, 4].map(() => h.post(VALID, { "X-Idempotency-Key": "burst" })),
    );
    const ids = await Promise.all(same.map(async (r) => ((await r.json()) as Body).task_id));
    expect(same.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(ids).size).toBe(1);

    const mixed = await Promise.all(
      ["a fox", "a fox", "an owl", "an owl"].map((prompt) =>
        h.post({ ...VALID, prompt }, { "X-Idempotency-Key": "race" }),
      ),
    );
    const statuses = mixed.map((r) => r.status).sort();
    // Whichever prompt won, the two requests with the other one are refused.
    expect(statuses).toEqual([200, 200, 409, 409]);
    expect((await h.jobs.list({ limit: 100 })).jobs).toHaveLength(2);
  });

  it("POST /v1/chat/completions (image jobs) answers the first job for the same request and 409 idempotency_conflict for another prompt", async () => {
    const h = await harness(aws);
    const image = (prompt: string) => ({
      model: "deltaq2-image",
      messages: [{ role: "user", content: prompt }],
      modalities: ["image", "text"],
    });
    const send = (body: unknown) =>
      h.app.request("/v1/chat/completions", {
        method: "POST",
        headers: { ...json, "X-Idempotency-Key": "img-1" },
        body: JSON.stringify(body),
      });
    const first = await send(image("a lighthouse"));
    expect(first.status).toBe(200);
    const id = ((await first.json()) as Body).task_id;
    expect(id).toMatch(/^imgtsk_/);
    const again = await send(image("a lighthouse"));
    expect(((await again.json()) as Body).task_id).toBe(id);
    const other = await send(image("a windmill"));
    expect(other.status).toBe(409);
    expect(((await other.json()) as Body).error).toMatchObject({
      code: "idempotency_conflict",
      task_id: id,
    });
  });

  it("requestHashOf ignores key order and presigned query strings, and tells kinds and values apart", () => {
    const a = requestHashOf("video", {
      model: "m",
      prompt: "p",
      refs: [{ url: "https://b.s3/x.png?X-Amz-Signature=1&X-Amz-Credential=a" }],
    });
    const b = requestHashOf("video", {
      refs: [{ url: "https://b.s3/x.png?X-Amz-Credential=b&X-Amz-Signature=2" }],
      prompt: "p",
      model: "m",
    });
    expect(a).toBe(b);
    expect(requestHashOf("image", { model: "m", prompt: "p" })).not.toBe(
      requestHashOf("video", { model: "m", prompt: "p" }),
    );
    expect(requestHashOf("video", { model: "m", prompt: "p" })).not.toBe(
      requestHashOf("video", { model: "m", prompt: "q" }),
    );
  });
});
