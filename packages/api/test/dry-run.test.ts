/**
 * `?dry_run=true` on the contract's single creates: the create's checks, reelay's own answer (the
 * request as it would be sent, its adjustments, warnings and estimate), and nothing made: no job,
 * no idempotency record, nothing started upstream (the recording starter stands where the
 * simulator's tasks would be made).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { solidPng } from "../../simulator/src/png.ts";
import { createApp } from "../src/app.ts";
import { DryRunSchema } from "../src/openapi/dry-run.ts";
import {
  API_KEY,
  auth,
  freshTable,
  harness,
  json,
  RecordingStarter,
  testApiDeps,
  VALID,
  type Harness,
} from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

type Json = Record<string, any>;

const FIVE_ON_OS2 = { model: "os-2", prompt: "a lighthouse at dusk", duration_sec: 5 };
const IMAGE = {
  model: "deltaq2-image",
  messages: [{ role: "user", content: "a lighthouse at dusk" }],
  modalities: ["image", "text"],
  image_config: { aspect_ratio: "16:9" },
};

async function post(
  h: Harness,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await h.app.request(path, {
    method: "POST",
    headers: { ...json, ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Json,
  };
}

/** An edit of one image with `fields` more, as a dry run. */
async function dryRunEdit(h: Harness, fields: [string, string][] = []): Promise<Response> {
  const form = new FormData();
  form.append("image[]", new Blob([new Uint8Array(solidPng("a"))], { type: "image/png" }));
  form.append("prompt", "make the sky purple");
  for (const [name, value] of fields) form.append(name, value);
  return h.app.request("/v1/images/edits?dry_run=true", {
    method: "POST",
    headers: auth,
    body: form,
  });
}

/** Nothing was made: no job listed, nothing started. */
async function expectNothingMade(h: Harness): Promise<void> {
  const list = (await (await h.get("/v1/jobs")).json()) as Json;
  expect(list.data).toEqual([]);
  expect(h.starter.started).toEqual([]);
}

describe("?dry_run=true on POST /v1/video/generations", () => {
  it("with fit answers the fitted request and its adjustments (the documented CreateDryRun), and makes nothing", async () => {
    const h = await harness(aws);
    const answer = await post(h, "/v1/video/generations?dry_run=true", FIVE_ON_OS2, {
      "X-Reelay-Fit": "nearest",
      "X-Idempotency-Key": "dry-1",
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      dry_run: true,
      valid: true,
      model: "os-2",
      requested_model: "os-2",
      adjustments: [{ path: "duration_sec", from: 5, to: 4 }],
      warnings: [],
      estimate: { usage: { unit: "video_second", quantity: 4 } },
    });
    expect(answer.body.request).toMatchObject({ model: "os-2", duration_sec: 4 });
    expect(answer.body.task_id).toBeUndefined();
    expect(DryRunSchema.safeParse(answer.body).success).toBe(true);
    await expectNothingMade(h);
    // The idempotency key was not spent: a create with it now makes its job.
    const created = await post(h, "/v1/video/generations", FIVE_ON_OS2, {
      "X-Reelay-Fit": "nearest",
      "X-Idempotency-Key": "dry-1",
    });
    expect(created.status).toBe(200);
    expect(h.starter.started).toHaveLength(1);
  });

  it("an invalid request is the same 400 the create answers, nothing made", async () => {
    const h = await harness(aws);
    const dry = await post(h, "/v1/video/generations?dry_run=true", FIVE_ON_OS2);
    const create = await post(h, "/v1/video/generations", FIVE_ON_OS2);
    expect(dry.status).toBe(400);
    expect(dry.body).toEqual(create.body);
    expect(dry.body.error).toMatchObject({ code: "invalid_request", path: "duration_sec" });
    await expectNothingMade(h);
  });

  it("a bad option is the create's 400 too (X-Reelay-Fit closest: invalid_fit)", async () => {
    const h = await harness(aws);
    const dry = await post(h, "/v1/video/generations?dry_run=true", VALID, {
      "X-Reelay-Fit": "closest",
    });
    expect(dry.status).toBe(400);
    expect(dry.body.error).toMatchObject({ code: "invalid_fit", path: "X-Reelay-Fit" });
  });

  it("dry_run other than true or false is 400 invalid_query naming dry_run, nothing made", async () => {
    const h = await harness(aws);
    const answer = await post(h, "/v1/video/generations?dry_run=yes", VALID);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "invalid_query", path: "dry_run" });
    await expectNothingMade(h);
  });

  it("dry_run=false creates as without it", async () => {
    const h = await harness(aws);
    const answer = await post(h, "/v1/video/generations?dry_run=false", VALID);
    expect(answer.status).toBe(200);
    expect(answer.body.task_id).toMatch(/^vidtsk_/);
    expect(h.starter.started).toHaveLength(1);
  });

  it("a deprecated model's dry run carries the create's Deprecation and Sunset headers and warning", async () => {
    const tableName = await freshTable(aws, "dryrun");
    const starter = new RecordingStarter();
    const env = {
      REELAY_MODEL_LIFECYCLE: JSON.stringify({
        "gamma-3.1-lite": {
          deprecated_at: "2027-01-01T00:00:00Z",
          sunset_at: "2027-03-01T00:00:00Z",
          successor: "gamma-3.1",
        },
      }),
    };
    const now = new Date("2027-02-01T00:00:00Z");
    const { deps } = testApiDeps(aws, { tableName, env, now: () => now }, { starter });
    const response = await createApp(deps).request("/v1/video/generations?dry_run=true", {
      method: "POST",
      headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ ...VALID, model: "gamma-3.1-lite" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Deprecation")).toBe(
      `@${Date.parse("2027-01-01T00:00:00Z") / 1000}`,
    );
    expect(response.headers.get("Sunset")).toBe("Mon, 01 Mar 2027 00:00:00 GMT");
    const body = (await response.json()) as Json;
    expect(body.warnings.map((w: Json) => w.code)).toContain("model_deprecated");
    expect(starter.started).toEqual([]);
  });
});

describe("?dry_run=true on the image creates", () => {
  it("POST /v1/chat/completions answers the image request as it would be sent, nothing made", async () => {
    const h = await harness(aws);
    const answer = await post(h, "/v1/chat/completions?dry_run=true", IMAGE);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ dry_run: true, valid: true, model: "deltaq2-image" });
    expect(answer.body.request).toMatchObject({ model: "deltaq2-image" });
    expect(answer.body.estimate.usage).toMatchObject({ unit: "image" });
    await expectNothingMade(h);
  });

  it("POST /v1/chat/completions refuses a video request as its create does", async () => {
    const h = await harness(aws);
    const answer = await post(h, "/v1/chat/completions?dry_run=true", VALID);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "wrong_endpoint" });
  });

  it("POST /v1/images/edits names the images by their bare names, and makes nothing", async () => {
    const h = await harness(aws);
    const response = await dryRunEdit(h);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body).toMatchObject({ dry_run: true, model: "deltaq2-image" });
    const [reference] = body.request.image_config.reference_images as Json[];
    expect(reference?.url).toMatch(/^ref-1-[0-9a-f]{16}\.png$/);
    await expectNothingMade(h);
  });

  it("POST /v1/images/edits with a bad response_format is the create's 400", async () => {
    const h = await harness(aws);
    const response = await dryRunEdit(h, [["response_format", "b64_json"]]);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as Json;
    expect(error).toMatchObject({ code: "unsupported_response_format", path: "response_format" });
  });
});
