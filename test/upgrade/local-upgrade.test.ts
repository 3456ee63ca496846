/**
 * An upgrade with work in flight, on one machine: the previous release (CHANGELOG.md's newest
 * release before HEAD, extracted from git) runs `reelay up` on a data dir against the simulator,
 * takes 24 jobs, and is stopped (SIGTERM) once 10 have ended; this checkout's `reelay up`
 * starts on the same data dir and port and finishes the rest. The soak's machinery (soak/) runs the
 * stack as a child, submits the jobs and gives the verdict.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../soak/client.ts";
import { NO_FAULTS, seededRandom } from "../../soak/faults.ts";
import { planJobs } from "../../soak/plan.ts";
import { eventsWritten, evidenceFrom, submitAll } from "../../soak/run.ts";
import { type SoakStack, startChildStack } from "../../soak/stack.ts";
import { findingsOf, type SubmittedJob, summaryLine, verify } from "../../soak/verify.ts";
import { JsonlFileSink } from "@reelay/core/adapters";
import { extractRelease, previousRelease, type Release } from "../support/releases.ts";

/** Enough that, stopped with STOP_AT ended, the rest are at every stage; each job is CPU the suite pays. */
const JOBS = 24;
const STOP_AT = 10;
const CURRENT_BIN = fileURLToPath(new URL("../../packages/cli/bin/reelay.js", import.meta.url));
const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);
/** A cap on each wait below, not a measure: on a loaded 2-core machine a stack start alone takes a minute. */
const PATIENCE_MS = 240_000;
/** Long enough that no job meets it, however loaded the machine: a timeout here is a finding. */
const JOB_TIMEOUT_S = 600;
/** The deployment's budget over every job, so what the ledger says was charged can be read back. */
const BUDGET = JSON.stringify({ amount: 100_000, unit: "currency", period: "total" });

/**
 * How the release is stopped: SIGTERM, as an upgrade does. SIGKILL here runs the harsher variant
 * (the release killed mid-step; it passes too), by hand: one run of JOBS jobs is the suite's share.
 */
const SIGNAL: "SIGTERM" | "SIGKILL" = "SIGTERM";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let release: Release;
let tree: string;
let workDir: string;
let simulator: Simulator;
const simulatorKey = `sim_${randomBytes(8).toString("hex")}`;
let stack: SoakStack | undefined;

beforeAll(async () => {
  release = previousRelease();
  tree = extractRelease(release);
  workDir = await mkdtemp(join(tmpdir(), "reelay-upgrade-"));
  simulator = await startSimulator({ apiKey: simulatorKey });
}, PATIENCE_MS);

/** Set when the test passed: a failed run keeps its work dir (data dir, stack.log, verdict.json). */
let passed = false;

afterAll(async () => {
  await stack?.stop().catch(() => undefined);
  await simulator?.close();
  if (passed) await rm(workDir, { recursive: true, force: true });
  else if (workDir !== undefined) console.error(`local-upgrade: kept ${workDir}`);
});

/** How many of the jobs are terminal in the listing, and how many are acknowledged at all. */
async function progress(client: ApiClient, jobs: SubmittedJob[]) {
  const listed = new Map((await client.listJobs()).map((job) => [job.id as string, job.status]));
  const ids = jobs.flatMap((job) => (job.jobId === undefined ? [] : [job.jobId]));
  const ended = ids.filter((id) => TERMINAL.has(listed.get(id))).length;
  return { acknowledged: ids.length, ended, inFlight: ids.length - ended };
}

