import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sameApi, versionCheck } from "../src/client/doctor-checks.ts";
import { type ClientStack, clientStackForSuite, startClientStack } from "./support/client-stack.ts";
import { closedPort } from "./support/run.ts";

interface Check {
  check: string;
  ok: boolean;
  detail: string;
  fix: string | null;
}

const CHECKS = ["reachable", "version", "scopes", "upstream", "secrets", "subscribers", "quote"];

describe("reelay doctor against the local stack", () => {
  const t = clientStackForSuite();

  async function doctor(env: Record<string, string> = {}) {
    const run = await t.cli(["doctor", "--json"], { env });
    return { code: run.code, checks: JSON.parse(run.stdout) as Check[] };
  }
  const named = (checks: Check[], name: string) => checks.find((c) => c.check === name) as Check;

  it("passes every check, one line each, and exits 0", async () => {
    const text = await t.cli(["doctor"]);
    expect(text.code, text.stdout + text.stderr).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines.map((l) => l.split(/\s+/)[1])).toEqual(CHECKS);
    expect(lines.every((l) => l.startsWith("ok  "))).toBe(true);

    const { code, checks } = await doctor();
    expect(code).toBe(0);
    expect(checks.map((c) => [c.check, c.ok, c.fix])).toEqual(CHECKS.map((c) => [c, true, null]));
    expect(named(checks, "scopes").detail).toBe("the key has read, write, webhooks, admin");
    expect(named(checks, "upstream").detail).toMatch(/model listing answered \(\d+ models\)/);
    expect(named(checks, "quote").detail).toMatch(/dry run of one gamma-3\.1 request/);
  });

  it("an unreachable URL fails `reachable` with how to start reelay, and checks nothing more", async () => {
    const { code, checks } = await doctor({
      REELAY_API_URL: `http://127.0.0.1:${await closedPort()}`,
    });
    expect(code).toBe(1);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ check: "reachable", ok: false });
    expect(checks[0]?.fix).toMatch(/npm start.*REELAY_API_URL/);
  });

  it("a wrong key fails `scopes`, `secrets` and `quote`, each with its fix", async () => {
    const { code, checks } = await doctor({ REELAY_API_KEY: "rly_not_a_key" });
    expect(code).toBe(1);
    expect(named(checks, "reachable").ok).toBe(true);
    expect(named(checks, "scopes")).toMatchObject({ ok: false });
    expect(named(checks, "scopes").detail).toMatch(/the key was refused/);
    expect(named(checks, "scopes").fix).toMatch(/REELAY_API_KEY/);
    expect(named(checks, "secrets")).toMatchObject({ ok: false });
    expect(named(checks, "quote")).toMatchObject({ ok: false });
  });

  it("a read-only key fails `scopes` naming write, and `quote` for want of it", async () => {
    const created = await t.api<{ key: string }>("POST", "/v1/keys", {
      name: "doctor-read",
      scopes: ["read"],
    });
    expect(created.status).toBe(201);
    const { code, checks } = await doctor({ REELAY_API_KEY: created.body.key });
    expect(code).toBe(1);
    expect(named(checks, "scopes")).toMatchObject({
      ok: false,
      detail: "the key has read; it lacks write",
    });
    expect(named(checks, "scopes").fix).toMatch(/--scopes read,write/);
    expect(named(checks, "quote").fix).toMatch(/write scope/);
    expect(named(checks, "upstream").ok).toBe(true);
  });

  it("an upstream that refuses reelay's key fails `upstream` and `secrets` with where to set it", async () => {
    const sim = t.stack.simulator;
    if (sim === undefined) throw new Error("the stack has no bundled simulator");
    sim.setOptions({ apiKey: "sk-only-this-one" });
    try {
      const { code, checks } = await doctor();
      expect(code).toBe(1);
      expect(named(checks, "upstream").ok).toBe(false);
      expect(named(checks, "upstream").detail).toMatch(/refused the API key/);
      expect(named(checks, "upstream").fix).toMatch(/REELAY_UPSTREAM_API_KEY/);
      expect(named(checks, "secrets").ok).toBe(false);
      expect(named(checks, "secrets").fix).toMatch(/sst secrets set UPSTREAM_API_KEY/);
    } finally {
      sim.setOptions({ apiKey: "" });
    }
  });

  it("an upstream that is down fails `upstream` naming its URL settings", async () => {
    const sim = t.stack.simulator as NonNullable<typeof t.stack.simulator>;
    await sim.down();
    try {
      const { code, checks } = await doctor();
      expect(code).toBe(1);
      expect(named(checks, "upstream").ok).toBe(false);
      expect(named(checks, "upstream").detail).toMatch(/did not answer/);
      expect(named(checks, "upstream").fix).toMatch(/REELAY_UPSTREAM_URL/);
      expect(named(checks, "secrets").ok).toBe(true);
    } finally {
      await sim.up();
    }
  });
});

describe("reelay doctor against a simulated pool", () => {
  let t: ClientStack;
  beforeAll(async () => {
    t = await startClientStack(
      undefined,
      {},
      {
        accounts: [
          { name: "alpha", cap: 2 },
          { name: "beta", cap: 2 },
        ],
      },
    );
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  it("has one upstream line per account, and an account that is down fails its own line only", async () => {
    const beta = t.stack.simulators?.beta;
    if (beta === undefined) throw new Error("the pool has no beta account");
    const healthy = JSON.parse((await t.cli(["doctor", "--json"])).stdout) as Check[];
    expect(
      healthy.filter((c) => c.check.startsWith("upstream")).map((c) => [c.check, c.ok]),
    ).toEqual([
      ["upstream alpha", true],
      ["upstream beta", true],
    ]);
    await beta.down();
    try {
      const run = await t.cli(["doctor", "--json"]);
      expect(run.code).toBe(1);
      const checks = JSON.parse(run.stdout) as Check[];
      expect(checks.find((c) => c.check === "upstream alpha")?.ok).toBe(true);
      const down = checks.find((c) => c.check === "upstream beta");
      expect(down?.ok).toBe(false);
      expect(down?.detail).toMatch(/"beta".*did not answer/);
    } finally {
      await beta.up();
    }
  });
});

describe("reelay doctor's version check", () => {
  it("fails a server of another API (another major; below 1.0.0 another minor) or none named", () => {
    expect(sameApi("0.1.0", "0.1.7")).toBe(true);
    expect(sameApi("0.1.0", "0.2.0")).toBe(false);
    expect(sameApi("1.2.0", "1.9.3")).toBe(true);
    expect(sameApi("1.2.0", "2.0.0")).toBe(false);
    const other = versionCheck({ ok: true, version: "9.0.0" });
    expect(other).toMatchObject({ check: "version", ok: false });
    expect(other.fix).toMatch(/Use the CLI of release 9\.0\.0/);
    const none = versionCheck({ ok: true } as never);
    expect(none).toMatchObject({ ok: false });
    expect(none.detail).toMatch(/names no version/);
  });
});
