import { describe, expect, it } from "vitest";
import { readBatchOptions, readHeaderOptions } from "../src/job-options.ts";
import { CTX, headers } from "./support/options-context.ts";

const NONE = headers({});
const body = (form: Record<string, unknown>) => readBatchOptions(CTX, form, NONE);
const header = (given: Record<string, string>) => readHeaderOptions(CTX, headers(given));

describe("reuse's max age", () => {
  it("reads minutes, hours and days as seconds, and false or nothing as no reuse", async () => {
    expect(await body({ reuse: "30m" })).toEqual({ reuseMaxAgeS: 1800 });
    expect(await body({ reuse: "12h" })).toEqual({ reuseMaxAgeS: 43_200 });
    expect(await body({ reuse: "7d" })).toEqual({ reuseMaxAgeS: 604_800 });
    expect(await body({ reuse: "365d" })).toEqual({ reuseMaxAgeS: 365 * 86_400 });
    expect(await body({ reuse: false })).toEqual({});
    expect(await body({})).toEqual({});
    expect(await header({ "X-Reelay-Reuse": "false" })).toEqual({});
    expect(await header({ "X-Reelay-Reuse": " 7D " })).toEqual({ reuseMaxAgeS: 604_800 });
  });

  it("refuses anything else as 400 invalid_reuse at the field or header it came from", async () => {
    for (const value of ["7", "1w", "0d", "366d", "true", "-1h", "", 7, true, null, "7d7h"]) {
      await expect(body({ reuse: value }), String(value)).rejects.toMatchObject({
        code: "invalid_reuse",
        status: 400,
        path: "reuse",
        message: `reuse must be a maximum age such as 30m, 12h or 7d (at most 365d), or false; got ${JSON.stringify(value)}.`,
      });
    }
    await expect(header({ "X-Reelay-Reuse": "soon" })).rejects.toMatchObject({
      code: "invalid_reuse",
      path: "X-Reelay-Reuse",
    });
  });
});

