/**
 * One X-Ray trace per job on AWS (functions/support/xray.ts, Powertools Tracer): the job's trace id
 * derived from its record, executions started in it, the API's segment and each step's subsegment
 * with the upstream calls under it, as aws-xray-sdk-core sends them to the X-Ray daemon over UDP.
 * The daemon has no local stand-in, so a UDP socket in the test plays it; the upstream is the
 * simulator over real HTTP, the table dynalite. Tracer turns itself on only inside Lambda, so the
 * test sets Lambda's own variables before anything is imported. Step Functions has no local
 * StartExecution endpoint: the starter test captures the command given to a fake client.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { SFNClient } from "@aws-sdk/client-sfn";
import { createJob } from "@reelay/core/usecases";
import { JobStore } from "@reelay/core/adapters";
import { validate } from "@reelay/core/domain";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startLocalAws, type LocalAws } from "../../packages/core/test/support/local-aws.ts";
import { functionEnv } from "../support/function-env.ts";
import { awsProcess } from "../../functions/support/deps.ts";
import { stateMachineStarter } from "../../functions/support/starter.ts";
import { runStep } from "../../functions/support/step.ts";
import {
  jobTraceHeader,
  jobTraceId,
  sendApiSegment,
  tracedStep,
} from "../../functions/support/xray.ts";

// Before the imports run: aws-xray-sdk-core reads LAMBDA_TASK_ROOT and the daemon's address when
// it loads, Tracer AWS_EXECUTION_ENV when it is made.
const { daemon, packets } = await vi.hoisted(async () => {
  const { createSocket } = await import("node:dgram");
  const socket = createSocket("udp4");
  const received: string[] = [];
  socket.on("message", (message) => received.push(message.toString()));
  await new Promise<void>((r) => socket.bind(0, "127.0.0.1", r));
  Object.assign(process.env, {
    LAMBDA_TASK_ROOT: "/var/task",
    AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x",
    AWS_LAMBDA_FUNCTION_NAME: "reelay-test-Submit",
    AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    AWS_XRAY_CONTEXT_MISSING: "IGNORE_ERROR",
  });
  return { daemon: socket, packets: received };
});

const UPSTREAM_KEY = "sk-trace-test-secret";
let aws: LocalAws;
let simulator: Simulator;
let jobs: JobStore;

/** The documents the daemon received since `from`, header line checked and dropped. */
function documents(from = 0): Record<string, any>[] {
  return packets.slice(from).map((packet) => {
    const [header, body] = packet.split("\n", 2);
    expect(JSON.parse(header ?? "")).toEqual({ format: "json", version: 1 });
    return JSON.parse(body ?? "");
  });
}

async function received(count: number, from = 0): Promise<Record<string, any>[]> {
  for (let i = 0; i < 100 && packets.length - from < count; i++)
    await new Promise((r) => setTimeout(r, 20));
  return documents(from);
}

/** The first subsegment called `name` the daemon receives after `from`. */
async function subsegmentNamed(
  name: string,
  from: number,
): Promise<Record<string, any> | undefined> {
  for (let i = 0; i < 100 && !documents(from).some((d) => d.name === name); i++)
    await new Promise((r) => setTimeout(r, 20));
  return documents(from).find((d) => d.name === name);
}

