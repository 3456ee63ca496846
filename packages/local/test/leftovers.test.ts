/**
 * What a killed process leaves behind, and the next start makes good.
 *
 * Killed between a job's terminal write and its event: a terminal job that no execution will ever
 * touch again (resume starts only unfinished jobs). The next start sends the missing event, once:
 * a job whose event did reach events.jsonl before the kill gets no second one. (Found by the crash
 * soak: jobs succeeded with no Generation Succeeded event.)
 *
 * Killed between a dispatcher's slot write and its admit write: a waiting job that holds an
 * upstream slot. With the limit full of such slots the queue is held behind them until the sweep's
 * grace period (a minute) frees them; the next start frees them before its dispatcher's first run.
 * (Found by the kill soak: a job still queued, holding the only slot.)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { loadConfig } from "@reelay/core/wiring";
import { JsonlFileSink, AdmissionStore, JobStore } from "@reelay/core/adapters";
import { buildTerminalEvent, type Job, validate } from "@reelay/core/domain";
import { createJob } from "@reelay/core/usecases";
import { startStandins } from "../src/aws-standins.ts";
import { EVENTS_FILE, startLocalStack, type LocalStack } from "../src/stack.ts";

let dataDir: string | undefined;
let stack: LocalStack | undefined;

afterEach(async () => {
  await stack?.stop();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  stack = undefined;
  dataDir = undefined;
});

async function failedJob(jobs: JobStore, prompt: string, emitted = false): Promise<Job> {
  const validation = validate({ model: "gamma-3.1", prompt, duration_sec: 4 });
  const { job } = await createJob(jobs, { validation, source: { type: "api" } });
  const failed = await jobs.transition(job.id, {
    from: ["queued"],
    to: "failed",
    set: { error: { code: "timeout", message: "late" }, finishedAt: new Date().toISOString() },
  });
  return emitted ? jobs.update(job.id, { eventEmittedAt: new Date().toISOString() }) : failed;
}

it("the next start sends the event a killed process owed, once, and records it; an event already written is not sent again", async () => {
  dataDir = await mkdtemp(join(tmpdir(), "reelay-leftovers-"));
  const events = new JsonlFileSink(join(dataDir, EVENTS_FILE));
  const standins = await startStandins({ dataDir, s3Port: 0 });
  const jobs = new JobStore(standins.ddb, standins.tableName);
  // Killed after the terminal write, before the event.
  const owed = await failedJob(jobs, "owed an event");
  // Killed after the event was appended, before eventEmittedAt was recorded.
  const written = await failedJob(jobs, "event written, not recorded");
  await events.emit(buildTerminalEvent(written));
  // Ended normally.
  const done = await failedJob(jobs, "ended normally", true);
  await events.emit(buildTerminalEvent(done));
  await standins.close();

  const config = loadConfig({
    REELAY_PORT: "1",
    REELAY_DATA_DIR: dataDir,
    REELAY_UPSTREAM_URL: "http://127.0.0.1:9/v1",
  });
  stack = await startLocalStack({
    config: { ...config, port: 0 },
    quiet: true,
    s3Port: 0,
    previews: false,
  });
  const perJob = (await events.readAll())
    .map((event) => `${event.detail.jobId} ${event["detail-type"]}`)
    .sort();
  expect(perJob).toEqual([owed, written, done].map((job) => `${job.id} Generation Failed`).sort());
  expect(stack.resumed).toEqual([]);
  await stack.stop();
  stack = undefined;

  // Recorded as sent: a third start sends nothing more.
  stack = await startLocalStack({
    config: { ...config, port: 0 },
    quiet: true,
    s3Port: 0,
    previews: false,
  });
  expect(await events.readAll()).toHaveLength(3);
}, 60_000);

it("a waiting job left holding the only slot by a killed process is admitted at the next start, well before the sweep's grace", async () => {
  dataDir = await mkdtemp(join(tmpdir(), "reelay-stranded-"));
  const standins = await startStandins({ dataDir, s3Port: 0 });
  const jobs = new JobStore(standins.ddb, standins.tableName);
  const admission = new AdmissionStore(standins.ddb, standins.tableName);
  const validation = validate({ model: "gamma-3.1", prompt: "stranded", duration_sec: 4 });
  const { job } = await createJob(jobs, { validation, source: { type: "api" } });
  await admission.enqueue({
    jobId: job.id,
    lane: "api",
    priority: "normal",
    enqueuedAt: job.createdAt,
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  await admission.ensure();
  // Killed here: the slot written, the job not yet marked admitted.
  expect(
    await admission.acquire(job.id, { limit: 1, now: Date.now(), spacingMs: 0, lane: "api" }),
  ).toBe("acquired");
  await standins.close();

  const config = loadConfig({
    REELAY_PORT: "1",
    REELAY_DATA_DIR: dataDir,
    REELAY_UPSTREAM_CONCURRENCY: "1",
  });
  stack = await startLocalStack({
    config: { ...config, port: 0 },
    quiet: true,
    s3Port: 0,
    previews: false,
  });
  const started = Date.now();
  let status = "queued";
  while (status === "queued" && Date.now() - started < 20_000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const answer = await fetch(`${stack.url}/v1/jobs/${job.id}`, {
      headers: { authorization: `Bearer ${stack.apiKey}` },
    });
    status = ((await answer.json()) as { status: string }).status;
  }
  expect(status).not.toBe("queued");
}, 60_000);
