/**
 * The step functions log through Powertools Logger: one JSON object a line with the service, the
 * job id and the step; a job's end at info, a failed step at warn with its error, every other step
 * at debug. The step handler runs as on Lambda (runStep), its AWS clients pointed at dynalite by the
 * SDK's own endpoint setting; what it writes to stdout and stderr is captured, still written.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createJob } from "@reelay/core/usecases";
import { JobStore } from "@reelay/core/adapters";
import { validate, VERSION } from "@reelay/core/domain";
import { startLocalAws, type LocalAws } from "../../packages/core/test/support/local-aws.ts";
import { functionEnv } from "../support/function-env.ts";
import { captureWrites, jsonLines } from "../support/written.ts";
import { runStep } from "../../functions/support/step.ts";

let aws: LocalAws;
let jobs: JobStore;
let written: string[] = [];

beforeAll(async () => {
  aws = await startLocalAws();
  jobs = new JobStore(aws.ddb, aws.tableName);
  Object.assign(process.env, {
    ...functionEnv(aws),
    REELAY_LOG_LEVEL: "debug",
  });
  written = captureWrites();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await aws?.stop();
});

/** The JSON lines written since `from` that name this job. */
function linesAbout(jobId: string, from: number): Record<string, any>[] {
  return jsonLines(written, from).filter((line) => JSON.stringify(line).includes(jobId));
}

async function cancelledJob(): Promise<string> {
  const validation = validate({ model: "gamma-3.1", prompt: "a paper boat", duration_sec: 4 });
  if (!validation.valid) throw new Error("the test request is invalid");
  const { job } = await createJob(jobs, { validation, source: { type: "api", apiKeyId: "key_a" } });
  await jobs.transition(job.id, { from: ["queued"], to: "cancelled" });
  // Its event went out already: RecordFailure then only reports the status the job has.
  await jobs.update(job.id, { eventEmittedAt: new Date().toISOString() });
  return job.id;
}

describe("the step functions' log lines", () => {
  it("a job's end is one INFO line naming the job, the step, the status and the release's version", async () => {
    const jobId = await cancelledJob();
    const from = written.length;
    await expect(runStep("recordFailure", { jobId })).resolves.toMatchObject({
      status: "cancelled",
    });
    expect(linesAbout(jobId, from)).toEqual([
      expect.objectContaining({
        level: "INFO",
        service: "reelay",
        version: VERSION,
        message: `job ${jobId} cancelled`,
        timestamp: expect.any(String),
        jobId,
        step: "RecordFailure",
        status: "cancelled",
      }),
    ]);
  });

  it("a failed step is a WARN line with the job, the step and the error's code and message", async () => {
    const jobId = "vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV";
    const from = written.length;
    await expect(runStep("finish", { jobId })).rejects.toThrow();
    const [line, ...more] = linesAbout(jobId, from);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: "WARN",
      service: "reelay",
      message: `job ${jobId}: Finish failed`,
      jobId,
      step: "Finish",
      error: { code: "job_not_found", message: expect.stringContaining(jobId) },
    });
  });
});
