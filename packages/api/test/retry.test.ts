import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { auth, created, fail, harness, json, VALID } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

async function retrying() {
  const h = await harness(aws);
  const retry = async (id: string, body?: unknown) => {
    const response = await h.app.request(`/v1/jobs/${id}/retry`, {
      method: "POST",
      headers: body === undefined ? auth : json,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  return { ...h, retry };
}

const MODERATED = { code: "generation_failed", message: "Content moderation rejected the prompt" };
const TRANSIENT = { code: "upstream_unavailable", message: "The upstream answered 503." };

describe("POST /v1/jobs/{id}/retry", () => {
  it("an upstream_transient failure is retried unchanged: a new queued job linked both ways; the same retry again answers it and makes no other", async () => {
    const h = await retrying();
    const id = await created(h);
    await fail(h, id, TRANSIENT);
    const first = await h.retry(id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: "queued",
      retryOf: id,
      request: { prompt: VALID.prompt },
    });
    expect(first.body.id).not.toBe(id);
    expect((await h.get(`/v1/jobs/${id}`)).status).toBe(200);
    expect(((await (await h.get(`/v1/jobs/${id}`)).json()) as any).retriedBy).toBe(first.body.id);
    const again = await h.retry(id);
    expect(again.body.id).toBe(first.body.id);
    // One new job only (a repeat may start the still-queued job again: starters are idempotent).
    const listed = ((await (await h.get("/v1/jobs")).json()) as any).data as { id: string }[];
    expect(listed.map((job) => job.id).sort()).toEqual([id, first.body.id].sort());
  });

  it("a content_policy failure is never retried unchanged (409 not_retryable), only with a changed request", async () => {
    const h = await retrying();
    const id = await created(h);
    await fail(h, id, MODERATED);
    const view = (await (await h.get(`/v1/jobs/${id}`)).json()) as any;
    expect(view.error).toMatchObject({ class: "content_policy", retryable: false });
    const unchanged = await h.retry(id);
    expect(unchanged.status).toBe(409);
    expect(unchanged.body.error).toMatchObject({ code: "not_retryable" });
    expect((await h.retry(id, { prompt: VALID.prompt })).status).toBe(409);
    const changed = await h.retry(id, { prompt: "a paper boat on a calm lake" });
    expect(changed.status).toBe(200);
    expect(changed.body.request.prompt).toBe("a paper boat on a calm lake");
  });

  it("a job still running is not retryable; a changed request that breaks a rule is 400 with its path", async () => {
    const h = await retrying();
    const id = await created(h);
    expect((await h.retry(id)).body.error.code).toBe("not_retryable");
    await fail(h, id, TRANSIENT);
    const bad = await h.retry(id, { duration_sec: 5 });
    expect([bad.status, bad.body.error.code, bad.body.error.path]).toEqual([
      400,
      "invalid_request",
      "duration_sec",
    ]);
    expect((await h.retry(id, [1, 2])).body.error.code).toBe("invalid_request");
  });
});
