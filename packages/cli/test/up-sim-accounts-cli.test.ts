/**
 * `reelay up --sim-accounts` with a bad value is a usage mistake: exit 2, one line on stderr naming
 * the part at fault, and nothing started (the data dir is not even made). Run in this process.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, runInProcess } from "./support/run.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "reelay-up-sim-accounts-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `reelay up ARGS` with no REELAY_* setting of this process leaking in. */
function up(args: string[]): Promise<CliResult> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("REELAY_")),
  ) as Record<string, string>;
  return runInProcess(["up", ...args], { ...clean, REELAY_PORT: "0" });
}

describe("reelay up --sim-accounts with a bad value", () => {
  it.each([
    [
      "alpha:0",
      'reelay up: --sim-accounts cap of "alpha" must be a positive whole number, got "0".',
    ],
    [
      "alpha:4,alpha:8",
      'reelay up: --sim-accounts names "alpha" twice; each account needs its own name.',
    ],
    [
      "alpha",
      'reelay up: --sim-accounts entry "alpha" is not name:cap (for example alpha:4,beta:8).',
    ],
  ])("%j: exit 2 and the one line %j, nothing started", async (value, line) => {
    const dataDir = join(dir, value.replace(/\W/g, "_"));
    const result = await up(["--data-dir", dataDir, "--sim-accounts", value]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(`${line}\n`);
    expect(result.stdout).toBe("");
    expect(existsSync(dataDir)).toBe(false);
  });
});
