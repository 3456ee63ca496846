import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/wiring/config.ts";
import { ReelayError } from "../../src/domain/errors.ts";
import { MAX_JOB_TIMEOUT_S } from "../../src/domain/polling/policy.ts";

describe("config", () => {
  it("uses the fixed defaults when nothing is set", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4700,
      host: "127.0.0.1",
      dataDir: ".reelay",
      apiKey: undefined,
      upstreamUrl: undefined,
      jobTimeoutS: undefined,
      apiUrl: "http://127.0.0.1:4700",
      defaultModel: "gamma-3.1",
      aws: { eventBusName: "reelay" },
    });
  });

  it("reads every REELAY_ variable", () => {
    const config = loadConfig({
      REELAY_PORT: "5000",
      REELAY_HOST: "0.0.0.0",
      REELAY_DATA_DIR: "/tmp/r",
      REELAY_API_KEY: "k",
      REELAY_UPSTREAM_URL: "https://api.example.com/v1",
      REELAY_UPSTREAM_API_KEY: "u",
      REELAY_JOB_TIMEOUT_S: "90",
      REELAY_API_URL: "http://10.0.0.2:4700",
      REELAY_TABLE_NAME: "jobs",
    });
    expect(config).toMatchObject({
      port: 5000,
      host: "0.0.0.0",
      dataDir: "/tmp/r",
      apiKey: "k",
      upstreamUrl: "https://api.example.com/v1",
      upstreamApiKey: "u",
      jobTimeoutS: 90,
      apiUrl: "http://10.0.0.2:4700",
      aws: { tableName: "jobs" },
    });
  });

  it("takes REELAY_UPSTREAM_URL=simulator (and a pool account's url simulator) as the simulator, not a URL", () => {
    const one = loadConfig({ REELAY_UPSTREAM_URL: "simulator" });
    expect(one).toMatchObject({ upstreamUrl: undefined, upstreamSimulator: true });
    expect(loadConfig({}).upstreamSimulator).toBe(false);
    const pool = loadConfig({
      REELAY_UPSTREAMS: JSON.stringify([{ name: "trial", url: "simulator", api_key: "k" }]),
    });
    expect(pool.upstreams?.[0]?.url).toBe("simulator");
  });

  it("takes REELAY_JOB_TIMEOUT_S up to the longest job deadline, MAX_JOB_TIMEOUT_S", () => {
    expect(loadConfig({ REELAY_JOB_TIMEOUT_S: String(MAX_JOB_TIMEOUT_S) }).jobTimeoutS).toBe(
      MAX_JOB_TIMEOUT_S,
    );
  });

  it("REELAY_RETENTION_DAYS: unset keeps finished jobs for good; a positive number of days, fractions too, is the horizon", () => {
    expect(loadConfig({}).retentionDays).toBeUndefined();
    expect(loadConfig({ REELAY_RETENTION_DAYS: " " }).retentionDays).toBeUndefined();
    expect(loadConfig({ REELAY_RETENTION_DAYS: "30" }).retentionDays).toBe(30);
    expect(loadConfig({ REELAY_RETENTION_DAYS: "0.5" }).retentionDays).toBe(0.5);
  });

  it("takes REELAY_PORT=0 as any free port", () => {
    expect(loadConfig({ REELAY_PORT: "0" }).port).toBe(0);
  });

  it.each([
    ["REELAY_PORT", "abc"],
    ["REELAY_PORT", "-1"],
    ["REELAY_PORT", "70000"],
    ["REELAY_JOB_TIMEOUT_S", "-5"],
    ["REELAY_JOB_TIMEOUT_S", String(MAX_JOB_TIMEOUT_S + 1)],
    ["REELAY_UPSTREAM_URL", "https://api.example.com"],
    ["REELAY_RETENTION_DAYS", "0"],
    ["REELAY_RETENTION_DAYS", "-3"],
    ["REELAY_RETENTION_DAYS", "a week"],
  ])("refuses %s=%s with invalid_config or invalid_base_url naming the variable", (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ReelayError);
    expect((error as ReelayError).path).toBe(name);
    expect((error as ReelayError).message).toContain(name);
  });

  it("log settings: text at info unless REELAY_LOG_FORMAT / REELAY_LOG_LEVEL say otherwise (any case); other values are invalid_config naming the variable", () => {
    expect(loadConfig({}).log).toEqual({ format: "text", level: "info" });
    expect(loadConfig({ REELAY_LOG_FORMAT: "JSON", REELAY_LOG_LEVEL: "Debug" }).log).toEqual({
      format: "json",
      level: "debug",
    });
    for (const [name, raw] of [
      ["REELAY_LOG_FORMAT", "yaml"],
      ["REELAY_LOG_LEVEL", "verbose"],
    ] as const) {
      expect(() => loadConfig({ [name]: raw })).toThrow(
        expect.objectContaining({ code: "invalid_config", path: name }),
      );
    }
  });

  it("ALERT_EMAIL: unset is nobody, one address is kept trimmed, anything else is invalid_config naming it", () => {
    expect(loadConfig({}).alertEmail).toBeUndefined();
    expect(loadConfig({ ALERT_EMAIL: " ops@example.com " }).alertEmail).toBe("ops@example.com");
    for (const raw of ["ops", "ops@example", "a@b.com,c@d.com"])
      expect(() => loadConfig({ ALERT_EMAIL: raw }), raw).toThrow(
        expect.objectContaining({ code: "invalid_config", path: "ALERT_EMAIL" }),
      );
  });
});
