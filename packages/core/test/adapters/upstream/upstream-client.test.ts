import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { ReelayError } from "../../../src/domain/errors.ts";
import {
  UpstreamClient,
  type UpstreamClientOptions,
} from "../../../src/adapters/upstream/upstream-client.ts";
import {
  hang,
  json,
  raw,
  reset,
  startScripted,
  type ScriptedServer,
  type Step,
} from "./http-fixture.ts";
import { caught } from "./rejection.ts";
import { recordingMetrics } from "../../support/recording-metrics.ts";

const KEY = "sk-live-SECRET-0123456789abcdef";
const TASK = {
  service_task: { task_id: "vidtsk_abc", status: "queued" },
  task_id: "vidtsk_abc",
  status: "queued",
};

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(steps: Step[], options: Partial<UpstreamClientOptions> = {}) {
  server = await startScripted(steps);
  const sleeps: number[] = [];
  const client = new UpstreamClient({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 1,
    ...options,
  });
  return { server, client, sleeps };
}

/** Everything an error exposes: message, details, JSON form and the whole cause chain. */
function everythingIn(error: ReelayError): string {
  return [
    error.message,
    JSON.stringify(error.details),
    JSON.stringify(error),
    inspect(error, { depth: null }),
  ].join("\n");
}

describe("base URL rule", () => {
  it.each([
    "http://127.0.0.1:1/v2",
    "http://127.0.0.1:1",
    "http://127.0.0.1:1/v1/video",
    "ftp://127.0.0.1/v1",
    "not a url",
    "http://user:pw@127.0.0.1/v1",
    "http://127.0.0.1/v1?x=1",
  ])("refuses %s with invalid_base_url", (baseUrl) => {
    let thrown: unknown;
    try {
      new UpstreamClient({ baseUrl, apiKey: KEY });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ReelayError);
    expect((thrown as ReelayError).code).toBe("invalid_base_url");
    expect((thrown as ReelayError).message).toMatch(/\/v1/);
    expect((thrown as ReelayError).message).not.toContain("pw@");
  });

  it("accepts a trailing slash and drops it", () => {
    expect(
      new UpstreamClient({ baseUrl: "https://api.example.com/gw/v1/", apiKey: KEY }).baseUrl,
    ).toBe("https://api.example.com/gw/v1");
  });
});

