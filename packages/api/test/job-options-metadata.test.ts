import { describe, expect, it } from "vitest";
import { checkMetadata, type Metadata, mergedMetadata } from "@reelay/core/domain";
import { readBatchOptions, readHeaderOptions } from "../src/job-options.ts";
import { checkLines, parseBatchBody } from "../src/batch-body.ts";
import { CTX, headers } from "./support/options-context.ts";

const NONE = headers({});
const body = (form: Record<string, unknown>) => readBatchOptions(CTX, form, NONE);
const header = (text: string) => readHeaderOptions(CTX, headers({ "X-Reelay-Metadata": text }));

/** `count` pairs k1..kN. */
function pairs(count: number): Metadata {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i + 1}`, `v${i + 1}`]));
}

describe("metadata in the body and in X-Reelay-Metadata", () => {
  it("reads up to 16 string pairs, a 40-character key and a 500-character value, as given", async () => {
    const given = { ...pairs(14), ["k".repeat(40)]: "v".repeat(500), emoji: "ünïcode ✓" };
    expect(await body({ metadata: given })).toEqual({ metadata: given });
    expect(await header(JSON.stringify(given))).toEqual({ metadata: given });
    expect(await header('{"emoji":"\\u00fc"}')).toEqual({ metadata: { emoji: "ü" } });
    expect(await body({})).toEqual({});
    expect(await body({ metadata: {} })).toEqual({ metadata: {} });
  });

  it("refuses a 17th pair as 400 invalid_metadata naming the first key past the limit", async () => {
    await expect(body({ metadata: pairs(17) })).rejects.toMatchObject({
      code: "invalid_metadata",
      status: 400,
      path: "metadata.k17",
      message: 'metadata holds at most 16 pairs; it has 17, "k17" the first past the limit.',
    });
    await expect(header(JSON.stringify(pairs(17)))).rejects.toMatchObject({
      code: "invalid_metadata",
      path: "X-Reelay-Metadata.k17",
    });
  });

  it("refuses a 41-character key and an empty key, naming the key", async () => {
    const long = "k".repeat(41);
    await expect(body({ metadata: { [long]: "v" } })).rejects.toMatchObject({
      code: "invalid_metadata",
      status: 400,
      path: `metadata.${long}`,
      message: `metadata: the metadata key "${long}" is 41 characters; at most 40.`,
    });
    await expect(header('{"":"v"}')).rejects.toMatchObject({
      code: "invalid_metadata",
      path: "X-Reelay-Metadata.",
    });
  });

  it("refuses a 501-character value, naming its key", async () => {
    await expect(body({ metadata: { order: "9".repeat(501) } })).rejects.toMatchObject({
      code: "invalid_metadata",
      status: 400,
      path: "metadata.order",
      message: 'metadata: the value of "order" is 501 characters; at most 500.',
    });
  });

  it("refuses a value that is not a string, naming its key and what it is", async () => {
    for (const [value, shown] of [
      [42, "number"],
      [true, "boolean"],
      [null, "null"],
      [{ a: "b" }, "object"],
      [["a"], "object"],
    ] as const) {
      await expect(body({ metadata: { order: value } }), shown).rejects.toMatchObject({
        code: "invalid_metadata",
        status: 400,
        path: "metadata.order",
        message: `metadata: the value of "order" must be a string, not ${shown}.`,
      });
    }
    await expect(header('{"order":42}')).rejects.toMatchObject({
      code: "invalid_metadata",
      path: "X-Reelay-Metadata.order",
    });
  });

  it("refuses metadata that is not an object at the field itself", async () => {
    for (const value of ["order=42", 42, null, [["order", "42"]]]) {
      await expect(body({ metadata: value }), String(value)).rejects.toMatchObject({
        code: "invalid_metadata",
        status: 400,
        path: "metadata",
      });
    }
    await expect(header('["order"]')).rejects.toMatchObject({
      code: "invalid_metadata",
      path: "X-Reelay-Metadata",
    });
  });

  it("refuses a header that is not JSON as 400 invalid_metadata at the header, saying so", async () => {
    const refused = header("order=42");
    await expect(refused).rejects.toMatchObject({
      code: "invalid_metadata",
      status: 400,
      path: "X-Reelay-Metadata",
    });
    await expect(refused).rejects.toThrow(/X-Reelay-Metadata must be a JSON object/);
  });

  it("takes a batch's metadata from its body before the header", async () => {
    const given = headers({ "X-Reelay-Metadata": '{"from":"header"}' });
    expect(await readBatchOptions(CTX, { metadata: { from: "body" } }, given)).toEqual({
      metadata: { from: "body" },
    });
    expect(await readBatchOptions(CTX, {}, given)).toEqual({ metadata: { from: "header" } });
  });
});

describe("a batch line's metadata", () => {
  const source = { type: "api" as const };
  const line = (metadata: unknown) =>
    JSON.stringify({ model: "gamma-3.1", prompt: "a paper boat", metadata });

  it("is taken out of the request and laid over the batch's, the line's value winning", () => {
    const [checked] = checkLines(
      parseBatchBody(line({ order: "42", sku: "a" })),
      source,
      {},
      {
        order: "1",
        campaign: "spring",
      },
    );
    expect(checked?.metadata).toEqual({ order: "42", sku: "a", campaign: "spring" });
    expect(checked?.validation?.valid).toBe(true);
    // Not a field of the contract's request, so not warned about as one.
    expect(checked?.validation?.warnings.map((w) => w.path)).not.toContain("metadata");
  });

  it("rejects the line (not the batch) when its merged metadata passes the limits, naming the key", () => {
    const text = [line(pairs(10)), JSON.stringify({ model: "gamma-3.1", prompt: "ok" })].join("\n");
    const batchPairs = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`b${i + 1}`, "x"]));
    const [over, fine] = checkLines(parseBatchBody(text), source, {}, batchPairs);
    expect(over?.validation).toBeUndefined();
    expect(over?.errors).toEqual([
      expect.objectContaining({ code: "invalid_metadata", path: "metadata.k10" }),
    ]);
    expect(fine?.validation?.valid).toBe(true);
    expect(fine?.metadata).toBeUndefined();
  });

  it("rejects the line whose own metadata breaks a rule, naming the key", () => {
    const [checked] = checkLines(parseBatchBody(line({ order: 42 })), source, {});
    expect(checked?.errors).toEqual([
      expect.objectContaining({ code: "invalid_metadata", path: "metadata.order" }),
    ]);
  });
});

describe("checkMetadata and mergedMetadata", () => {
  it("keep each key as its own, even __proto__", () => {
    const given = JSON.parse('{"__proto__":"x","order":"1"}') as unknown;
    const checked = checkMetadata(given, "metadata");
    expect(Object.keys(checked)).toEqual(["__proto__", "order"]);
    expect(Object.keys(mergedMetadata({ a: "1" }, checked, "metadata"))).toEqual([
      "a",
      "__proto__",
      "order",
    ]);
  });
});
