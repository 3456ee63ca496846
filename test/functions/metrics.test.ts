/**
 * The functions' metrics as CloudWatch embedded metric format: a step run as on Lambda (runStep),
 * its AWS clients pointed at dynalite and at a stand-in EventBridge on 127.0.0.1 by the SDK's own
 * endpoint settings, writes its job's outcome as EMF lines on stdout once, at the end of the
 * invocation. The adapter over Powertools Metrics is checked against the format: namespace,
 * dimensions, units.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Metrics as PowertoolsMetrics } from "@aws-lambda-powertools/metrics";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createJob } from "@reelay/core/usecases";
import { JobStore } from "@reelay/core/adapters";
import { validate } from "@reelay/core/domain";
import { startLocalAws, type LocalAws } from "../../packages/core/test/support/local-aws.ts";
import { emfMetrics } from "../../functions/support/metrics.ts";
import { runStep } from "../../functions/support/step.ts";
import { captureWrites, jsonLines } from "../support/written.ts";

let aws: LocalAws;
let jobs: JobStore;
let bus: Server;
const putEvents: string[] = [];
let written: string[] = [];

beforeAll(async () => {
  aws = await startLocalAws();
  jobs = new JobStore(aws.ddb, aws.tableName);
  // EventBridge's PutEvents, as the SDK reads its answer.
  bus = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      putEvents.push(body);
      res
        .writeHead(200, { "content-type": "application/x-amz-json-1.1" })
        .end(JSON.stringify({ FailedEntryCount: 0, Entries: [{ EventId: "e1" }] }));
    });
  });
  await new Promise<void>((resolve) => bus.listen(0, "127.0.0.1", resolve));
  Object.assign(process.env, {
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "S3RVER",
    AWS_SECRET_ACCESS_KEY: "S3RVER",
    AWS_ENDPOINT_URL_DYNAMODB: aws.dynamoEndpoint,
    AWS_ENDPOINT_URL_EVENTBRIDGE: `http://127.0.0.1:${(bus.address() as AddressInfo).port}`,
    REELAY_TABLE_NAME: aws.tableName,
    REELAY_BUCKET_NAME: aws.bucket,
    REELAY_LOG_LEVEL: "error",
  });
  written = captureWrites();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await new Promise<void>((resolve) =>
    bus === undefined ? resolve() : bus.close(() => resolve()),
  );
  await aws?.stop();
});

/** The EMF lines written since `from`. */
function emfLines(from: number): Record<string, any>[] {
  return jsonLines(written, from).filter((line) => "_aws" in line);
}

async function runningJob(): Promise<string> {
  const validation = validate({ model: "gamma-3.1", prompt: "a paper boat", duration_sec: 4 });
  if (!validation.valid) throw new Error("the test request is invalid");
  const { job } = await createJob(jobs, { validation, source: { type: "api", apiKeyId: "key_a" } });
  await jobs.transition(job.id, { from: ["queued"], to: "running" });
  return job.id;
}

describe("EMF lines from the AWS functions", () => {
  it("RecordFailure of a running job writes reelay_jobs_failed_total 1 by model and error.code and in total on one EMF line, by code alone for its alarm on another (no Powertools warning), and its duration, in namespace reelay", async () => {
    const jobId = await runningJob();
    const from = written.length;
    await expect(
      runStep("recordFailure", {
        jobId,
        error: { code: "upstream_task_failed", message: "the renderer crashed" },
      }),
    ).resolves.toMatchObject({ status: "failed" });
    expect(putEvents.some((body) => body.includes(jobId))).toBe(true);
    const lines = emfLines(from);
    const failed = lines.filter((line) => "reelay_jobs_failed_total" in line);
    expect(failed).toEqual([
      {
        _aws: {
          Timestamp: expect.any(Number),
          CloudWatchMetrics: [
            {
              Namespace: "reelay",
              // The labels and the total.
              Dimensions: [["model", "code"], []],
              Metrics: [{ Name: "reelay_jobs_failed_total", Unit: "Count" }],
            },
          ],
        },
        model: "gamma-3.1",
        code: "upstream_task_failed",
        reelay_jobs_failed_total: 1,
      },
      {
        _aws: {
          Timestamp: expect.any(Number),
          CloudWatchMetrics: [
            {
              Namespace: "reelay",
              // `code` alone for the jobs-ending-internal alarm, on a line of its own.
              Dimensions: [["code"]],
              Metrics: [{ Name: "reelay_jobs_failed_total", Unit: "Count" }],
            },
          ],
        },
        code: "upstream_task_failed",
        reelay_jobs_failed_total: 1,
      },
    ]);
    expect(written.slice(from).join("")).not.toContain("EMF key");
    const duration = lines.find((line) => "reelay_job_duration_seconds" in line);
    expect(duration).toMatchObject({ model: "gamma-3.1" });
    expect(duration?.reelay_job_duration_seconds).toBeGreaterThanOrEqual(0);
    // One flush per invocation: nothing else is left to write.
    const after = written.length;
    await expect(runStep("recordFailure", { jobId })).resolves.toMatchObject({ status: "failed" });
    expect(emfLines(after)).toEqual([]);
  });
});

describe("the EMF adapter over Powertools Metrics", () => {
  it("groups one invocation's values by labels, one line each: counters summed, histogram values listed, gauges last, units from the catalog, no service dimension", () => {
    const from = written.length;
    const metrics = emfMetrics(
      new PowertoolsMetrics({ namespace: "reelay", serviceName: "reelay" }),
      () => 1_700_000_000_000,
    );
    metrics.count("reelay_upstream_requests_total", { operation: "get" });
    metrics.count("reelay_upstream_requests_total", { operation: "get" }, 2);
    metrics.count("reelay_upstream_429_total", { operation: "get" });
    metrics.count("reelay_upstream_requests_total", { operation: "create" });
    metrics.observe("reelay_detection_delay_seconds", { model: "os-2" }, 1.5);
    metrics.observe("reelay_detection_delay_seconds", { model: "os-2" }, 2.5);
    metrics.set("reelay_queue_depth", {}, 4);
    metrics.set("reelay_queue_depth", {}, 3);
    metrics.count("reelay_copied_bytes_total", {}, 1000);
    metrics.flush();
    const parsed = emfLines(from);
    expect(parsed).toEqual([
      expect.objectContaining({
        operation: "get",
        reelay_upstream_requests_total: 3,
        reelay_upstream_429_total: 1,
      }),
      expect.objectContaining({ operation: "create", reelay_upstream_requests_total: 1 }),
      expect.objectContaining({ model: "os-2", reelay_detection_delay_seconds: [1.5, 2.5] }),
      expect.objectContaining({ reelay_queue_depth: 3, reelay_copied_bytes_total: 1000 }),
    ]);
    expect(parsed[0]?._aws).toEqual({
      Timestamp: 1_700_000_000_000,
      CloudWatchMetrics: [
        {
          Namespace: "reelay",
          Dimensions: [["operation"], []],
          Metrics: [
            { Name: "reelay_upstream_requests_total", Unit: "Count" },
            { Name: "reelay_upstream_429_total", Unit: "Count" },
          ],
        },
      ],
    });
    expect(parsed[3]?._aws.CloudWatchMetrics[0]).toEqual({
      Namespace: "reelay",
      Dimensions: [[]],
      Metrics: [
        { Name: "reelay_queue_depth", Unit: "Count" },
        { Name: "reelay_copied_bytes_total", Unit: "Bytes" },
      ],
    });
    const after = written.length;
    metrics.flush();
    expect(emfLines(after)).toEqual([]);
  });
});