describe("requests", () => {
  it("createVideo posts JSON with bearer auth, content type and the idempotency key", async () => {
    const { server, client } = await setup([json(200, TASK)]);
    const created = await client.createVideo(
      { model: "gamma-3.1", prompt: "a cat" },
      { idempotencyKey: "job-1" },
    );
    expect(created.taskId).toBe("vidtsk_abc");
    expect(created.state.state).toBe("running");
    const [request] = server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/v1/video/generations");
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers["x-idempotency-key"]).toBe("job-1");
    expect(JSON.parse(request?.body ?? "")).toEqual({ model: "gamma-3.1", prompt: "a cat" });
  });

  it("getVideoTask GETs the task by its exact id with auth and no body or key", async () => {
    const done = {
      service_task: { status: "succeeded", output: { video_url: "https://cdn.test/v.mp4" } },
    };
    const { server, client } = await setup([json(200, done)]);
    const answer = await client.getVideoTask("vidtsk_abc");
    expect(answer).toEqual({
      body: done,
      httpStatus: 200,
      state: { state: "succeeded", status: "succeeded", outputUrls: ["https://cdn.test/v.mp4"] },
    });
    expect(server.requests[0]?.url).toBe("/v1/video/tasks/vidtsk_abc");
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]?.headers["x-idempotency-key"]).toBeUndefined();
    expect(server.requests[0]?.body).toBe("");
  });

  it("escapes a task id so it cannot leave the tasks path", async () => {
    const { server, client } = await setup([json(200, { status: "running" })]);
    await client.getVideoTask("../models");
    expect(server.requests[0]?.url).toBe("/v1/video/tasks/..%2Fmodels");
  });

  it("createImage returns a task id for an asynchronous answer", async () => {
    const { server, client } = await setup([json(200, { task_id: "imgtsk_1", status: "queued" })]);
    const created = await client.createImage(
      { model: "m", messages: [] },
      { idempotencyKey: "img-1" },
    );
    expect(created.taskId).toBe("imgtsk_1");
    expect(created.state.state).toBe("running");
    expect(server.requests[0]?.url).toBe("/v1/chat/completions");
  });

  it("createImage returns no task id and a succeeded state for a synchronous answer with URLs", async () => {
    const { client } = await setup([json(200, { data: [{ url: "https://cdn.test/i.png" }] })]);
    const created = await client.createImage({ model: "m" }, { idempotencyKey: "img-2" });
    expect(created.taskId).toBeUndefined();
    expect(created.state).toEqual({ state: "succeeded", outputUrls: ["https://cdn.test/i.png"] });
  });

  it("editImages sends multipart form data with auth and key", async () => {
    const { server, client } = await setup([
      json(200, { created: 1, data: [{ url: "https://cdn.test/e.png" }] }),
    ]);
    const form = new FormData();
    form.set("prompt", "make it blue");
    form.set("image", new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" }), "a.png");
    const created = await client.editImages(form, { idempotencyKey: "edit-1" });
    expect(created.state.outputUrls).toEqual(["https://cdn.test/e.png"]);
    const request = server.requests[0];
    expect(request?.url).toBe("/v1/images/edits");
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.headers["x-idempotency-key"]).toBe("edit-1");
    expect(request?.body).toContain("make it blue");
  });

  it("listModels asks with the modality filter and filters an upstream that ignores it", async () => {
    const { server, client } = await setup([
      json(200, {
        object: "list",
        data: [
          { id: "gamma-3.1", modality: "video" },
          { id: "deltaq2-image", modality: "image" },
          { id: "plain" },
        ],
      }),
    ]);
    expect(await client.listModels("video")).toEqual([
      { id: "gamma-3.1", modality: "video" },
      { id: "plain" },
    ]);
    expect(server.requests[0]?.url).toBe("/v1/models?modality=video");
  });

  it("listModels uses a configured path", async () => {
    const { server, client } = await setup([json(200, ["a", "b"])], {
      modelsPath: "catalog/models",
    });
    expect(await client.listModels()).toEqual([{ id: "a" }, { id: "b" }]);
    expect(server.requests[0]?.url).toBe("/v1/catalog/models");
  });
});

