/**
 * The step functions' Powertools lines name what they are about: after the step has read the job,
 * its model, API key id, batch and upstream task; and never the upstream key or a presigned
 * query. A job runs Submit, Poll, Download and RecordFailure as on Lambda (runStep), against the
 * simulator (its key a recognisable canary, its output links presigned-style, `?expires=&sig=`)
 * and dynalite, and a small HTTP server in the test answering EventBridge's PutEvents (it has no
 * local stand-in); Download is refused the simulator's http link by the AWS fetch policy (https and
 * public addresses only), so the job ends failed through the path whose error names a URL. What
 * the functions write to stdout and stderr is captured, still written.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createJob } from "@reelay/core/usecases";
import { JobStore } from "@reelay/core/adapters";
import { validate } from "@reelay/core/domain";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { startLocalAws, type LocalAws } from "../../packages/core/test/support/local-aws.ts";
import { functionEnv } from "../support/function-env.ts";
import { captureWrites, jsonLines } from "../support/written.ts";
import { runStep } from "../../functions/support/step.ts";

const CANARY = `sk-reelay-LOG-canary-${randomBytes(12).toString("hex")}`;
let aws: LocalAws;
let simulator: Simulator;
let jobs: JobStore;
let eventBridge: Server;
let written: string[] = [];

/** Accepts every PutEvents, as EventBridge answers it. */
async function startEventBridge(): Promise<string> {
  eventBridge = createServer((req, res) => {
    req.resume().on("end", () => {
      res.writeHead(200, { "content-type": "application/x-amz-json-1.1" });
      res.end(JSON.stringify({ FailedEntryCount: 0, Entries: [{ EventId: "evt-1" }] }));
    });
  });
  await new Promise<void>((r) => eventBridge.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(eventBridge.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  aws = await startLocalAws();
  simulator = await startSimulator({ apiKey: CANARY, generationMs: 1_000, timeScale: 0.05 });
  jobs = new JobStore(aws.ddb, aws.tableName);
  Object.assign(process.env, {
    ...functionEnv(aws),
    REELAY_UPSTREAM_URL: simulator.url,
    SST_Secret_value_UPSTREAM_API_KEY: CANARY,
    AWS_ENDPOINT_URL_EVENTBRIDGE: await startEventBridge(),
    REELAY_LOG_LEVEL: "debug",
  });
  written = captureWrites();
});

afterAll(async () => {
  vi.restoreAllMocks();
  await simulator?.close();
  eventBridge?.close();
  await aws?.stop();
});

/** Runs the job as the state machine would: Submit, Poll until the task ends, Download, and RecordFailure when a step throws. */
async function runJob(jobId: string): Promise<void> {
  let state = (await runStep("submit", { jobId })) as Record<string, unknown>;
  for (let polls = 0; state.outcome === "running" && polls < 50; polls++) {
    await new Promise((r) => setTimeout(r, 100));
    state = (await runStep("poll", state)) as Record<string, unknown>;
  }
  expect(state.outcome).toBe("succeeded");
  const error = await runStep("download", state).then(
    () => undefined,
    (thrown: Error) => ({ Error: thrown.name, Cause: JSON.stringify({ message: thrown.message }) }),
  );
  expect(error, "the AWS fetch policy refuses the simulator's http link").toBeDefined();
  await runStep("recordFailure", { ...state, error });
}

describe("the step functions' log keys", () => {
  it("name the job's model and API key id once the step has read the record, and its upstream task from Submit on", async () => {
    const validation = validate({ model: "gamma-3.1", prompt: "a paper boat", duration_sec: 4 });
    if (!validation.valid) throw new Error("the test request is invalid");
    const { job } = await createJob(jobs, {
      validation,
      source: { type: "api", apiKeyId: "key_logs" },
    });
    const from = written.length;
    await runJob(job.id);
    const lines = jsonLines(written, from).filter((line) => line.jobId === job.id);
    const taskId = (await jobs.require(job.id)).upstreamTaskId;
    expect(taskId).toEqual(expect.any(String));
    const steps = new Set(lines.map((line) => line.step));
    expect([...steps].sort()).toEqual(["Download", "Poll", "RecordFailure", "Submit"]);
    for (const line of lines) {
      expect(line, line.message).toMatchObject({
        service: "reelay",
        jobId: job.id,
        model: "gamma-3.1",
        keyId: "key_logs",
        upstreamTaskId: taskId,
      });
    }
    expect(lines.at(-1)).toMatchObject({
      level: "INFO",
      message: `job ${job.id} failed`,
      step: "RecordFailure",
    });
    expect(lines.some((line) => line.level === "WARN" && line.step === "Download")).toBe(true);
  });

  it("start from none in a warm function's next invocation: a step on an unknown job names that job and nothing of the last", async () => {
    const jobId = "vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV";
    const from = written.length;
    await expect(runStep("finish", { jobId })).rejects.toThrow();
    const [line, ...more] = jsonLines(written, from).filter((l) => l.jobId === jobId);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: "WARN", jobId, step: "Finish" });
    for (const key of ["model", "keyId", "upstreamTaskId", "batchId"])
      expect(line, key).not.toHaveProperty(key);
  });

  it("never carry the upstream key (raw, its random part, base64 or hex) or a presigned query (X-Amz-Signature, X-Amz-Credential, sig=)", () => {
    const text = written.join("");
    expect(text.length).toBeGreaterThan(0);
    const forms = [
      CANARY,
      CANARY.slice(CANARY.lastIndexOf("-") + 1),
      Buffer.from(CANARY).toString("base64").slice(4, -4),
      Buffer.from(CANARY).toString("hex"),
    ];
    for (const form of forms) expect(text.includes(form), form).toBe(false);
    expect(text).not.toMatch(/X-Amz-Signature|X-Amz-Credential|[?&]sig=/i);
  });
});
