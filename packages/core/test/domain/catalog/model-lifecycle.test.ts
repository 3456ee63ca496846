import { describe, expect, it } from "vitest";
import {
  createCatalog,
  lifecycleState,
  parseCatalogFile,
} from "../../../src/domain/catalog/catalog.ts";
import { ReelayError } from "../../../src/domain/errors.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { loadConfig } from "../../../src/wiring/config.ts";

const LIFECYCLE = {
  "gamma-3.1-lite": {
    deprecated_at: "2027-01-01T00:00:00Z",
    sunset_at: "2027-03-01T00:00:00Z",
    successor: "gamma-3.1",
  },
};
const BEFORE = new Date("2026-12-01T00:00:00Z");
const DEPRECATED = new Date("2027-02-01T00:00:00Z");
const SUNSET = new Date("2027-03-01T00:00:00Z");
const lite = { model: "gamma-3.1-lite", prompt: "a paper boat", duration_sec: 8 };

function refusal(run: () => unknown): ReelayError {
  try {
    run();
  } catch (error) {
    if (error instanceof ReelayError) return error;
    throw error;
  }
  throw new Error("expected a ReelayError");
}

describe("model aliases", () => {
  it("a built-in alias resolves to its model: gamma-latest is gamma-3.1", () => {
    const catalog = createCatalog();
    expect(catalog.aliases()["gamma-latest"]).toBe("gamma-3.1");
    expect(catalog.resolve("gamma-latest", BEFORE)).toMatchObject({
      requested: "gamma-latest",
      model: "gamma-3.1",
      state: "active",
    });
    expect(catalog.resolve("gamma-3.1", BEFORE)?.model).toBe("gamma-3.1");
    expect(catalog.resolve("no-such-model", BEFORE)).toBeUndefined();
  });

  it("an operator alias adds a name and overrides a built-in one", () => {
    const catalog = createCatalog([], {
      aliases: { house: "os-2", "gamma-latest": "gamma-3.1-fast" },
      lifecycle: {},
    });
    expect(catalog.resolve("house", BEFORE)?.model).toBe("os-2");
    expect(catalog.resolve("gamma-latest", BEFORE)?.model).toBe("gamma-3.1-fast");
  });

  it("validate() runs the alias's model and records the name asked for", () => {
    const result = validate({ ...lite, model: "gamma-latest" });
    expect(result.valid).toBe(true);
    expect(result.model).toBe("gamma-3.1");
    expect(result.requestedModel).toBe("gamma-latest");
    expect(result.normalized?.model).toBe("gamma-3.1");
    expect(validate(lite).requestedModel).toBeUndefined();
  });

  it("an alias to an unknown model is invalid_config at start, naming the alias", () => {
    const error = refusal(() =>
      loadConfig({ REELAY_MODEL_ALIASES: JSON.stringify({ "my-latest": "gamma-9" }) }),
    );
    expect(error.code).toBe("invalid_config");
    expect(error.path).toBe("REELAY_MODEL_ALIASES.my-latest");
    expect(error.message).toContain('"gamma-9", which is not a model in the catalog');
  });

  it("an alias that is also a model code is invalid_config at start", () => {
    const error = refusal(() =>
      loadConfig({ REELAY_MODEL_ALIASES: JSON.stringify({ "gamma-3.1": "gamma-3.1-fast" }) }),
    );
    expect(error).toMatchObject({ code: "invalid_config", path: "REELAY_MODEL_ALIASES.gamma-3.1" });
    expect(error.message).toContain("may not hide a model");
  });

  it("REELAY_MODEL_ALIASES that is not an object of names is invalid_config naming the variable", () => {
    expect(refusal(() => loadConfig({ REELAY_MODEL_ALIASES: "{not json" }))).toMatchObject({
      code: "invalid_config",
      path: "REELAY_MODEL_ALIASES",
    });
    expect(
      refusal(() => loadConfig({ REELAY_MODEL_ALIASES: JSON.stringify({ a: 3 }) })),
    ).toMatchObject({ code: "invalid_config", path: "REELAY_MODEL_ALIASES.a" });
  });

  it("valid settings are kept on the config", () => {
    const config = loadConfig({
      REELAY_MODEL_ALIASES: JSON.stringify({ house: "os-2" }),
      REELAY_MODEL_LIFECYCLE: JSON.stringify(LIFECYCLE),
    });
    expect(config.models).toEqual({ aliases: { house: "os-2" }, lifecycle: LIFECYCLE });
    expect(loadConfig({}).models).toEqual({ aliases: {}, lifecycle: {} });
  });
});

