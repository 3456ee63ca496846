/**
 * `reelay top` against the real local stack: `--once` prints one screen from GET /metrics with the
 * gauges and the totals since the stack started; without it, screens follow every --interval until
 * Ctrl-C (SIGINT, exit 0), rates appearing from the second scrape on. Against an API without
 * /metrics (an AWS deployment answers 404) it is one line and exit 2.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClientStack, type ClientStack } from "./support/client-stack.ts";
import { BIN, runInProcess } from "./support/run.ts";

let t: ClientStack;

async function endedJob(prompt: string): Promise<void> {
  const created = await t.api<{ task_id: string }>("POST", "/v1/video/generations", {
    model: "gamma-3.1",
    prompt,
    duration_sec: 4,
  });
  for (let i = 0; i < 240; i++) {
    const { body } = await t.api<{ status: string }>("GET", `/v1/jobs/${created.body.task_id}`);
    if (["succeeded", "failed", "cancelled"].includes(body.status)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`job ${created.body.task_id} did not end`);
}

beforeAll(async () => {
  t = await startClientStack(undefined, { REELAY_UPSTREAM_CONCURRENCY: "4" });
  await Promise.all([
    endedJob("a red bicycle"),
    endedJob('a storm [[sim:task_fail reason="the renderer crashed"]]'),
  ]);
}, 90_000);
afterAll(async () => {
  await t?.stop();
});

describe("reelay top", () => {
  it("--once prints one screen: in flight against the slots, the queue, the totals since start with failures by code; exit 0", async () => {
    const result = await t.cli(["top", "--once"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^reelay top  ${t.stack.url}  \\d\\d:\\d\\d:\\d\\d UTC\\n`),
    );
    expect(result.stdout).toContain("in flight   0 upstream tasks, slots 0/4\n");
    expect(result.stdout).toContain("queued      0\n");
    expect(result.stdout).toContain("rates       (after the next scrape)\n");
    expect(result.stdout).toContain(
      "since start 2 created, 1 succeeded, 1 failed, 0 cancelled\n            failures by code: upstream_task_failed 1\n",
    );
    expect(result.stderr).toBe("");
  });

  it("--once --json prints the screen's figures as one JSON object", async () => {
    const result = await t.cli(["top", "--once", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      inFlight: 0,
      slotsLimit: 4,
      queued: 0,
      oldestQueuedS: 0,
      sinceStart: { created: 2, succeeded: 1, failed: 1, cancelled: 0 },
      failuresSinceStart: { upstream_task_failed: 1 },
      window: null,
    });
  });

  it("refreshes every --interval until Ctrl-C, with throughput, 429s, failures and latency over the window from the second screen; SIGINT exits 0", async () => {
    const child = spawn(process.execPath, [BIN, "top", "--interval", "0.5"], {
      env: t.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += String(chunk)));
    const exited = new Promise<number | null>((resolve) =>
      child.on("exit", (code) => resolve(code)),
    );
    for (let i = 0; i < 100 && (stdout.match(/^reelay top /gm) ?? []).length < 3; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    const screens = stdout.split(/^(?=reelay top )/m);
    expect(screens.length).toBeGreaterThanOrEqual(3);
    expect(screens[0]).toContain(", every 0.5 s, Ctrl-C to stop");
    expect(screens[0]).toContain("rates       (after the next scrape)");
    expect(screens[1]).toMatch(
      /throughput {2}0\.0\/min finished \(0\.0\/min succeeded, 0\.0\/min failed\) over the last [\d.]+ s/,
    );
    expect(screens[1]).toMatch(
      /429s {8}0\.0\/min \(0\.0% of [\d.]+\/min upstream requests\)|429s {8}0\.0\/min\n/,
    );
    expect(screens[1]).toMatch(/failures {4}none \(last [\d.]+ s\)/);
    expect(screens[1]).toMatch(/latency {5}detection -; end to end -\n/);
  });

  it("against an API without /metrics (an AWS deployment answers 404) prints one line naming the URL and exits 2", async () => {
    const server: Server = createServer((req, res) => {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { code: "not_found", message: `No route GET ${req.url}.` } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const result = await runInProcess(["top", "--once"], {
        REELAY_API_URL: url,
        REELAY_API_KEY: "k",
      });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `reelay top: ${url} has no /metrics: this deployment sends its metrics elsewhere (on AWS, CloudWatch namespace "reelay"); reelay top reads a local stack.\n`,
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("with a stored key, which may not read the metrics, says so and exits 1", async () => {
    const { body } = await t.api<{ key: string }>("POST", "/v1/keys", { name: "viewer" });
    const result = await t.cli(["top", "--once"], { env: { REELAY_API_KEY: body.key } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^reelay top: This call needs the `admin` scope.*\[scope_missing\]\n$/,
    );
  });
});
