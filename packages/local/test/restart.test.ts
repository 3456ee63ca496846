/**
 * A graceful stop (Ctrl-C) with a job in flight aborts its execution; the next start on the same
 * data dir finds the job in dynalite's files, resumes it from its record and keeps the API key.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@reelay/core/wiring";
import { JsonlFileSink } from "@reelay/core/adapters";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { EVENTS_FILE, startLocalStack, type LocalStack } from "../src/stack.ts";

let simulator: Simulator;
let dataDir: string;
const stacks: LocalStack[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ apiKey: "sim-key", generationMs: 3_000, timeScale: 1 });
  dataDir = await mkdtemp(join(tmpdir(), "reelay-restart-"));
});
afterAll(async () => {
  await Promise.all(stacks.map((stack) => stack.stop()));
  await simulator?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function start(): Promise<LocalStack> {
  const config = loadConfig({
    REELAY_PORT: "1",
    REELAY_DATA_DIR: dataDir,
    REELAY_UPSTREAM_URL: simulator.url,
    REELAY_UPSTREAM_API_KEY: "sim-key",
  });
  const stack = await startLocalStack({
    config: { ...config, port: 0 },
    quiet: true,
    s3Port: 0,
    previews: false,
  });
  stacks.push(stack);
  return stack;
}

async function job(stack: LocalStack, id: string): Promise<any> {
  const response = await fetch(`${stack.url}/v1/jobs/${id}`, {
    headers: { authorization: `Bearer ${stack.apiKey}` },
  });
  return response.json();
}

describe("stopping and starting the local stack", () => {
  it("a job in flight at stop() resumes on the next start and succeeds with one upstream task and one event; the API key is kept", async () => {
    const first = await start();
    expect(first.upstream).toBe(new URL(simulator.url).host);
    const created = await fetch(`${first.url}/v1/video/generations`, {
      method: "POST",
      headers: { authorization: `Bearer ${first.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "gamma-3.1",
        prompt: "a paper boat in the rain",
        duration_sec: 4,
      }),
    });
    const id = ((await created.json()) as { task_id: string }).task_id;
    for (let i = 0; i < 100 && simulator.counters().tasksByKey[id] !== 1; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await first.stop();
    expect(simulator.counters().tasksByKey[id]).toBe(1);

    const second = await start();
    expect(second.apiKey).toBe(first.apiKey);
    expect(second.resumed).toEqual([id]);
    let record = await job(second, id);
    for (let i = 0; i < 200 && record.status !== "succeeded" && record.status !== "failed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      record = await job(second, id);
    }
    expect(record.status).toBe("succeeded");
    expect(simulator.counters().tasksByKey[id]).toBe(1);
    // The record turns succeeded just before its event is appended: wait for the event, not the status.
    const eventsOf = async () =>
      (await new JsonlFileSink(join(dataDir, EVENTS_FILE)).readAll()).filter(
        (event) => event.detail.jobId === id,
      );
    let events = await eventsOf();
    for (let i = 0; i < 50 && events.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      events = await eventsOf();
    }
    expect(events).toHaveLength(1);
  });
});
