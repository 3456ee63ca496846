/**
 * Acceptance: SIGKILL the local stack with jobs in flight, start it again: every job ends, with one
 * upstream task each and one terminal event each. The stack runs as a child process (`reelay up`,
 * as a user runs it); the simulator runs here, so its counters outlive the kill.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "@reelay/simulator";
import {
  eventsIn,
  freePort,
  getJson,
  postJson,
  tempDir,
  waitFor,
  waitForTerminalJob,
} from "./support/stack.ts";

const BIN = fileURLToPath(new URL("../../packages/cli/bin/reelay.js", import.meta.url));
const JOBS = 5;

interface Child {
  process: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

let simulator: Simulator;
let dataDir: string;
let port: number;
const apiKey = `e2e_${randomBytes(12).toString("hex")}`;
const upstreamKey = `sim_${randomBytes(12).toString("hex")}`;
const children: Child[] = [];

/** With `bundled`, the stack runs its own simulator (which dies with it); else the one here. */
function startStack(options: { bundled?: boolean } = {}): Child {
  const args = options.bundled ? ["--sim-time-scale", "0.3"] : [];
  // Only what the stack needs: the settings a user would export, nothing inherited.
  const child = spawn(
    process.execPath,
    [BIN, "up", "--port", String(port), "--data-dir", dataDir, ...args],
    {
      env: {
        REELAY_API_KEY: apiKey,
        ...(options.bundled
          ? {}
          : { REELAY_UPSTREAM_URL: simulator.url, REELAY_UPSTREAM_API_KEY: upstreamKey }),
        TMPDIR: tmpdirOf(dataDir),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const started = { process: child, output, exited };
  children.push(started);
  return started;
}

function tmpdirOf(dir: string): string {
  return dir.slice(0, dir.lastIndexOf("/"));
}

async function ready(child: Child): Promise<void> {
  const died = child.exited.then((code) => {
    throw new Error(`the stack exited with ${code} before it was ready: ${child.output.join("")}`);
  });
  const up = waitFor(
    `the stack on port ${port} to answer /healthz`,
    async () =>
      (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok
        ? true
        : undefined,
    30_000,
  );
  await Promise.race([up, died]);
}

/**
 * Starts the stack and waits until it answers. The port came from freePort() and another test may
 * take it (or port + 1, S3's) before the child binds it: then a fresh port is tried.
 */
async function startReady(
  options: { bundled?: boolean } = {},
): Promise<{ child: Child; url: string }> {
  for (let attempt = 0; ; attempt++) {
    const child = startStack(options);
    try {
      await ready(child);
      return { child, url: `http://127.0.0.1:${port}` };
    } catch (error) {
      if (attempt >= 3 || !child.output.join("").includes("EADDRINUSE")) throw error;
      port = await freePort();
    }
  }
}

beforeAll(async () => {
  // 6 s per task: long enough that every job is still being polled when the stack is killed.
  simulator = await startSimulator({ apiKey: upstreamKey, generationMs: 6_000, timeScale: 1 });
});

beforeEach(async () => {
  dataDir = await tempDir("crash");
  port = await freePort();
});

afterAll(async () => {
  for (const child of children)
    if (child.process.exitCode === null && child.process.signalCode === null)
      child.process.kill("SIGKILL");
  await simulator?.close();
});

afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("the local stack killed with jobs in flight", () => {
  it("SIGKILL mid-poll, start again: all jobs succeed, one upstream task and one terminal event each; SIGTERM then exits 0", async () => {
    const { child: first, url: firstUrl } = await startReady();
    let url = firstUrl;
    const ids: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const { status, body } = await postJson(`${url}/v1/video/generations`, apiKey, {
        model: "gamma-3.1",
        prompt: `a paper boat, take ${i + 1}`,
        duration_sec: 4,
      });
      expect(status).toBeLessThan(300);
      ids.push(body.task_id);
    }
    // Every job has its upstream task and is being polled: the moment a crash hurts most.
    await waitFor(
      "every job to be submitted and polled once",
      async () => {
        const counters = simulator.counters();
        return counters.tasksCreated === JOBS &&
          ids.every((id) => counters.tasksByKey[id] === 1) &&
          counters.polls >= JOBS
          ? true
          : undefined;
      },
      30_000,
      100,
    );
    const { body: midway } = await getJson(`${url}/v1/jobs?limit=100`, apiKey);
    expect(
      (midway.data as any[])
        .filter((job) => ids.includes(job.id))
        .every((job) => job.status === "running"),
    ).toBe(true);
    first.process.kill("SIGKILL");
    await first.exited;

    const { child: second, url: secondUrl } = await startReady();
    url = secondUrl;
    const jobs = await Promise.all(ids.map((id) => waitForTerminalJob(url, apiKey, id, 45_000)));
    expect(jobs.map((job) => job.status)).toEqual(ids.map(() => "succeeded"));
    expect(second.output.join("")).toContain(`resumed    ${JOBS} unfinished job(s)`);

    const counters = simulator.counters();
    expect(counters.tasksCreated).toBe(JOBS);
    expect(Object.fromEntries(ids.map((id) => [id, counters.tasksByKey[id]]))).toEqual(
      Object.fromEntries(ids.map((id) => [id, 1])),
    );
    for (const job of jobs) expect(job.upstreamTaskId).toBe(simulator.task(job.upstreamTaskId)?.id);

    const events = await eventsIn(dataDir);
    for (const id of ids) {
      expect(
        events.filter((event) => event.detail.jobId === id).map((event) => event["detail-type"]),
      ).toEqual(["Generation Succeeded"]);
    }

    second.process.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 120_000);

  it("with the bundled simulator too: SIGKILL mid-poll, start again, every job succeeds against the task it already had", async () => {
    const { child: first, url: firstUrl } = await startReady({ bundled: true });
    let url = firstUrl;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { body } = await postJson(`${url}/v1/video/generations`, apiKey, {
        model: "os-2",
        prompt: `a lighthouse, take ${i + 1}`,
        duration_sec: 4,
      });
      ids.push(body.task_id);
    }
    await waitFor(
      "every job to be running",
      async () => {
        const { body } = await getJson(`${url}/v1/jobs?limit=100`, apiKey);
        const mine = (body.data as any[]).filter((job) => ids.includes(job.id));
        return mine.length === ids.length &&
          mine.every((job) => job.status === "running" && job.upstreamTaskId)
          ? mine
          : undefined;
      },
      30_000,
      100,
    );
    first.process.kill("SIGKILL");
    await first.exited;

    const { child: second, url: secondUrl } = await startReady({ bundled: true });
    url = secondUrl;
    const jobs = await Promise.all(ids.map((id) => waitForTerminalJob(url, apiKey, id, 45_000)));
    expect(jobs.map((job) => job.status)).toEqual(ids.map(() => "succeeded"));
    // The bundled simulator's own record of the tasks it made: one per job, across both runs.
    const made = (await readFile(join(dataDir, "simulator", "tasks.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    for (const id of ids) expect(made.filter((task) => task.idempotencyKey === id)).toHaveLength(1);
    for (const job of jobs) expect(made.map((task) => task.id)).toContain(job.upstreamTaskId);
    const events = await eventsIn(dataDir);
    for (const id of ids)
      expect(events.filter((event) => event.detail.jobId === id)).toHaveLength(1);
    second.process.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 120_000);
});
