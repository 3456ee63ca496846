/**
 * Acceptance: SIGKILL the local stack with jobs in flight, start it again: every job ends, with one
 * upstream task each and one terminal event each. The stack runs as a child process (`reelay up`,
 * as a user runs it); the simulator runs here, so its counters outlive the kill.
 */
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "@reelay/simulator";
import {
  eventsFor,
  freePort,
  getJson,
  postJson,
  tempDir,
  waitFor,
  waitForTerminalJob,
} from "./support/stack.ts";
import { killChildren, startReady as startChild, stopChildren } from "./support/child-stack.ts";

const JOBS = 5;
/** A cap, not a wait: generous for a loaded 2-core machine. */
const WAIT_CAP_MS = 120_000;
/** The simulator's tasks take this long by its clock: none ends before the test moves the clock on. */
const GENERATION_MS = 10 * 60_000;

const apiKey = `e2e_${randomBytes(12).toString("hex")}`;
const upstreamKey = `sim_${randomBytes(12).toString("hex")}`;
let simulator: Simulator;
/** Added to the simulator's clock: moved past GENERATION_MS once the stack is back, so the tasks end then. */
let skipMs = 0;
let dataDir: string;
let port: number;

/** With `bundled`, the stack runs its own simulator (which dies with it); else the one here. */
async function startReady(options: { bundled?: boolean } = {}) {
  const started = await startChild(
    {
      dataDir,
      args: options.bundled ? ["--sim-time-scale", "0.3"] : [],
      env: {
        REELAY_API_KEY: apiKey,
        ...(options.bundled
          ? {}
          : { REELAY_UPSTREAM_URL: simulator.url, REELAY_UPSTREAM_API_KEY: upstreamKey }),
      },
    },
    port,
  );
  port = started.port;
  return started;
}

beforeAll(async () => {
  // Every job is still being polled when the stack is killed, however slow the machine: its task
  // ends only when the test moves the simulator's clock on.
  simulator = await startSimulator({
    apiKey: upstreamKey,
    generationMs: GENERATION_MS,
    timeScale: 1,
    now: () => Date.now() + skipMs,
  });
});

beforeEach(async () => {
  dataDir = await tempDir("crash");
  port = await freePort();
});

afterAll(async () => {
  killChildren();
  await simulator?.close();
});

afterEach(async () => {
  // A test that failed midway leaves its stack running: it goes before its data folder.
  await stopChildren();
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
    // Waited for, not read after the fact: on a loaded machine the counters can reach their totals
    // while a job's record has not yet moved to running.
    await waitFor(
      "every job to be submitted, polled and running",
      async () => {
        const counters = simulator.counters();
        if (
          counters.tasksCreated !== JOBS ||
          !ids.every((id) => counters.tasksByKey[id] === 1) ||
          counters.polls < JOBS
        )
          return undefined;
        const { body: midway } = await getJson(`${url}/v1/jobs?limit=100`, apiKey);
        const mine = (midway.data as any[]).filter((job) => ids.includes(job.id));
        return mine.length === JOBS && mine.every((job) => job.status === "running")
          ? true
          : undefined;
      },
      WAIT_CAP_MS,
      100,
    );
    first.process.kill("SIGKILL");
    await first.exited;

    const { child: second, url: secondUrl } = await startReady();
    url = secondUrl;
    skipMs = GENERATION_MS;
    const jobs = await Promise.all(
      ids.map((id) => waitForTerminalJob(url, apiKey, id, WAIT_CAP_MS)),
    );
    expect(jobs.map((job) => job.status)).toEqual(ids.map(() => "succeeded"));
    expect(second.output.join("")).toContain(`resumed    ${JOBS} unfinished job(s)`);

    const counters = simulator.counters();
    expect(counters.tasksCreated).toBe(JOBS);
    expect(Object.fromEntries(ids.map((id) => [id, counters.tasksByKey[id]]))).toEqual(
      Object.fromEntries(ids.map((id) => [id, 1])),
    );
    for (const job of jobs) expect(job.upstreamTaskId).toBe(simulator.task(job.upstreamTaskId)?.id);

    for (const id of ids) {
      const events = await eventsFor(dataDir, id);
      expect(events.map((event) => event["detail-type"])).toEqual(["Generation Succeeded"]);
    }

    second.process.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 400_000);

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
      WAIT_CAP_MS,
      100,
    );
    first.process.kill("SIGKILL");
    await first.exited;

    const { child: second, url: secondUrl } = await startReady({ bundled: true });
    url = secondUrl;
    const jobs = await Promise.all(
      ids.map((id) => waitForTerminalJob(url, apiKey, id, WAIT_CAP_MS)),
    );
    expect(jobs.map((job) => job.status)).toEqual(ids.map(() => "succeeded"));
    // The bundled simulator's own record of the tasks it made: one per job, across both runs.
    const made = (await readFile(join(dataDir, "simulator", "tasks.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    for (const id of ids) expect(made.filter((task) => task.idempotencyKey === id)).toHaveLength(1);
    for (const job of jobs) expect(made.map((task) => task.id)).toContain(job.upstreamTaskId);
    for (const id of ids) expect(await eventsFor(dataDir, id)).toHaveLength(1);
    second.process.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 400_000);
});