describe("retries", () => {
  it("honours Retry-After in seconds on 429 and keeps the same idempotency key", async () => {
    const { server, client, sleeps } = await setup([
      json(429, { error: { message: "slow down" } }, { "retry-after": "3" }),
      json(200, TASK),
    ]);
    await client.createVideo({ model: "m" }, { idempotencyKey: "job-429" });
    expect(sleeps).toEqual([3000]);
    expect(server.requests.map((r) => r.headers["x-idempotency-key"])).toEqual([
      "job-429",
      "job-429",
    ]);
  });

  it("honours Retry-After as an HTTP date", async () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    const { client, sleeps } = await setup(
      [json(429, {}, { "retry-after": new Date(now + 7000).toUTCString() }), json(200, TASK)],
      { now: () => now },
    );
    await client.getVideoTask("vidtsk_abc");
    expect(sleeps).toEqual([7000]);
  });

  it("caps a huge Retry-After at 60 s", async () => {
    const { client, sleeps } = await setup([
      json(429, {}, { "retry-after": "3600" }),
      json(200, TASK),
    ]);
    await client.getVideoTask("vidtsk_abc");
    expect(sleeps).toEqual([60_000]);
  });

  it("retries 5xx with capped exponential backoff, then succeeds, with the same key on every attempt", async () => {
    const { server, client, sleeps } = await setup(
      [
        json(503, { error: "busy" }),
        json(500, { error: "oops" }),
        json(502, {}),
        json(504, {}),
        json(200, TASK),
      ],
      { backoff: { baseMs: 100, capMs: 500 } },
    );
    const created = await client.createVideo({ model: "m" }, { idempotencyKey: "job-5xx" });
    expect(created.taskId).toBe("vidtsk_abc");
    expect(sleeps).toEqual([100, 200, 400, 500]);
    expect(new Set(server.requests.map((r) => r.headers["x-idempotency-key"]))).toEqual(
      new Set(["job-5xx"]),
    );
  });

  it("draws each backoff between zero and the ceiling (full jitter)", async () => {
    const { client, sleeps } = await setup([json(503, {}), json(200, TASK)], {
      random: () => 0.25,
    });
    await client.getVideoTask("vidtsk_abc");
    expect(sleeps).toEqual([125]);
  });

  it("retries a reset connection on a create with the same key", async () => {
    const { server, client } = await setup([reset, json(200, TASK)]);
    const created = await client.createVideo({ model: "m" }, { idempotencyKey: "job-reset" });
    expect(created.taskId).toBe("vidtsk_abc");
    expect(server.requests.map((r) => r.headers["x-idempotency-key"])).toEqual([
      "job-reset",
      "job-reset",
    ]);
  });

  it("does not retry a 400 and reports upstream_rejected with the upstream's message", async () => {
    const { server, client } = await setup([
      json(400, { error: { code: "bad_duration", message: "duration_sec 5 is not allowed" } }),
    ]);
    const error = await caught(client.createVideo({ model: "m" }, { idempotencyKey: "job-400" }));
    expect(server.requests).toHaveLength(1);
    expect(error.code).toBe("upstream_rejected");
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("duration_sec 5 is not allowed");
    expect(error.details?.upstreamCode).toBe("bad_duration");
  });

  it.each([
    ["error.param (OpenAI)", { error: { message: "bad", param: "duration_sec" } }, "duration_sec"],
    ["error.field", { error: { code: "x", message: "bad", field: "resolution" } }, "resolution"],
    [
      "service_task.error.path",
      { service_task: { error: { message: "bad", path: "frame_images[0]" } } },
      "frame_images[0]",
    ],
    [
      "FastAPI detail[].loc",
      { detail: [{ loc: ["body", "aspect_ratio"], msg: "bad ratio" }] },
      "aspect_ratio",
    ],
    ["no field named", { error: { message: "bad" } }, undefined],
  ])(
    "a 400 whose body names the field in %s carries it as the error's path",
    async (_, body, path) => {
      const { client } = await setup([json(400, body)]);
      const error = await caught(
        client.createVideo({ model: "m" }, { idempotencyKey: "job-path" }),
      );
      expect(error.code).toBe("upstream_rejected");
      expect(error.path).toBe(path);
    },
  );

  it.each([
    [401, "upstream_auth"],
    [403, "upstream_auth"],
    [422, "upstream_rejected"],
  ])("does not retry HTTP %i and reports %s", async (status, code) => {
    const { server, client } = await setup([json(status, { error: { message: "no" } })]);
    const error = await caught(client.getVideoTask("vidtsk_abc"));
    expect(server.requests).toHaveLength(1);
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(false);
  });

  it("reports a 404 on a task query as upstream_not_found without retrying", async () => {
    const { server, client } = await setup([json(404, { error: { message: "task not found" } })]);
    const error = await caught(client.getVideoTask("vidtsk_nope"));
    expect(server.requests).toHaveLength(1);
    expect(error.code).toBe("upstream_not_found");
    expect(error.message).toContain("task not found");
  });

  it("gives up after maxAttempts 5xx answers with a retryable upstream_unavailable", async () => {
    const { server, client, sleeps } = await setup(
      [json(503, { error: { message: "maintenance" } })],
      { maxAttempts: 3 },
    );
    const error = await caught(client.getVideoTask("vidtsk_abc"));
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(error.code).toBe("upstream_unavailable");
    expect(error.status).toBe(503);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("maintenance");
  });

  it("gives up after maxAttempts 429 answers with a retryable upstream_rate_limited", async () => {
    const { server, client } = await setup([json(429, {}, { "retry-after": "1" })], {
      maxAttempts: 2,
    });
    const error = await caught(client.createVideo({}, { idempotencyKey: "k" }));
    expect(server.requests).toHaveLength(2);
    expect(error.code).toBe("upstream_rate_limited");
    expect(error.retryable).toBe(true);
    expect(error.details?.retryAfterMs).toBe(1000);
  });

  it("times out a request that is never answered as upstream_timeout, after retrying", async () => {
    const { server, client } = await setup([hang], { timeoutMs: 150, maxAttempts: 2 });
    const error = await caught(client.getVideoTask("vidtsk_abc"));
    expect(server.requests).toHaveLength(2);
    expect(error.code).toBe("upstream_timeout");
    expect(error.retryable).toBe(true);
  });

  it("reports a connection that keeps resetting as upstream_network", async () => {
    const { client } = await setup([reset], { maxAttempts: 2 });
    const error = await caught(client.getVideoTask("vidtsk_abc"));
    expect(error.code).toBe("upstream_network");
    expect(error.retryable).toBe(true);
  });
});

