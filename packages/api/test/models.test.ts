import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamClient } from "@reelay/core/adapters";
import { startSimulator } from "@reelay/simulator";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { ModelListSchema, type ModelItem } from "../src/openapi/responses.ts";
import { harness } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

async function list(h: Awaited<ReturnType<typeof harness>>, query = "") {
  const response = await h.get(`/v1/models${query}`);
  expect(response.status).toBe(200);
  return ModelListSchema.parse(await response.json());
}

const byId = (items: ModelItem[], id: string) => items.find((item) => item.id === id);

describe("GET /v1/models", () => {
  it("without an upstream listing answers the catalog alone, with the model's ranges and a warning", async () => {
    const h = await harness(aws);
    const body = await list(h);
    expect(body.object).toBe("list");
    expect(body.data.every((item) => item.source === "catalog")).toBe(true);
    expect(body.warnings.map((w) => w.code)).toEqual(["upstream_models_unavailable"]);
    expect(byId(body.data, "gamma-3.1")).toMatchObject({
      object: "model",
      family: "gamma",
      modality: "video",
      resolutions: ["720p", "1080p", "4k"],
      durations: [4, 6, 8],
      aspect_ratios: ["16:9", "9:16"],
      audio_default: false,
      config_keys: [],
    });
    expect(byId(body.data, "kappa-omni-flash-preview")).toMatchObject({
      durations: [3, 4, 5, 6, 7, 8, 9, 10],
      audio_default: true,
    });
    expect(byId(body.data, "deltaq2-image")).toMatchObject({
      modality: "image",
      resolutions: ["1080p", "2K", "4K"],
      durations: null,
      config_keys: ["seed"],
    });
  });

  it("modality=image lists only image models and modality=video only video models", async () => {
    const h = await harness(aws);
    const images = await list(h, "?modality=image");
    expect(images.data.map((item) => item.id)).toEqual(["deltaq2-image"]);
    const videos = await list(h, "?modality=video");
    expect(videos.data.length).toBeGreaterThan(20);
    expect(videos.data.every((item) => item.modality === "video")).toBe(true);
  });

  it("a modality other than video or image is 400 invalid_query at path modality", async () => {
    const h = await harness(aws);
    const response = await h.get("/v1/models?modality=audio");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: unknown }).error).toMatchObject({
      code: "invalid_query",
      path: "modality",
    });
  });

  it("merges a real upstream's listing: shared codes are both, a prefix family's code gets its rules, unknown codes are upstream with no ranges", async () => {
    const apiKey = "sim-key";
    const simulator = await startSimulator({
      apiKey,
      models: [
        { id: "gamma-3.1", modality: "video" },
        { id: "lambda-2.0", modality: "video" },
        { id: "newmodel-1", modality: "video" },
        { id: "deltaq2-image", modality: "image" },
      ],
    });
    try {
      const client = new UpstreamClient({ baseUrl: simulator.url, apiKey });
      const h = await harness(aws, { upstreamModels: (modality) => client.listModels(modality) });
      const body = await list(h, "?modality=video");
      expect(body.warnings).toEqual([]);
      expect(byId(body.data, "gamma-3.1")?.source).toBe("both");
      expect(byId(body.data, "gamma-3.1-lite")?.source).toBe("catalog");
      expect(byId(body.data, "lambda-2.0")).toMatchObject({
        family: "lambda",
        match: "exact",
        source: "both",
      });
      expect(byId(body.data, "newmodel-1")).toEqual({
        id: "newmodel-1",
        object: "model",
        family: null,
        modality: "video",
        match: "exact",
        modes: null,
        resolutions: null,
        durations: null,
        aspect_ratios: null,
        audio_default: null,
        config_keys: null,
        source: "upstream",
        aliases: [],
        deprecated_at: null,
        sunset_at: null,
        successor: null,
      });
      expect(byId(body.data, "deltaq2-image")).toBeUndefined();
    } finally {
      await simulator.close();
    }
  });

  it("an upstream that is down leaves the catalog with a warning, not an error", async () => {
    const simulator = await startSimulator({ apiKey: "k" });
    const url = simulator.url;
    await simulator.close();
    const client = new UpstreamClient({ baseUrl: url, apiKey: "k", maxAttempts: 1 });
    const h = await harness(aws, { upstreamModels: (modality) => client.listModels(modality) });
    const body = await list(h);
    expect(body.data.length).toBeGreaterThan(20);
    expect(body.data.every((item) => item.source === "catalog")).toBe(true);
    expect(body.warnings[0]?.code).toBe("upstream_models_unavailable");
  });

  it("an upstream listing that never answers is cut off by upstreamModelsTimeoutMs and the catalog is answered", async () => {
    const h = await harness(aws, {
      upstreamModels: () => new Promise(() => undefined),
      upstreamModelsTimeoutMs: 50,
    });
    const body = await list(h);
    expect(body.data.length).toBeGreaterThan(20);
    expect(body.warnings[0]?.message).toContain("50 ms");
  });

  it("needs the Bearer key", async () => {
    const h = await harness(aws);
    expect((await h.app.request("/v1/models")).status).toBe(401);
  });
});
