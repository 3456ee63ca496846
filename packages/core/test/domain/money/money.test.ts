import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/wiring/config.ts";
import { buildJob } from "../../../src/usecases/jobs/create-job.ts";
import { unitsOf } from "../../../src/domain/jobs/request.ts";
import type { Job } from "../../../src/domain/jobs/types.ts";
import { chargedOf, costMicrosOf } from "../../../src/domain/money/charge.ts";
import {
  FAILURE_CLASSES,
  failureClassOf,
  isRetryableClass,
} from "../../../src/domain/money/classes.ts";
import { costMicros, parsePrices } from "../../../src/domain/money/prices.ts";
import { classifiedError, moneyView } from "../../../src/domain/money/view.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";

const TABLE = JSON.stringify({
  currency: "USD",
  models: {
    "gamma-3.1": { per_second: { "720p": 0.05, "1080p": 0.08 }, audio_per_second: 0.01 },
    "os-2": { per_second: { default: 0.02 } },
    "img-1": { per_image: { "2K": 0.04, default: 0.03 }, per_reference_image: 0.005 },
  },
});
const prices = parsePrices(TABLE, "test");
const reference = { type: "url" as const, url: "https://example.com/a.png", text: "a" };

function job(body: object, over: Partial<Job> = {}): Job {
  return { ...buildJob({ validation: validate(body), source: { type: "api" }, prices }), ...over };
}

describe("usage", () => {
  it("a video is seconds at its resolution, with or without audio; an image request is images at a tier with its references", () => {
    expect(
      unitsOf({ model: "gamma-3.1", duration_sec: 8, resolution: "1080p", generate_audio: true }),
    ).toEqual({ unit: "video_second", quantity: 8, resolution: "1080p", audio: true });
    expect(
      unitsOf({
        model: "img-1",
        messages: [{ role: "user", content: "a" }],
        modalities: ["image"],
        output_image_count: 2,
        image_config: { image_size: "2K", reference_images: [reference, reference, reference] },
      }),
    ).toEqual({ unit: "image", quantity: 2, tier: "2K", referenceImages: 3 });
    expect(unitsOf({ model: "img-1", messages: [], modalities: ["image"] })).toEqual({
      unit: "image",
      quantity: 1,
      tier: null,
      referenceImages: 0,
    });
  });
});

describe("the price table", () => {
  it("prices seconds by resolution plus audio, images by tier plus references, in exact millionths", () => {
    const video = { unit: "video_second", quantity: 8, resolution: "1080p", audio: true } as const;
    expect(costMicros(prices, "gamma-3.1", video)).toBe(8 * 90_000);
    const image = { unit: "image", quantity: 2, tier: "2K", referenceImages: 3 } as const;
    expect(costMicros(prices, "img-1", image)).toBe(2 * 55_000);
    expect(costMicros(prices, "img-1", { ...image, tier: "4K" })).toBe(2 * 45_000);
    expect(costMicros(prices, "os-2", { ...video, resolution: null, audio: false })).toBe(160_000);
  });

  it("a model or resolution the table does not price has no cost (never a guess)", () => {
    const video = { unit: "video_second", quantity: 4, resolution: "480p", audio: false } as const;
    expect(costMicros(prices, "gamma-3.1", video)).toBeUndefined();
    expect(costMicros(prices, "zeta-1.1", video)).toBeUndefined();
  });

  it("its version is the sha256 of its text", () => {
    expect(prices.version).toMatch(/^[0-9a-f]{64}$/);
    expect(parsePrices(`${TABLE} `, "test").version).not.toBe(prices.version);
  });

  it("a bad table is refused at start with invalid_config and the path of the bad value", () => {
    const bad = (text: string) => {
      try {
        parsePrices(text, "REELAY_PRICES");
      } catch (error) {
        return error as { code: string; path: string; message: string };
      }
      throw new Error("accepted");
    };
    const negative = bad('{"currency":"USD","models":{"os-2":{"per_second":{"720p":-1}}}}');
    expect([negative.code, negative.path]).toEqual([
      "invalid_config",
      "REELAY_PRICES.models.os-2.per_second.720p",
    ]);
    expect(bad('{"currency":"dollars","models":{}}').path).toBe("REELAY_PRICES.currency");
    expect(bad('{"currency":"USD","models":{"os-2":{}}}').message).toMatch(/per_second/);
    expect(bad("{not json").message).toMatch(/not valid JSON/);
  });

  it("REELAY_PRICES is JSON or the path of a file; an unreadable path is named", async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-prices-"));
    const file = join(dir, "prices.json");
    await writeFile(file, TABLE);
    expect(loadConfig({ REELAY_PRICES: file }).prices?.version).toBe(prices.version);
    expect(loadConfig({ REELAY_PRICES: TABLE }).prices?.currency).toBe("USD");
    expect(loadConfig({}).prices).toBeUndefined();
    expect(() => loadConfig({ REELAY_PRICES: join(dir, "missing.json") })).toThrow(
      /REELAY_PRICES is neither a JSON object nor a readable file \(ENOENT/,
    );
  });

  it("REELAY_BUDGET is the deployment's budget, checked at start with the path of what is wrong", () => {
    expect(
      loadConfig({ REELAY_BUDGET: '{"amount":20,"unit":"units","period":"day"}' }).budget,
    ).toEqual({ amount: 20, unit: "units", period: "day" });
    expect(loadConfig({}).budget).toBeUndefined();
    const refusal = (text: string) => {
      try {
        loadConfig({ REELAY_BUDGET: text });
      } catch (error) {
        return error as { code: string; path: string; message: string };
      }
      throw new Error("accepted");
    };
    expect(refusal('{"amount":-1}')).toMatchObject({
      code: "invalid_config",
      path: "REELAY_BUDGET.amount",
    });
    expect(refusal('{"amount":5,"period":"week"}').path).toBe("REELAY_BUDGET.period");
    expect(refusal("{oops").message).toMatch(/REELAY_BUDGET is not valid JSON/);
  });
});

