/**
 * The local stack's log lines: the readable text by default, one JSON object per line in Powertools
 * Logger's shape with REELAY_LOG_FORMAT=json, and nothing below REELAY_LOG_LEVEL.
 */
import { describe, expect, it } from "vitest";
import { VERSION } from "@reelay/core/domain";
import { consoleLogger } from "../src/log.ts";

function capture(settings?: Parameters<typeof consoleLogger>[1]) {
  const lines: string[] = [];
  return { lines, log: consoleLogger((line) => lines.push(line), settings) };
}

describe("consoleLogger", () => {
  it("text (the default) keeps the readable lines: no context, the error's name and message", () => {
    const { lines, log } = capture();
    log.debug("not shown at info", { jobId: "vidtsk_1" });
    log.info("job vidtsk_1 succeeded", { jobId: "vidtsk_1" });
    log.error("a drop could not be handled", new TypeError("bad"));
    expect(log.structured).toBe(false);
    expect(lines).toEqual([
      "reelay: job vidtsk_1 succeeded\n",
      "reelay: a drop could not be handled (TypeError: bad)\n",
    ]);
  });

  it("json writes timestamp, level, service, the release's version, message, the context and the error, one object a line", () => {
    const { lines, log } = capture({ format: "json", level: "debug" });
    const context = { jobId: "vidtsk_1", step: "Poll", model: "gamma-3.1", keyId: "key_1" };
    log.debug("job vidtsk_1: Poll started", context);
    log.warn(
      "job vidtsk_1: Poll failed",
      Object.assign(new Error("reset"), { code: "ECONNRESET" }),
      context,
    );
    expect(log.structured).toBe(true);
    const parsed = lines.map((line) => JSON.parse(line));
    expect(lines.every((line) => line.endsWith("}\n") && !line.slice(0, -1).includes("\n"))).toBe(
      true,
    );
    expect(parsed[0]).toEqual({
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: "DEBUG",
      service: "reelay",
      version: VERSION,
      message: "job vidtsk_1: Poll started",
      ...context,
    });
    expect(parsed[1]).toMatchObject({
      level: "WARN",
      error: { name: "Error", message: "reset", code: "ECONNRESET" },
    });
  });

  it("shows a level and those above it only", () => {
    const { lines, log } = capture({ format: "json", level: "warn" });
    log.debug("d");
    log.info("i");
    log.warn("w");
    log.error("e");
    expect(lines.map((line) => JSON.parse(line).level)).toEqual(["WARN", "ERROR"]);
  });
});
