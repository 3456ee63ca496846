/**
 * Every way `reelay up` fails to start that a new user meets is one line on stderr naming the
 * cause and the fix, exit 2, no stack trace: a REELAY_UPSTREAM_URL without /v1, a data dir a running
 * stack holds (named by its URL and pid), a port another program listens on, a host that is not
 * this machine's, a data dir that cannot be used. Each runs `reelay up` in this process with only
 * the given settings; the taken port, where the stand-in children have started before the failure,
 * runs the real binary, as a user runs it, so a child's line or node's own output would show.
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@reelay/core/wiring";
import { startLocalStack } from "@reelay/local";
import { portTaken } from "../../../test/e2e/support/stack.ts";
import { BIN, type CliResult, cleanEnv, runInProcess } from "./support/run.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "reelay-up-failures-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function up(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runInProcess(["up", ...args], { ...cleanEnv(), REELAY_PORT: "0", ...env });
}

function upBinary(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, "up", ...args],
      { env: { ...cleanEnv(), REELAY_PORT: "0" }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}

/** Exit 2, and stderr is one line: no trace, no second line from a child. */
function oneLine(result: CliResult): string {
  expect(result.code, result.stderr).toBe(2);
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  return lines[0]!;
}

describe("reelay up that cannot start", () => {
  it("REELAY_UPSTREAM_URL without /v1: says the path must end in /v1 and shows one", async () => {
    const line = oneLine(
      await up(["--data-dir", join(dir, "a")], { REELAY_UPSTREAM_URL: "https://api.example.com" }),
    );
    expect(line).toMatch(/^reelay up: The REELAY_UPSTREAM_URL .* must end in .*\/v1/);
    expect(line).toContain("for example https://api.example.com/v1");
  });

  it("a data dir a running stack holds: names that stack's URL and pid, and --data-dir", async () => {
    const dataDir = join(dir, "held");
    const config = { ...loadConfig({ REELAY_DATA_DIR: dataDir }), port: 0 };
    const running = await startLocalStack({ config, quiet: true, s3Port: 0 });
    try {
      const line = oneLine(await up(["--data-dir", dataDir]));
      expect(line).toContain(`in use by the reelay stack at ${running.url} (pid ${process.pid})`);
      expect(line).toContain("--data-dir or REELAY_DATA_DIR");
    } finally {
      await running.stop();
    }
  }, 60_000);

  it("a port another program listens on: names the address and --port", async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const line = oneLine(await upBinary(["--data-dir", join(dir, "b"), "--port", String(port)]));
      expect(line).toBe(
        `reelay up: 127.0.0.1:${port} is taken by another program (another reelay up?); stop it, or choose another port with --port or REELAY_PORT.`,
      );
      // The tests that start `reelay up` on a port from freePort() retry on this line.
      expect(portTaken(line)).toBe(true);
    } finally {
      server.close();
    }
  }, 60_000);

  it("a REELAY_HOST that is no address of this machine: names it and REELAY_HOST", async () => {
    const line = oneLine(await up(["--data-dir", join(dir, "c")], { REELAY_HOST: "192.0.2.1" }));
    expect(line).toBe(
      "reelay up: 192.0.2.1 is not an address of this machine (EADDRNOTAVAIL); set REELAY_HOST to one (default 127.0.0.1).",
    );
  }, 60_000);

  it("a data dir that is a file, or one this user may not read: names it and --data-dir", async () => {
    const file = join(dir, "a-file");
    await writeFile(file, "not a folder");
    expect(oneLine(await up(["--data-dir", file]))).toMatch(
      /^reelay up: The data dir .*a-file cannot be used \(EEXIST\); make it a folder this user may read and write, or choose another data dir with --data-dir or REELAY_DATA_DIR\.$/,
    );
    // Permissions do not bind root: this half runs for other users only.
    if (process.getuid?.() === 0) return;
    const closed = join(dir, "closed");
    await mkdir(closed);
    await chmod(closed, 0o000);
    try {
      expect(oneLine(await up(["--data-dir", closed]))).toContain("cannot be used (EACCES)");
    } finally {
      await chmod(closed, 0o700);
    }
  });
});
