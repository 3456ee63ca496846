/**
 * Ctrl-C on `reelay up` in a terminal: the terminal sends SIGINT to the whole process group, the
 * stand-in children (dynalite, s3rver) included. The stack stops them in its turn, closing the
 * database; they used to die of the signal themselves, and the stack logged each as ended
 * unexpectedly and started it again while it was stopping. And the signal is sent the moment the
 * banner appears: `reelay up` listened for it only after printing the banner, and a signal in
 * between met Node's default (the process killed, nothing stopped in order). Run as a user runs
 * it: the real binary, in a process group of its own, the signal sent to the group.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BIN, cleanEnv } from "./support/run.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "reelay-up-ctrl-c-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it("SIGINT to the process group stops reelay up with exit 0: no child ended unexpectedly or started again, the database closed cleanly", async () => {
  const child = spawn(process.execPath, [BIN, "up", "--port", "0", "--data-dir", dir], {
    env: cleanEnv(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const up = new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("reelay is up")) resolve();
    };
    child.stdout.on("data", seen);
    child.stderr.on("data", seen);
    child.once("exit", (code) => reject(new Error(`reelay up exited ${code}: ${output}`)));
  });
  const exited = new Promise<string>((resolve) =>
    child.once("close", (code, signal) => resolve(`exit ${code ?? signal}`)),
  );
  await up;
  process.kill(-(child.pid ?? 0), "SIGINT");
  expect(await exited, output).toBe("exit 0");
  expect(output).toContain("SIGINT, stopping");
  expect(output).not.toMatch(/ended unexpectedly|running again/);
  // The closing dynalite child leaves its clean marker only when it closed its database itself.
  expect(existsSync(join(dir, "dynamodb.clean")), output).toBe(true);
}, 120_000);