async function until(
  what: string,
  client: ApiClient,
  jobs: SubmittedJob[],
  done: (p: Awaited<ReturnType<typeof progress>>) => boolean,
) {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const now = await progress(client, jobs);
    if (done(now)) return now;
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${PATIENCE_MS / 1000} s (${JSON.stringify(now)})`);
    await sleep(1_000);
  }
}

describe("an upgrade in place with work in flight", () => {
  it(`the previous release takes ${JOBS} jobs and is stopped (${SIGNAL}) with ${STOP_AT} ended; this checkout finishes them on the same data dir: each ends once, 0 lost, 0 duplicate upstream tasks, 0 charged twice`, async () => {
    const dataDir = join(workDir, "data");
    await mkdir(dataDir);
    const apiKey = `upgrade_${randomBytes(12).toString("hex")}`;
    const lines: string[] = [];
    stack = await startChildStack({
      dataDir,
      apiKey,
      upstream: { url: simulator.url, apiKey: simulatorKey },
      jobTimeoutS: JOB_TIMEOUT_S,
      logFile: join(workDir, "stack.log"),
      budget: BUDGET,
      bin: join(tree, "packages/cli/bin/reelay.js"),
    });
    const client = new ApiClient(stack.url, apiKey);
    // The release's own code runs, not this checkout's under its name: releases.ts checked that its
    // packages import each other, and it says it is that release.
    expect((await client.call("GET", "/healthz")).body.version).toBe(release.version);
    // Tasks of 2 to 50 s: when STOP_AT have ended, the rest are at every stage (the upstream task
    // running, a download under way, the batch counts) and many have half a minute to go.
    const jobs: SubmittedJob[] = planJobs({
      jobs: JOBS,
      mix: NO_FAULTS,
      random: seededRandom(7),
      runId: randomBytes(4).toString("hex"),
      generationMs: [2_000, 50_000],
      outputBytes: [20_000, 80_000],
    }).map((job) => ({ ...job, jobId: undefined }));
    await submitAll(jobs, client, 50, (line) => lines.push(line));
    expect(lines).toEqual([]);

    // SIGTERM once STOP_AT have ended: the release's stop lets the steps under way finish (for up to
    // its 10 s grace), so the jobs it leaves are those whose tasks run longer than that.
    const events = new JsonlFileSink(join(dataDir, "events.jsonl"));
    const atStop = await until(`${STOP_AT} jobs ended`, client, jobs, (p) => p.ended >= STOP_AT);
    let endedByRelease = 0;
    if (stack.replace === undefined)
      throw new Error("the stack runs in this process, not as a child");
    await stack.replace(CURRENT_BIN, SIGNAL, async () => {
      endedByRelease = (await events.readAll()).length;
    });
    await until("every job ended", client, jobs, (p) => p.ended === JOBS);

    await eventsWritten(jobs, client, events);
    const evidence = await evidenceFrom(jobs, client, dataDir, {
      settings: { url: simulator.url, apiKey: simulatorKey },
      counters: () => simulator.counters(),
      task: (id) => simulator.task(id),
      close: () => simulator.close(),
    });
    const verdict = await verify(evidence);
    await writeFile(join(workDir, "verdict.json"), JSON.stringify(verdict, null, 1));
    // Only the kinds with findings, each with its jobs and why: none.
    const found = Object.entries(findingsOf(verdict)).filter(([, list]) => list.length > 0);
    expect(found, `kept in ${workDir}`).toEqual([]);
    expect(verdict.usage).toEqual([]);
    expect(verdict.succeeded).toBe(JOBS);
    // Both releases ended jobs: the current one finished what the release left in flight.
    expect(atStop.inFlight).toBeGreaterThan(0);
    const endedByCurrent = evidence.events.length - endedByRelease;
    expect({ endedByRelease, endedByCurrent }).toEqual({
      endedByRelease: expect.toSatisfy((n: number) => n > 0 && n < JOBS),
      endedByCurrent: JOBS - endedByRelease,
    });
    expect(summaryLine(verdict)).toMatch(/, 0 lost, 0 duplicate upstream tasks, /);
    // One upstream task per job, over both releases.
    expect(simulator.counters().tasksCreated).toBe(JOBS);

    // Charged once: the budget's ledger holds exactly the sum of the jobs' costs (in millionths,
    // as it counts); a job settled twice, or reserved again by the new release, would add to it.
    const usage = await client.call("GET", "/v1/usage?from=2000-01-01&to=2100-01-01");
    const ledger = (usage.body.budgets as { budget: string; used: number }[]).find(
      (b) => b.budget === "deployment",
    );
    const costs = [...evidence.records.values()].reduce(
      (sum, record) => sum + (record.cost === null ? 0 : Math.round(record.cost * 1e6)),
      0,
    );
    expect(costs).toBeGreaterThan(0);
    expect(Math.round((ledger?.used ?? Number.NaN) * 1e6)).toBe(costs);
    passed = true;
  }, 900_000);
});