describe("model lifecycle", () => {
  const catalog = createCatalog([], { aliases: {}, lifecycle: LIFECYCLE });

  it("is active before deprecated_at, deprecated until sunset_at, sunset from it on", () => {
    expect(catalog.resolve("gamma-3.1-lite", BEFORE)?.state).toBe("deprecated");
    expect(lifecycleState({ deprecated_at: "2027-01-01" }, BEFORE)).toBe("active");
    expect(catalog.resolve("gamma-3.1-lite", DEPRECATED)?.state).toBe("deprecated");
    expect(catalog.resolve("gamma-3.1-lite", SUNSET)?.state).toBe("sunset");
    expect(catalog.resolve("gamma-3.1", SUNSET)?.state).toBe("active");
  });

  it("a deprecated model validates with a model_deprecated warning naming the dates and successor", () => {
    const result = validate(lite, { catalog, now: DEPRECATED });
    expect(result.valid).toBe(true);
    expect(result.deprecation).toMatchObject({
      model: "gamma-3.1-lite",
      ...LIFECYCLE["gamma-3.1-lite"],
    });
    const warning = result.warnings.find((w) => w.code === "model_deprecated");
    expect(warning?.path).toBe("model");
    expect(warning?.message).toBe(
      "gamma-3.1-lite is deprecated since 2027-01-01; it takes no new jobs from 2027-03-01; move to gamma-3.1.",
    );
  });

  it("past sunset_at the request is refused model_sunset at path model, naming the successor", () => {
    const result = validate(lite, { catalog, now: SUNSET });
    expect(result.valid).toBe(false);
    expect(result.errors[0]).toEqual({
      path: "model",
      code: "model_sunset",
      message:
        "gamma-3.1-lite was sunset on 2027-03-01 and takes no new jobs; use its successor gamma-3.1.",
    });
  });

  it("with onSunset successor the successor runs, the name asked for kept, and a model_substituted warning", () => {
    const result = validate(lite, { catalog, now: SUNSET, onSunset: "successor" });
    expect(result.valid).toBe(true);
    expect(result.model).toBe("gamma-3.1");
    expect(result.requestedModel).toBe("gamma-3.1-lite");
    expect(result.warnings.map((w) => w.code)).toContain("model_substituted");
  });

  it("a sunset model without a successor is refused even where the key opted in", () => {
    const alone = createCatalog([], {
      aliases: {},
      lifecycle: { "os-2": { sunset_at: "2027-01-01" } },
    });
    const result = validate(
      { model: "os-2", prompt: "x", duration_sec: 4 },
      { catalog: alone, now: SUNSET, onSunset: "successor" },
    );
    expect(result.errors[0]?.code).toBe("model_sunset");
    expect(result.errors[0]?.message).toContain("no successor is named");
  });

  it("bad lifecycles are invalid_config naming the model: unknown model, unknown successor, sunset before deprecation, not a date", () => {
    const bad = (lifecycle: unknown) =>
      refusal(() => loadConfig({ REELAY_MODEL_LIFECYCLE: JSON.stringify(lifecycle) }));
    expect(bad({ "gamma-9": {} })).toMatchObject({
      code: "invalid_config",
      path: "REELAY_MODEL_LIFECYCLE.gamma-9",
    });
    expect(bad({ "os-2": { successor: "os-9" } }).path).toBe("REELAY_MODEL_LIFECYCLE.os-2");
    expect(
      bad({ "os-2": { deprecated_at: "2027-02-01", sunset_at: "2027-01-01" } }).message,
    ).toContain("sunset_at is before its deprecated_at");
    expect(bad({ "os-2": { sunset_at: "soon" } }).path).toBe(
      "REELAY_MODEL_LIFECYCLE.os-2.sunset_at",
    );
  });

  it("a catalog file's model may carry deprecated_at, sunset_at and successor", () => {
    const [spec] = parseCatalogFile({
      models: [
        {
          code: "house-1",
          family: "house",
          kind: "video",
          modes: { text: "allowed" },
          deprecated_at: "2027-01-01",
          successor: "gamma-3.1",
        },
      ],
    });
    const withFile = createCatalog(spec === undefined ? [] : [spec]);
    expect(withFile.resolve("house-1", DEPRECATED)).toMatchObject({
      state: "deprecated",
      lifecycle: { deprecated_at: "2027-01-01", successor: "gamma-3.1" },
    });
  });
});
