/**
 * A dynalite or s3rver child that dies while the stack runs (killed here with SIGKILL, as the OOM
 * killer would) is started again on its port, and the jobs in flight at the kill still succeed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as pause } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@reelay/core/wiring";
import { consoleLogger } from "../src/log.ts";
import { startLocalStack, type LocalStack } from "../src/stack.ts";

let dataDir: string;
let stack: LocalStack;
const logLines: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "reelay-child-restart-"));
  const config = loadConfig({ REELAY_PORT: "0", REELAY_DATA_DIR: dataDir });
  stack = await startLocalStack({
    config,
    logger: consoleLogger((line) => logLines.push(line)),
    simulator: { generationMs: 4_000 },
    s3Port: 0,
    previews: false,
  });
});
afterAll(async () => {
  await stack?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function call(path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${stack.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${stack.apiKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json();
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await pause(100)) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

function create(prompt: string): Promise<string> {
  return call("/v1/video/generations", { model: "gamma-3.1", prompt, duration_sec: 4 }).then(
    (created: { task_id: string }) => created.task_id,
  );
}

describe("a stand-in child that dies while the stack runs", () => {
  it("is started again on its port (dynalite, then s3rver) and the jobs in flight at each kill succeed", async () => {
    const first = [await create("a paper boat"), await create("a red kite")];
    await until("a job running upstream", async () =>
      (await call(`/v1/jobs/${first[0]}`)).status === "running" ? true : undefined,
    );
    const dynalitePid = stack.children.dynalite.pid;
    process.kill(dynalitePid, "SIGKILL");
    await until("dynalite again", async () =>
      stack.children.dynalite.restarts === 1 ? 1 : undefined,
    );
    expect(stack.children.dynalite.pid).not.toBe(dynalitePid);

    const second = [await create("a lantern"), await create("a clock tower")];
    const s3rver = stack.children.s3rver!;
    const s3rverPid = s3rver.pid;
    process.kill(s3rverPid, "SIGKILL");
    await until("s3rver again", async () => (s3rver.restarts === 1 ? 1 : undefined));
    expect(s3rver.pid).not.toBe(s3rverPid);

    for (const id of [...first, ...second]) {
      const job = await until(`job ${id} to end`, async () => {
        const record = await call(`/v1/jobs/${id}`);
        return ["succeeded", "failed", "cancelled"].includes(record.status) ? record : undefined;
      });
      expect([id, job.status, job.error]).toEqual([id, "succeeded", null]);
    }
    expect(logLines.join("")).toMatch(/dynalite \(pid \d+\) ended unexpectedly \(signal SIGKILL\)/);
    // /healthz tells an operator the same.
    const health = (await (await fetch(`${stack.url}/healthz`)).json()) as { children: unknown };
    expect(health.children).toEqual({
      dynalite: { pid: stack.children.dynalite.pid, restarts: 1 },
      s3rver: { pid: s3rver.pid, restarts: 1 },
    });
    expect(logLines.join("")).toMatch(/s3rver is running again/);
  }, 90_000);
});