describe("estimate, charge and cost", () => {
  it("a job's estimate is fixed when it is made, with the table's version", () => {
    const made = job({ model: "gamma-3.1", prompt: "a", duration_sec: 8, resolution: "720p" });
    expect(made.estimate).toMatchObject({ costMicros: 400_000, currency: "USD" });
    expect(made.estimate?.priceVersion).toBe(prices.version);
    expect(moneyView(made)).toMatchObject({
      estimate: { cost: 0.4, currency: "USD" },
      cost: null,
      charged: null,
    });
  });

  it("nothing is charged without an upstream task; a success or a cancel while generating is; a failed task is unknown, counted at its estimate", () => {
    const base = job({ model: "gamma-3.1", prompt: "a", duration_sec: 8, resolution: "720p" });
    const ended = (over: Partial<Job>) => ({ ...base, ...over });
    const noTask = ended({ status: "failed", error: { code: "queue_timeout", message: "" } });
    expect([chargedOf(noTask), costMicrosOf(noTask)]).toEqual([false, 0]);
    const cancelledQueued = ended({ status: "cancelled" });
    expect(chargedOf(cancelledQueued)).toBe(false);
    const withTask = { upstreamTaskId: "t1" };
    expect(chargedOf(ended({ ...withTask, status: "succeeded" }))).toBe(true);
    expect(chargedOf(ended({ ...withTask, status: "cancelled" }))).toBe(true);
    const failedTask = ended({
      ...withTask,
      status: "failed",
      error: { code: "upstream_task_failed", message: "Generation failed" },
    });
    expect([chargedOf(failedTask), costMicrosOf(failedTask)]).toEqual(["unknown", 400_000]);
    const lostCopy = ended({
      ...withTask,
      status: "failed",
      error: { code: "download_truncated", message: "cut" },
    });
    expect(chargedOf(lostCopy)).toBe(true);
    expect(chargedOf(ended({ ...withTask, status: "running" }))).toBeNull();
  });
});

describe("failure classes", () => {
  it("every failure has one of the classes, and only content_policy and invalid_request say a retry cannot help", () => {
    const cases: [string, string, string][] = [
      ["upstream_task_failed", "Content moderation rejected the prompt", "content_policy"],
      ["sensitive_content", "refused", "content_policy"],
      ["upstream_task_failed", "Generation failed", "upstream_failed"],
      ["upstream_rejected", "duration not allowed", "invalid_request"],
      ["upstream_rate_limited", "429", "rate_limited"],
      ["upstream_unavailable", "503", "upstream_transient"],
      ["timeout", "deadline", "timeout"],
      ["queue_timeout", "no slot", "queue_timeout"],
      ["download_failed", "gone", "output_unavailable"],
      ["internal_error", "bug", "internal"],
      ["upstream_something_new", "?", "upstream_failed"],
    ];
    for (const [code, message, want] of cases) expect(failureClassOf({ code, message })).toBe(want);
    const unretryable = FAILURE_CLASSES.filter((c) => !isRetryableClass(c));
    expect(unretryable).toEqual(["invalid_request", "content_policy"]);
    expect(classifiedError({ code: "upstream_unavailable", message: "503" })).toEqual({
      code: "upstream_unavailable",
      message: "503",
      class: "upstream_transient",
      retryable: true,
    });
  });
});
