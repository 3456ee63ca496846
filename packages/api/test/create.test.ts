import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { harness, VALID, type Harness } from "./support/harness.ts";
import { durationOf } from "@reelay/core/domain";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

interface Body {
  service_task: { task_id: string; status: string };
  task_id: string;
  status: string;
  model: string;
  warnings: unknown[];
  error: {
    code: string;
    message: string;
    path?: string;
    errors?: { path: string; code: string; message: string }[];
  };
}

async function bodyOf(response: Response): Promise<Body> {
  return (await response.json()) as Body;
}

async function jobCount(h: Harness): Promise<number> {
  return (await h.jobs.list({ limit: 100 })).jobs.length;
}

describe("POST /v1/video/generations", () => {
  it("a valid request answers 200 in the contract's shape, queues one job in DynamoDB and starts it once", async () => {
    const h = await harness(aws);
    const response = await h.post(VALID);
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body.task_id).toMatch(/^vidtsk_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(body.service_task).toEqual({ task_id: body.task_id, status: "queued" });
    expect(body).toMatchObject({ status: "queued", model: "gamma-3.1", warnings: [] });

    const job = await h.jobs.get(body.task_id);
    expect(job).toMatchObject({
      status: "queued",
      kind: "video",
      model: "gamma-3.1",
      source: { type: "api", apiKeyId: "local" },
    });
    expect(h.starter.started.map((j) => j.id)).toEqual([body.task_id]);
  });

  it("answers with the validator's warnings and records them on the job (gamma's duration defaulted to 8)", async () => {
    const h = await harness(aws);
    const body = await bodyOf(await h.post({ model: "gamma-3.1", prompt: "a boat" }));
    expect(body.warnings).toEqual([
      expect.objectContaining({ path: "duration_sec", code: "duration_defaulted" }),
    ]);
    const job = await h.jobs.get(body.task_id);
    expect(job?.warnings).toEqual(body.warnings);
    expect(durationOf(job!.request)).toBe(8);
  });

  it("an invalid request answers 400 invalid_request with every error and its path, records no job and starts nothing", async () => {
    const h = await harness(aws);
    const response = await h.post({ model: "gamma-3.1", duration_sec: 7, aspect_ratio: "4:3" });
    expect(response.status).toBe(400);
    const { error } = await bodyOf(response);
    expect(error.code).toBe("invalid_request");
    expect(error.errors?.length).toBeGreaterThanOrEqual(2);
    const paths = error.errors?.map((issue) => issue.path) ?? [];
    expect(paths).toEqual(expect.arrayContaining(["duration_sec", "aspect_ratio"]));
    expect(error.message).toBe(
      `${error.errors?.[0]?.message} (+${(error.errors?.length ?? 0) - 1} more)`,
    );
    expect(error.path).toBe(error.errors?.[0]?.path);
    expect(await jobCount(h)).toBe(0);
    expect(h.starter.started).toEqual([]);
  });

  it("an unknown model is refused with a close match named", async () => {
    const h = await harness(aws);
    const response = await h.post({ model: "gamma-3.2", prompt: "a boat" });
    expect(response.status).toBe(400);
    const { error } = await bodyOf(response);
    expect(error.errors?.[0]).toMatchObject({ path: "model", code: "unknown_model" });
  });

  it("the same X-Idempotency-Key twice answers the same task id, records one job and starts one execution", async () => {
    const h = await harness(aws);
    const first = await bodyOf(await h.post(VALID, { "X-Idempotency-Key": "order-42" }));
    const second = await bodyOf(await h.post(VALID, { "X-Idempotency-Key": "order-42" }));
    expect(second.task_id).toBe(first.task_id);
    expect(await jobCount(h)).toBe(1);
    // A repeat while the job is still queued asks again (starters are idempotent per job id).
    expect(new Set(h.starter.started.map((job) => job.id))).toEqual(new Set([first.task_id]));
    // Another key is another job.
    const third = await bodyOf(await h.post(VALID, { "X-Idempotency-Key": "order-43" }));
    expect(third.task_id).not.toBe(first.task_id);
  });

  it("concurrent requests with one idempotency key make one job", async () => {
    const h = await harness(aws);
    const bodies = await Promise.all(
      [1, 2, 3, 4].map(() => h.post(VALID, { "X-Idempotency-Key": "same" }).then(bodyOf)),
    );
    expect(new Set(bodies.map((b) => b.task_id)).size).toBe(1);
    expect(await jobCount(h)).toBe(1);
    expect(new Set(h.starter.started.map((job) => job.id)).size).toBe(1);
  });

  it("a repeat of the key after the job has moved on does not start it again", async () => {
    const h = await harness(aws);
    const first = await bodyOf(await h.post(VALID, { "X-Idempotency-Key": "moved-on" }));
    await h.jobs.transition(first.task_id, { from: ["queued"], to: "running" });
    const before = h.starter.started.length;
    const again = await bodyOf(await h.post(VALID, { "X-Idempotency-Key": "moved-on" }));
    expect(again).toMatchObject({ task_id: first.task_id, status: "running" });
    expect(h.starter.started.length).toBe(before);
  });

  it("an empty or over-long X-Idempotency-Key is 400 invalid_idempotency_key", async () => {
    const h = await harness(aws);
    for (const key of [" ", "k".repeat(256)]) {
      const response = await h.post(VALID, { "X-Idempotency-Key": key });
      expect(response.status).toBe(400);
      expect((await bodyOf(response)).error.code).toBe("invalid_idempotency_key");
    }
    expect(await jobCount(h)).toBe(0);
  });

  it("an image request is refused with 400 wrong_endpoint pointing at /v1/chat/completions, and no job", async () => {
    const h = await harness(aws);
    const response = await h.post({
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a cat" }],
      modalities: ["image"],
    });
    expect(response.status).toBe(400);
    const { error } = await bodyOf(response);
    expect(error.code).toBe("wrong_endpoint");
    expect(error.message).toContain("/v1/chat/completions");
    expect(await jobCount(h)).toBe(0);
    expect(h.starter.started).toEqual([]);
  });

  it("a body over the limit is 413 payload_too_large", async () => {
    const h = await harness(aws, { maxBodyBytes: 1024 });
    const response = await h.post({ ...VALID, prompt: "x".repeat(2000) });
    expect(response.status).toBe(413);
    expect((await bodyOf(response)).error.code).toBe("payload_too_large");
    expect(await jobCount(h)).toBe(0);
  });

  it("the default limit is 1 MiB", async () => {
    const h = await harness(aws);
    const response = await h.post({ ...VALID, prompt: "x".repeat(1024 * 1024) });
    expect(response.status).toBe(413);
  });

  it("a body that is not JSON, or empty, is 400 invalid_json", async () => {
    const h = await harness(aws);
    for (const body of ["{model: gamma", ""]) {
      const response = await h.post(body);
      expect(response.status).toBe(400);
      expect((await bodyOf(response)).error.code).toBe("invalid_json");
    }
  });

  it("JSON that is not an object is 400 invalid_request", async () => {
    const h = await harness(aws);
    const response = await h.post("[1, 2]");
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).error.code).toBe("invalid_request");
  });

  it("when the starter fails: 503 start_failed naming the task, the job failed with start_failed, one Generation Failed event", async () => {
    const h = await harness(aws);
    h.starter.failWith = new Error("StartExecution: throttled");
    const response = await h.post(VALID);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).not.toBeNull();
    const { error } = await bodyOf(response);
    expect(error.code).toBe("start_failed");
    const id = (error as unknown as { task_id: string }).task_id;
    const job = await h.jobs.get(id);
    expect(job?.status).toBe("failed");
    expect(job?.error?.code).toBe("start_failed");
    expect(job?.error?.message).toContain("throttled");
    expect(job?.eventEmittedAt).toBeDefined();
    expect(h.sink.emitted.map((e) => [e["detail-type"], e.detail.jobId])).toEqual([
      ["Generation Failed", id],
    ]);
  });

  it("never answers 500 or more for 50 random bodies", async () => {
    const h = await harness(aws);
    const field = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom("gamma-3.1", "kappa-omni-flash-preview", "720p", "16:9", 8, true),
    );
    const body = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.string(),
      fc
        .dictionary(
          fc.constantFrom(
            "model",
            "prompt",
            "duration_sec",
            "resolution",
            "aspect_ratio",
            "generate_audio",
            "frame_images",
            "input_references",
            "model_specific_config",
            "messages",
          ),
          field,
        )
        .map((value) => JSON.stringify(value)),
    );
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const response = await h.post(text);
        expect(response.status, text).toBeLessThan(500);
        const answer = (await response.json()) as Partial<Body>;
        if (response.status !== 200) expect(typeof answer.error?.code).toBe("string");
      }),
      { numRuns: 50 },
    );
  });
});
