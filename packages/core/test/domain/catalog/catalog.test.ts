import { describe, expect, it } from "vitest";
import {
  createCatalog,
  defaultCatalog,
  loadCatalog,
  parseCatalogFile,
} from "../../../src/domain/catalog/index.ts";
import { ReelayError } from "../../../src/domain/errors.ts";

/** Every model code written in §4.8 and §2.6 of the contract. */
export const CONTRACT_CODES = [
  "alpha-2.7",
  "alpha-2.6",
  "alpha-2.6-flash",
  "alpha-2.7-videoedit",
  "beta-2.0-os",
  "beta-2.0-overseas-hc-os",
  "beta-2.0-fast-hc-os",
  "beta-2.0-mini-overseas-hc-os",
  "gamma-3.1",
  "gamma-3.1-fast",
  "gamma-3.1-lite",
  "deltaq2",
  "deltaq2-pro",
  "deltaq2-turbo",
  "deltaq3",
  "deltaq3-pro",
  "deltaq3-turbo",
  "deltaq3-pro-fast",
  "deltaq3-mix",
  "epsilon-2.3",
  "epsilon-2.3-fast",
  "epsilonnew-1",
  "zeta-1.1",
  "zeta-1.0",
  "etanew-v6.0",
  "etanew-c1",
  "etanew-v5.6",
  "theta-3.0-pro",
  "kappa-omni-flash-preview",
  "os-2",
  "deltaq2-image",
];

const minimalVideo = {
  code: "acme-1",
  family: "acme",
  kind: "video",
  modes: { text: "allowed" },
  durations: [{ values: [3], strength: "hard" }],
};

describe("model catalog", () => {
  it.each(CONTRACT_CODES)("§4.8: model code %s resolves to its own entry", (code) => {
    expect(defaultCatalog.get(code)?.code).toBe(code);
  });

  it("§4.8: the catalog holds exactly the contract's codes plus the lambda- and mu- family entries", () => {
    expect(
      defaultCatalog
        .list()
        .map((spec) => spec.code)
        .sort(),
    ).toEqual([...CONTRACT_CODES, "lambda-", "mu-"].sort());
  });

  it("§4.8 lambda and mu: codes resolve by family prefix (lambda-1.0, mu-2)", () => {
    expect(defaultCatalog.get("lambda-1.0")).toMatchObject({ family: "lambda", match: "prefix" });
    expect(defaultCatalog.get("mu-2")).toMatchObject({ family: "mu", match: "prefix" });
    expect(defaultCatalog.get("lambda-")).toBeUndefined();
    expect(defaultCatalog.get("lambdax")).toBeUndefined();
  });

  it("list(kind) separates video from image models", () => {
    expect(defaultCatalog.list("image").map((spec) => spec.code)).toEqual(["deltaq2-image"]);
    expect(defaultCatalog.list("video").every((spec) => spec.kind === "video")).toBe(true);
  });

  it("closeMatches suggests gamma-3.1 for the typo gama-3.1 and family members for a bare prefix", () => {
    expect(defaultCatalog.closeMatches("gama-3.1")[0]).toBe("gamma-3.1");
    expect(defaultCatalog.closeMatches("zeta-1.2")).toContain("zeta-1.1");
    expect(defaultCatalog.closeMatches("deltaq3-p")).toContain("deltaq3-pro");
    expect(defaultCatalog.closeMatches("completely-different-thing")).toEqual([]);
  });

  it("a user catalog file adds a model and overrides a built-in one", () => {
    const file = JSON.stringify({
      models: [
        minimalVideo,
        {
          code: "os-2",
          family: "os",
          kind: "video",
          modes: { text: "allowed" },
          durations: [{ values: [6], strength: "hard" }],
        },
      ],
    });
    const catalog = loadCatalog([file]);
    expect(catalog.get("acme-1")).toMatchObject({
      family: "acme",
      audio: { default: false },
      config: {},
    });
    expect(catalog.get("os-2")?.kind === "video" && catalog.get("os-2")).toMatchObject({
      durations: [{ values: [6] }],
    });
    expect(catalog.get("gamma-3.1")?.code).toBe("gamma-3.1");
    expect(defaultCatalog.get("acme-1")).toBeUndefined();
  });

  it("createCatalog takes parsed specs; a later entry with the same code wins", () => {
    const specs = parseCatalogFile({
      models: [minimalVideo, { ...minimalVideo, family: "acme2" }],
    });
    expect(createCatalog(specs).get("acme-1")?.family).toBe("acme2");
  });

  it("a bad user catalog file gives a ReelayError catalog_invalid with the path of the bad field", () => {
    const bad = {
      models: [minimalVideo, { ...minimalVideo, durations: [{ values: [3], strength: "firm" }] }],
    };
    try {
      loadCatalog([bad]);
      expect.unreachable("loadCatalog accepted a bad file");
    } catch (error) {
      expect(error).toBeInstanceOf(ReelayError);
      expect((error as ReelayError).code).toBe("catalog_invalid");
      expect((error as ReelayError).path).toBe("models[1].durations[0].strength");
      expect((error as ReelayError).message).toContain("models[1].durations[0].strength");
    }
  });

  it("a user catalog file with an unknown field or invalid JSON is refused", () => {
    expect(() => parseCatalogFile({ models: [{ ...minimalVideo, colour: "red" }] })).toThrow(
      /models\[0\]/,
    );
    expect(() => parseCatalogFile("{ not json")).toThrow(ReelayError);
    expect(() => parseCatalogFile({ models: [{ ...minimalVideo, kind: "audio" }] })).toThrow(
      ReelayError,
    );
  });
});