/** An HTTP server that answers every request 429. */
async function throttlingServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(429).end("slow down"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/video/generations/x`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function newJob() {
  const validation = validate({ model: "gamma-3.1", prompt: "a paper boat", duration_sec: 4 });
  if (!validation.valid) throw new Error("the test request is invalid");
  return (await createJob(jobs, { validation, source: { type: "api", apiKeyId: "key_a" } })).job;
}

beforeAll(async () => {
  aws = await startLocalAws();
  simulator = await startSimulator({ apiKey: UPSTREAM_KEY });
  jobs = new JobStore(aws.ddb, aws.tableName);
  Object.assign(process.env, {
    ...functionEnv(aws),
    REELAY_UPSTREAM_URL: simulator.url,
    SST_Secret_value_UPSTREAM_API_KEY: UPSTREAM_KEY,
  });
});

afterAll(async () => {
  daemon?.close();
  await simulator?.close();
  await aws?.stop();
});

describe("a job's X-Ray trace", () => {
  it("the trace id is the job's own: its creation second and a hash of its id, the same every time", () => {
    const job = { id: "vidtsk_01JBZQ3Z8K6W9T3Q2M4N5P6R7S", createdAt: "2026-11-25T20:30:00.900Z" };
    const id = jobTraceId(job);
    expect(id).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
    expect(Number.parseInt(id.slice(2, 10), 16)).toBe(Date.parse("2026-11-25T20:30:00Z") / 1000);
    expect(jobTraceId({ ...job })).toBe(id);
    expect(jobTraceId({ ...job, id: `${job.id.slice(0, -1)}T` })).not.toBe(id);
    expect(jobTraceHeader(job)).toBe(`Root=${id};Sampled=1`);
  });

  it("every execution of a job is started in the job's trace", async () => {
    const sent: Record<string, unknown>[] = [];
    const sfn = {
      send: async (command: { input: Record<string, unknown> }) => sent.push(command.input),
    };
    const job = await newJob();
    await stateMachineStarter(sfn as unknown as SFNClient, "arn:aws:states:::stateMachine:m").start(
      job,
    );
    await stateMachineStarter(sfn as unknown as SFNClient, "arn:aws:states:::stateMachine:m").start(
      {
        ...job,
        admissions: 2,
      },
    );
    expect(sent.map((input) => [input.name, input.traceHeader])).toEqual([
      [job.id, jobTraceHeader(job)],
      [`${job.id}-2`, jobTraceHeader(job)],
    ]);
  });

  it("the API sends the request that made a job as a segment of the job's trace", async () => {
    const job = await newJob();
    const from = packets.length;
    const startedAt = Date.now() - 40;
    sendApiSegment(awsProcess().tracer, job, {
      method: "POST",
      path: "/v1/video/generations",
      startedAt,
    });
    const [segment] = await received(1, from);
    expect(segment).toMatchObject({
      name: "reelay-api",
      trace_id: jobTraceId(job),
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      start_time: startedAt / 1000,
      http: { request: { method: "POST", url: "/v1/video/generations" } },
      annotations: { job_id: job.id },
    });
    expect(segment?.end_time).toBeGreaterThanOrEqual(segment?.start_time);
  });

  it("Submit runs in a subsegment of the invocation annotated with the job id, its upstream create a remote subsegment under it, in the job's trace, without the key", async () => {
    const job = await newJob();
    const parent = "53995c3f42cd8ad8";
    process.env._X_AMZN_TRACE_ID = `Root=${jobTraceId(job)};Parent=${parent};Sampled=1`;
    const from = packets.length;
    await runStep("submit", { jobId: job.id });
    const step = await subsegmentNamed("## Submit", from);
    expect(step).toMatchObject({
      trace_id: jobTraceId(job),
      parent_id: parent,
      annotations: { job_id: job.id, Service: "reelay" },
    });
    const create = documents(from).find(
      (d) => d.namespace === "remote" && d.http?.request?.method === "POST",
    );
    expect(create).toMatchObject({
      type: "subsegment",
      trace_id: jobTraceId(job),
      parent_id: step?.id,
      name: new URL(simulator.url).hostname,
      http: {
        request: { method: "POST", url: expect.stringMatching(/\/v1\/video\/generations$/) },
        response: { status: expect.any(Number) },
      },
    });
    expect(packets.slice(from).join("")).not.toContain(UPSTREAM_KEY);
  });

  it("a call's URL is traced without its query (no presigned signature), a 429 as throttled, and nothing when unsampled", async () => {
    const root = "1-6745c3a8-0123456789abcdef01234567";
    process.env._X_AMZN_TRACE_ID = `Root=${root};Parent=0123456789abcdef;Sampled=1`;
    const from = packets.length;
    const url = `${simulator.url}/video/generations/vidtsk_none?X-Amz-Signature=deadbeef&X-Amz-Credential=AKID`;
    await tracedStep(awsProcess().tracer, "Download", { job_id: "vidtsk_none" }, () =>
      fetch(url, { headers: { authorization: `Bearer ${UPSTREAM_KEY}` } }),
    );
    await subsegmentNamed("## Download", from);
    const call = documents(from).find((d) => d.namespace === "remote");
    expect(call).toMatchObject({
      trace_id: root,
      http: {
        request: {
          method: "GET",
          url: `${new URL(simulator.url).protocol}//${new URL(simulator.url).hostname}${new URL(url).pathname}`,
        },
        response: { status: expect.any(Number) },
      },
    });
    expect(packets.slice(from).join("")).not.toMatch(/X-Amz-Signature|deadbeef|AKID/);

    const throttled = await throttlingServer();
    const beforeThrottle = packets.length;
    await tracedStep(awsProcess().tracer, "Poll", { job_id: "vidtsk_none" }, () =>
      fetch(throttled.url),
    );
    await subsegmentNamed("## Poll", beforeThrottle);
    expect(documents(beforeThrottle).find((d) => d.namespace === "remote")).toMatchObject({
      http: { response: { status: 429 } },
      throttle: true,
      error: true,
    });
    await throttled.close();

    process.env._X_AMZN_TRACE_ID = `Root=${root};Parent=0123456789abcdef;Sampled=0`;
    const before = packets.length;
    await tracedStep(awsProcess().tracer, "Poll", { job_id: "vidtsk_none" }, () =>
      fetch(`${simulator.url}/models`),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(packets.length).toBe(before);
  });
});
