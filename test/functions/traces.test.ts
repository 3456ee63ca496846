/**
 * One X-Ray trace per job on AWS (functions/support/xray.ts): the job's trace id derived from its
 * record, executions started in it, the API's segment and each upstream call as a subsegment sent
 * to the X-Ray daemon over UDP. The daemon has no local stand-in, so a UDP socket in the test plays
 * it; the upstream is the simulator over real HTTP, the table dynalite. Step Functions has no
 * local StartExecution endpoint: the starter test captures the command given to a fake client.
 */
import { createSocket, type Socket } from "node:dgram";
import type { AddressInfo } from "node:net";
import type { SFNClient } from "@aws-sdk/client-sfn";
import { createJob } from "@reelay/core/usecases";
import { JobStore } from "@reelay/core/adapters";
import { validate } from "@reelay/core/domain";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../packages/core/test/support/local-aws.ts";
import { functionEnv } from "../support/function-env.ts";
import { stateMachineStarter } from "../../functions/support/starter.ts";
import { runStep } from "../../functions/support/step.ts";
import {
  jobTraceHeader,
  jobTraceId,
  sendApiSegment,
  xrayFetch,
} from "../../functions/support/xray.ts";

const UPSTREAM_KEY = "sk-trace-test-secret";
let daemon: Socket;
let daemonAddress: string;
const packets: string[] = [];
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

async function newJob() {
  const validation = validate({ model: "gamma-3.1", prompt: "a paper boat", duration_sec: 4 });
  if (!validation.valid) throw new Error("the test request is invalid");
  return (await createJob(jobs, { validation, source: { type: "api", apiKeyId: "key_a" } })).job;
}

beforeAll(async () => {
  daemon = createSocket("udp4");
  daemon.on("message", (message) => packets.push(message.toString()));
  await new Promise<void>((r) => daemon.bind(0, "127.0.0.1", r));
  daemonAddress = `127.0.0.1:${(daemon.address() as AddressInfo).port}`;
  aws = await startLocalAws();
  simulator = await startSimulator({ apiKey: UPSTREAM_KEY });
  jobs = new JobStore(aws.ddb, aws.tableName);
  Object.assign(process.env, {
    ...functionEnv(aws),
    REELAY_UPSTREAM_URL: simulator.url,
    SST_Secret_value_UPSTREAM_API_KEY: UPSTREAM_KEY,
    AWS_XRAY_DAEMON_ADDRESS: daemonAddress,
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
    await sendApiSegment(job, { method: "POST", path: "/v1/video/generations", startedAt });
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

  it("Submit's upstream create is a subsegment under the invocation's segment, in the job's trace, without the key", async () => {
    const job = await newJob();
    const parent = "53995c3f42cd8ad8";
    process.env._X_AMZN_TRACE_ID = `Root=${jobTraceId(job)};Parent=${parent};Sampled=1`;
    const from = packets.length;
    await runStep("submit", { jobId: job.id });
    const subsegments = (await received(1, from)).filter((d) => d.type === "subsegment");
    expect(subsegments.length).toBeGreaterThanOrEqual(1);
    expect(subsegments[0]).toMatchObject({
      trace_id: jobTraceId(job),
      parent_id: parent,
      namespace: "remote",
      name: new URL(simulator.url).host,
      http: {
        request: { method: "POST", url: `${simulator.url}/video/generations` },
        response: { status: expect.any(Number) },
      },
    });
    expect(packets.slice(from).join("")).not.toContain(UPSTREAM_KEY);
  });

  it("a call's URL is traced without its query (no presigned signature), a 429 as throttled, and nothing when unsampled", async () => {
    const traced = xrayFetch(async () => new Response("slow down", { status: 429 }), {
      AWS_XRAY_DAEMON_ADDRESS: daemonAddress,
      _X_AMZN_TRACE_ID:
        "Root=1-6745c3a8-0123456789abcdef01234567;Parent=0123456789abcdef;Sampled=1",
    });
    const from = packets.length;
    await traced("https://cdn.example/out/v.mp4?X-Amz-Signature=deadbeef&X-Amz-Credential=AKID");
    const [doc] = await received(1, from);
    expect(doc).toMatchObject({
      http: {
        request: { method: "GET", url: "https://cdn.example/out/v.mp4" },
        response: { status: 429 },
      },
      throttle: true,
      error: true,
    });
    expect(packets.slice(from).join("")).not.toMatch(/X-Amz-Signature|deadbeef|AKID/);

    const unsampled = xrayFetch(async () => new Response("ok"), {
      AWS_XRAY_DAEMON_ADDRESS: daemonAddress,
      _X_AMZN_TRACE_ID:
        "Root=1-6745c3a8-0123456789abcdef01234567;Parent=0123456789abcdef;Sampled=0",
    });
    const before = packets.length;
    await unsampled("https://cdn.example/out/v.mp4");
    await new Promise((r) => setTimeout(r, 100));
    expect(packets.length).toBe(before);
  });
});