describe("a query with a time limit (until)", () => {
  it("does not sleep a backoff or a Retry-After that would end after it: one 429 with Retry-After 30 fails at once", async () => {
    const { server, client, sleeps } = await setup([json(429, {}, { "retry-after": "30" })], {
      maxAttempts: 5,
    });
    const error = await caught(client.getVideoTask("vidtsk_abc", { until: Date.now() + 5_000 }));
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(error.code).toBe("upstream_rate_limited");
    expect(error.retryable).toBe(true);
  });

  it("still retries a 503 while the backoff fits before it", async () => {
    const { server, client, sleeps } = await setup([json(503, {}), json(200, TASK)], {
      backoff: { baseMs: 100, capMs: 100 },
    });
    const answer = await client.getVideoTask("vidtsk_abc", { until: Date.now() + 5_000 });
    expect(answer.state.state).toBe("running");
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([100]);
  });

  it("waits for an answer only until then, not the whole per-attempt timeout", async () => {
    const { server, client } = await setup([hang], { timeoutMs: 30_000, maxAttempts: 5 });
    const started = Date.now();
    const error = await caught(client.getVideoTask("vidtsk_abc", { until: started + 300 }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
    expect(error.code).toBe("upstream_timeout");
  });
});

describe("bad answers", () => {
  it("reports a non-JSON 2xx as upstream_bad_response", async () => {
    const { client } = await setup([raw(200, "<html>hello</html>")]);
    expect((await caught(client.getVideoTask("vidtsk_abc"))).code).toBe("upstream_bad_response");
  });

  it("reports a create 2xx without a task id as upstream_bad_response", async () => {
    const { client } = await setup([json(200, { status: "queued" })]);
    const error = await caught(client.createVideo({}, { idempotencyKey: "k" }));
    expect(error.code).toBe("upstream_bad_response");
    expect(error.message).toContain("task id");
  });

  it("reports a create 2xx carrying a business error as upstream_rejected with the upstream's message, not retried", async () => {
    const { server, client } = await setup([
      json(200, { error: { code: "insufficient_quota", message: "Your balance is too low" } }),
    ]);
    const error = await caught(client.createVideo({}, { idempotencyKey: "k" }));
    expect(server.requests).toHaveLength(1);
    expect(error.code).toBe("upstream_rejected");
    expect(error.message).toContain("Your balance is too low");
    expect(error.details?.upstreamCode).toBe("insufficient_quota");
  });

  it("reads a create answered with its task already failed (a repeat after a lost answer) as that task's failure, not a rejection", async () => {
    const failed = {
      service_task: {
        task_id: "vidtsk_abc",
        status: "failed",
        error: { code: "generation_failed", message: "Content moderation rejected the prompt" },
      },
      task_id: "vidtsk_abc",
      status: "failed",
    };
    const { client } = await setup([json(200, failed)]);
    const created = await client.createVideo({}, { idempotencyKey: "k" });
    expect(created.taskId).toBe("vidtsk_abc");
    expect(created.state).toMatchObject({
      state: "failed",
      error: { message: "Content moderation rejected the prompt" },
    });
  });

  it("still reports a business error beside a task id but no failure status as upstream_rejected", async () => {
    const { client } = await setup([
      json(200, {
        task_id: "vidtsk_abc",
        status: "queued",
        error: { code: "quota", message: "Your balance is too low" },
      }),
    ]);
    expect((await caught(client.createVideo({}, { idempotencyKey: "k" }))).code).toBe(
      "upstream_rejected",
    );
  });

  it("reads a short reason out of a non-JSON error page", async () => {
    const { client } = await setup([
      raw(400, "<html><body><h1>Bad gateway config</h1></body></html>"),
    ]);
    expect((await caught(client.getVideoTask("vidtsk_abc"))).message).toContain(
      "Bad gateway config",
    );
  });
});

describe("programming errors", () => {
  it("refuses a create without an idempotency key before sending anything", async () => {
    const { server, client } = await setup([json(200, TASK)]);
    const error = await caught(client.createVideo({}, { idempotencyKey: "" }));
    expect(error.code).toBe("missing_idempotency_key");
    const missing = await caught(
      client.createImage({}, undefined as unknown as { idempotencyKey: string }),
    );
    expect(missing.code).toBe("missing_idempotency_key");
    expect(server.requests).toHaveLength(0);
  });

  it("refuses maxAttempts 0 and an API key with a newline, without quoting the key", () => {
    expect(
      () => new UpstreamClient({ baseUrl: "http://127.0.0.1:1/v1", apiKey: KEY, maxAttempts: 0 }),
    ).toThrow(/maxAttempts/);
    let thrown: unknown;
    try {
      new UpstreamClient({ baseUrl: "http://127.0.0.1:1/v1", apiKey: `${KEY}\n` });
    } catch (error) {
      thrown = error;
    }
    expect(everythingIn(thrown as ReelayError)).not.toContain(KEY);
  });
});

describe("the API key never appears in an error", () => {
  /** An upstream that echoes the credentials it received into its error message. */
  const echo =
    (status: number): Step =>
    (req, res) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: {
            code: `bad ${req.headers.authorization}`,
            message: `invalid key ${req.headers.authorization} (${KEY})`,
          },
        }),
      );
    };

  it.each([400, 401, 403, 404, 429, 500])(
    "not when the upstream echoes it in a %i",
    async (status) => {
      const { client } = await setup([echo(status)], { maxAttempts: 2 });
      const error = await caught(client.createVideo({}, { idempotencyKey: "k" }));
      expect(everythingIn(error)).not.toContain(KEY);
      expect(error.message).toContain("[redacted]");
    },
  );

  it("nor a presigned material link the request carried, when the upstream echoes it", async () => {
    const link =
      "http://127.0.0.1:9/reelay/uploads/upl_1?X-Amz-Credential=c&X-Amz-Signature=abc123";
    const { client } = await setup([
      (_req, res) => {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: "bad_url", message: `cannot fetch ${link}` } }));
      },
    ]);
    const error = await caught(client.createVideo({}, { idempotencyKey: "k" }));
    expect(everythingIn(error)).not.toContain("X-Amz-Signature");
    expect(error.message).toContain("http://127.0.0.1:9/reelay/uploads/upl_1");
  });

  it("not when the upstream echoes it in a 2xx business error", async () => {
    const { client } = await setup([echo(200)]);
    expect(
      everythingIn(await caught(client.createVideo({}, { idempotencyKey: "k" }))),
    ).not.toContain(KEY);
  });

  it("not in a network error or its cause chain", async () => {
    const { client } = await setup([reset], { maxAttempts: 1 });
    const error = await caught(client.getVideoTask("vidtsk_abc"));
    expect(error.cause).toBeDefined();
    expect(everythingIn(error)).not.toContain(KEY);
  });

  it("not in a timeout", async () => {
    const { client } = await setup([hang], { timeoutMs: 100, maxAttempts: 1 });
    expect(everythingIn(await caught(client.getVideoTask("vidtsk_abc")))).not.toContain(KEY);
  });

  it("not when an injected fetch throws an error that quotes it", async () => {
    const { client } = await setup([json(200, TASK)], {
      maxAttempts: 1,
      fetch: async () => {
        throw new TypeError("fetch failed", {
          cause: new Error(`header Authorization: Bearer ${KEY} rejected`),
        });
      },
    });
    const error = await caught(client.getVideoTask("vidtsk_abc"));
    expect(error.code).toBe("upstream_network");
    expect(everythingIn(error)).not.toContain(KEY);
  });
});