describe("one job options value from a body or from the headers", () => {
  it("the body's fields and the headers give the same options", async () => {
    const expected = {
      priority: "high",
      queueTimeoutS: 60,
      reuseMaxAgeS: 3600,
      retentionDays: 0.5,
      outputTarget: { bucket: "customer-renders", prefix: "renders/" },
    };
    expect(
      await body({
        priority: "high",
        queue_timeout_s: 60,
        reuse: "1h",
        retention_days: 0.5,
        output: { s3_prefix: "s3://customer-renders/renders/" },
      }),
    ).toEqual(expected);
    expect(
      await header({
        "X-Reelay-Priority": " High ",
        "X-Reelay-Queue-Timeout": "60",
        "X-Reelay-Reuse": "1h",
        "X-Reelay-Retention-Days": "0.5",
        "X-Reelay-Output-S3-Prefix": "s3://customer-renders/renders/",
      }),
    ).toEqual(expected);
  });

  it("a batch takes the body's field over its header, but the header's priority", async () => {
    const given = headers({ "X-Reelay-Priority": "low", "X-Reelay-Queue-Timeout": "30" });
    expect(await readBatchOptions(CTX, { priority: "high", queue_timeout_s: 60 }, given)).toEqual({
      priority: "low",
      queueTimeoutS: 60,
    });
    expect(await readBatchOptions(CTX, { retention_days: 2 }, given)).toEqual({
      priority: "low",
      queueTimeoutS: 30,
      retentionDays: 2,
    });
  });

  it.each([
    [
      { priority: "urgent" },
      "invalid_priority",
      "priority",
      "priority must be one of high, normal, low.",
    ],
    [
      { queue_timeout_s: 1.5 },
      "invalid_queue_timeout",
      "queue_timeout_s",
      "queue_timeout_s must be a whole number of seconds from 1 to 86400 (REELAY_QUEUE_TIMEOUT_S).",
    ],
    [
      { retention_days: "7" },
      "invalid_retention",
      "retention_days",
      "retention_days must be a positive number of days (fractions allowed) up to 3650.",
    ],
    [
      { output: [] },
      "invalid_output_target",
      "output",
      'output must be {"s3_prefix": "s3://..."}.',
    ],
    [
      { output: { s3_prefix: "s3://customer-renders/", acl: "public" } },
      "invalid_output_target",
      "output.acl",
      "output takes only s3_prefix, not acl.",
    ],
    [
      { webhook_url: 7 },
      "invalid_request",
      "webhook_url",
      "webhook_url is an absolute https URL of at most 2000 characters.",
    ],
    [
      { webhook_events: "Generation Succeeded" },
      "invalid_request",
      "webhook_events",
      "webhook_events needs webhook_url.",
    ],
  ])("a body's %j is 400 %s at %s", async (form, code, path, message) => {
    await expect(body(form)).rejects.toMatchObject({ code, status: 400, path, message });
  });

  it.each([
    ["X-Reelay-Priority", "urgent", "invalid_priority"],
    ["X-Reelay-Queue-Timeout", "86401", "invalid_queue_timeout"],
    ["X-Reelay-Queue-Timeout", "soon", "invalid_queue_timeout"],
    ["X-Reelay-Retention-Days", "0", "invalid_retention"],
    ["X-Reelay-Retention-Days", "1e3", "invalid_retention"],
    ["X-Reelay-Output-S3-Prefix", "s3://elsewhere/renders/", "output_bucket_not_allowed"],
    ["X-Reelay-Output-S3-Prefix", "renders/", "invalid_output_target"],
    ["X-Reelay-Webhook-Events", "Generation Succeeded", "invalid_request"],
  ])("%s: %s is 400 %s naming the header", async (name, value, code) => {
    await expect(header({ [name]: value })).rejects.toMatchObject({
      code,
      status: 400,
      path: name,
    });
  });

  it("the output prefix's own refusal names the field it came from", async () => {
    await expect(body({ output: { s3_prefix: "s3://elsewhere/x/" } })).rejects.toMatchObject({
      code: "output_bucket_not_allowed",
      path: "output.s3_prefix",
    });
  });

  it("retention_days takes a positive number of days up to 3650, fractions too", async () => {
    expect(await body({ retention_days: 0.0001 })).toEqual({ retentionDays: 0.0001 });
    expect(await body({ retention_days: 3650 })).toEqual({ retentionDays: 3650 });
    for (const value of [0, -1, 3651, Number.NaN, Number.POSITIVE_INFINITY, "7", null])
      await expect(body({ retention_days: value }), String(value)).rejects.toMatchObject({
        code: "invalid_retention",
        status: 400,
        path: "retention_days",
      });
  });

  it("the deployment's own key cannot ask for a webhook", async () => {
    const admin = { ...CTX, caller: { keyId: "local" } };
    await expect(
      readHeaderOptions(admin, headers({ "X-Reelay-Webhook": "https://example.com/hook" })),
    ).rejects.toMatchObject({ code: "webhook_needs_stored_key", path: "X-Reelay-Webhook" });
  });
});

describe("the end user", () => {
  it("is read from the body's user or X-Reelay-User as given", async () => {
    expect(await body({ user: "u-4711" })).toEqual({ user: "u-4711" });
    expect(await header({ "X-Reelay-User": "Ünïcode user 7" })).toEqual({
      user: "Ünïcode user 7",
    });
    expect(await body({ user: "x".repeat(128) })).toEqual({ user: "x".repeat(128) });
  });

  it("refuses an empty, too long, non-text or control-character id as 400 invalid_user at its field or header", async () => {
    for (const value of ["", "x".repeat(129), "tab\there", "nul\u0000", "del\u007f", 7, null])
      await expect(body({ user: value }), JSON.stringify(value)).rejects.toMatchObject({
        code: "invalid_user",
        status: 400,
        path: "user",
      });
    await expect(header({ "X-Reelay-User": "x".repeat(129) })).rejects.toMatchObject({
      code: "invalid_user",
      path: "X-Reelay-User",
    });
  });
});
