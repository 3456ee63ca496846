/**
 * Model aliases and lifecycle through the API: an alias create records both names, a deprecated
 * model's create carries the Deprecation and Sunset headers and a warning (and is counted), a model
 * past its sunset is refused model_sunset naming its successor unless the key opted in, and GET
 * /v1/models shows the aliases and dates. The clock is the deps' own, fixed per test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { recordingMetrics } from "../../core/test/support/recording-metrics.ts";
import { createApp } from "../src/app.ts";
import { ModelListSchema } from "../src/openapi/responses.ts";
import { API_KEY, freshTable, RecordingStarter, testApiDeps } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

const ENV = {
  REELAY_MODEL_ALIASES: JSON.stringify({ "house-video": "os-2" }),
  REELAY_MODEL_LIFECYCLE: JSON.stringify({
    "gamma-3.1-lite": {
      deprecated_at: "2027-01-01T00:00:00Z",
      sunset_at: "2027-03-01T00:00:00Z",
      successor: "gamma-3.1",
    },
  }),
};
const DEPRECATED = new Date("2027-02-01T00:00:00Z");
const SUNSET = new Date("2027-03-02T00:00:00Z");
const LITE = { model: "gamma-3.1-lite", prompt: "a paper boat in the rain", duration_sec: 8 };

type Json = Record<string, any>;

async function stack(now: Date) {
  const tableName = await freshTable(aws, "models");
  const starter = new RecordingStarter();
  const metrics = recordingMetrics();
  const { deps } = testApiDeps(aws, { tableName, env: ENV, now: () => now }, { starter, metrics });
  const app = createApp(deps);
  const call = async (method: string, path: string, body?: unknown, key = API_KEY) => {
    const response = await app.request(path, {
      method,
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { response, body: (await response.json()) as Json };
  };
  const create = (body: unknown, key?: string) => call("POST", "/v1/video/generations", body, key);
  return { call, create, starter, metrics };
}

describe("model aliases and lifecycle", () => {
  it("a create by alias runs its model and records both names on the answer, the job and its view", async () => {
    const s = await stack(DEPRECATED);
    const { response, body } = await s.create({ ...LITE, model: "gamma-latest" });
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ model: "gamma-3.1", requested_model: "gamma-latest" });
    expect(s.starter.started[0]).toMatchObject({
      model: "gamma-3.1",
      requestedModel: "gamma-latest",
      request: { model: "gamma-3.1" },
    });
    const view = await s.call("GET", `/v1/jobs/${body.task_id}`);
    expect(view.body).toMatchObject({ model: "gamma-3.1", requested_model: "gamma-latest" });
    const house = await s.create({ model: "house-video", prompt: "x", duration_sec: 4 });
    expect(house.body).toMatchObject({ model: "os-2", requested_model: "house-video" });
  });

  it("a create on a model asked for by its own code shows it as requested_model too, with no lifecycle headers", async () => {
    const s = await stack(DEPRECATED);
    const { response, body } = await s.create({ ...LITE, model: "gamma-3.1" });
    expect(body.requested_model).toBe("gamma-3.1");
    expect(s.starter.started[0]?.requestedModel).toBeUndefined();
    expect(response.headers.get("Deprecation")).toBeNull();
    expect(response.headers.get("Sunset")).toBeNull();
  });

  it("a deprecated model's create carries Deprecation and Sunset headers, a model_deprecated warning, and is counted", async () => {
    const s = await stack(DEPRECATED);
    const { response, body } = await s.create(LITE);
    expect(response.status).toBe(200);
    expect(response.headers.get("Deprecation")).toBe(
      `@${Date.parse("2027-01-01T00:00:00Z") / 1000}`,
    );
    expect(response.headers.get("Sunset")).toBe("Mon, 01 Mar 2027 00:00:00 GMT");
    expect(body.warnings).toContainEqual(
      expect.objectContaining({ code: "model_deprecated", path: "model" }),
    );
    const view = await s.call("GET", `/v1/jobs/${body.task_id}`);
    expect(view.body.warnings.map((w: Json) => w.code)).toContain("model_deprecated");
    expect(
      s.metrics.total("reelay_jobs_on_deprecated_models_total", { model: "gamma-3.1-lite" }),
    ).toBe(1);
    await s.create({ ...LITE, model: "gamma-3.1" });
    expect(s.metrics.total("reelay_jobs_on_deprecated_models_total")).toBe(1);
  });

  it("past sunset_at a create is 400 model_sunset at path model, naming the successor, and nothing is made", async () => {
    const s = await stack(SUNSET);
    const { response, body } = await s.create(LITE);
    expect(response.status).toBe(400);
    expect(body.error).toMatchObject({ code: "model_sunset", path: "model" });
    expect(body.error.message).toContain("use its successor gamma-3.1");
    expect(s.starter.started).toEqual([]);
  });

  it("a key made with on_sunset successor runs the successor past sunset_at, and the job says so", async () => {
    const s = await stack(SUNSET);
    const made = await s.call("POST", "/v1/keys", { name: "opted", on_sunset: "successor" });
    expect(made.response.status).toBe(201);
    expect(made.body.on_sunset).toBe("successor");
    const { response, body } = await s.create(LITE, made.body.key);
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ model: "gamma-3.1", requested_model: "gamma-3.1-lite" });
    expect(body.warnings).toContainEqual(
      expect.objectContaining({ code: "model_substituted", path: "model" }),
    );
    expect(response.headers.get("Sunset")).toBe("Mon, 01 Mar 2027 00:00:00 GMT");
    const bad = await s.call("POST", "/v1/keys", { name: "x", on_sunset: "maybe" });
    expect(bad.response.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_request", path: "on_sunset" });
  });

  it("a batch dry run rejects a line on a sunset model with model_sunset and takes a line by alias", async () => {
    const s = await stack(SUNSET);
    const { body } = await s.call("POST", "/v1/batches?dry_run=true", {
      requests: [LITE, { ...LITE, model: "gamma-latest" }],
    });
    expect(body).toMatchObject({ total: 2, valid: 1 });
    expect(body.rejected).toHaveLength(1);
    expect(body.rejected[0].errors[0]).toMatchObject({ code: "model_sunset", path: "model" });
  });

  it("GET /v1/models shows the aliases and each model's dates and successor", async () => {
    const s = await stack(DEPRECATED);
    const { response, body } = await s.call("GET", "/v1/models?modality=video");
    expect(response.status).toBe(200);
    const list = ModelListSchema.parse(body);
    expect(list.aliases).toMatchObject({ "gamma-latest": "gamma-3.1", "house-video": "os-2" });
    const byId = new Map(list.data.map((item) => [item.id, item]));
    expect(byId.get("gamma-3.1")?.aliases).toEqual(["gamma-latest"]);
    expect(byId.get("os-2")?.aliases).toEqual(["house-video"]);
    expect(byId.get("gamma-3.1-lite")).toMatchObject({
      deprecated_at: "2027-01-01T00:00:00Z",
      sunset_at: "2027-03-01T00:00:00Z",
      successor: "gamma-3.1",
    });
    expect(byId.get("gamma-3.1")).toMatchObject({
      deprecated_at: null,
      sunset_at: null,
      successor: null,
    });
  });
});