describe("metrics", () => {
  it("counts every request, retries included, and every 429, by operation (create, get, models)", async () => {
    const metrics = recordingMetrics();
    const { client } = await setup(
      [
        json(429, { error: { message: "slow down" } }, { "retry-after": "0" }),
        json(200, TASK),
        json(429, { error: { message: "slow down" } }, { "retry-after": "0" }),
        json(503, { error: { message: "busy" } }),
        json(200, TASK),
        json(200, { data: [{ id: "os-2" }] }),
      ],
      { metrics },
    );
    await client.createVideo({ model: "os-2", prompt: "p" }, { idempotencyKey: "k1" });
    await client.getVideoTask("vidtsk_abc");
    await client.listModels();
    const count = (name: string, operation: string) => metrics.total(name, { operation });
    expect({
      create: count("reelay_upstream_requests_total", "create"),
      get: count("reelay_upstream_requests_total", "get"),
      models: count("reelay_upstream_requests_total", "models"),
      create429: count("reelay_upstream_429_total", "create"),
      get429: count("reelay_upstream_429_total", "get"),
    }).toEqual({ create: 2, get: 3, models: 1, create429: 1, get429: 1 });
  });

  it("adds its account label to every count, and counts 5xx answers and requests with no answer as errors", async () => {
    const metrics = recordingMetrics();
    const { client } = await setup(
      [
        json(429, { error: { message: "slow down" } }, { "retry-after": "0" }),
        json(503, { error: { message: "busy" } }),
        json(200, TASK),
      ],
      { metrics, labels: { account: "alpha" } },
    );
    await client.createVideo({ model: "os-2", prompt: "p" }, { idempotencyKey: "k1" });
    expect(metrics.recorded.map((r) => [r.name, r.labels])).toEqual([
      ["reelay_upstream_requests_total", { operation: "create", account: "alpha" }],
      ["reelay_upstream_429_total", { operation: "create", account: "alpha" }],
      ["reelay_upstream_requests_total", { operation: "create", account: "alpha" }],
      ["reelay_upstream_errors_total", { operation: "create", account: "alpha" }],
      ["reelay_upstream_requests_total", { operation: "create", account: "alpha" }],
    ]);
    const refused = new UpstreamClient({
      baseUrl: "http://127.0.0.1:1/v1",
      apiKey: KEY,
      maxAttempts: 1,
      metrics,
      labels: { account: "beta" },
    });
    await caught(refused.getVideoTask("vidtsk_abc"));
    expect(
      metrics.total("reelay_upstream_errors_total", { account: "beta", operation: "get" }),
    ).toBe(1);
  });
});
