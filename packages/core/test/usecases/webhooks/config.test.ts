import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/wiring/config.ts";

const secret = `whsec_${randomBytes(24).toString("base64")}`;
const list = [{ url: "http://127.0.0.1:9999/hook", secret }];

describe("REELAY_WEBHOOKS", () => {
  it("is no subscribers when unset", () => {
    expect(loadConfig({}).webhooks).toEqual([]);
  });

  it("reads a JSON array given inline", () => {
    expect(loadConfig({ REELAY_WEBHOOKS: JSON.stringify(list) }).webhooks).toEqual(list);
  });

  it("reads a JSON array from a file path", async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-webhooks-config-"));
    try {
      const file = join(dir, "hooks.json");
      await writeFile(file, JSON.stringify(list));
      expect(loadConfig({ REELAY_WEBHOOKS: file }).webhooks).toEqual(list);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a missing file and a malformed list with invalid_config naming REELAY_WEBHOOKS", () => {
    expect(() => loadConfig({ REELAY_WEBHOOKS: "/nonexistent/hooks.json" })).toThrow(
      /REELAY_WEBHOOKS/,
    );
    expect(() => loadConfig({ REELAY_WEBHOOKS: '[{"url":"http://127.0.0.1/"}]' })).toThrow(
      /REELAY_WEBHOOKS/,
    );
  });
});

describe("REELAY_WEBHOOK_SCHEDULE", () => {
  it("is Standard Webhooks' day-long schedule when unset", () => {
    expect(loadConfig({}).webhookSchedule).toEqual([0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
  });

  it("reads comma-separated waits in seconds", () => {
    expect(loadConfig({ REELAY_WEBHOOK_SCHEDULE: "0,1,1,1,1,1" }).webhookSchedule).toEqual([
      0, 1, 1, 1, 1, 1,
    ]);
  });

  it("refuses a malformed schedule with invalid_config naming REELAY_WEBHOOK_SCHEDULE", () => {
    expect(() => loadConfig({ REELAY_WEBHOOK_SCHEDULE: "0,soon" })).toThrow(
      expect.objectContaining({ code: "invalid_config", path: "REELAY_WEBHOOK_SCHEDULE" }),
    );
  });
});
