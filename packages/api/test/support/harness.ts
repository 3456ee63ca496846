/**
 * The API over real local parts: a fresh jobs table in dynalite and the bucket in s3rver per harness.
 * The starter is a recording stand-in: the real one starts the state machine, which is tested with
 * the flow; here we only need to know what the API asked it to start.
 */
import { createHash } from "node:crypto";
import type { TerminalEvent, Job } from "@reelay/core/domain";
import { type EventSink, NO_BATCHES, noMetrics } from "@reelay/core/usecases";
import { JobStore, ObjectStore } from "@reelay/core/adapters";
import { createApp, singleKeyAuthenticator, type ApiDeps } from "../../src/index.ts";
import type { LocalAws } from "../../../core/test/support/local-aws.ts";

export const API_KEY = "test-key-0123456789";
export const auth = { Authorization: `Bearer ${API_KEY}` };
export const json = { ...auth, "Content-Type": "application/json" };
export const VALID = { model: "gamma-3.1", prompt: "a paper boat in the rain", duration_sec: 8 };

export class RecordingStarter {
  readonly started: Job[] = [];
  failWith: Error | undefined;

  async start(job: Job): Promise<void> {
    if (this.failWith !== undefined) throw this.failWith;
    this.started.push(job);
  }
}

export class RecordingSink implements EventSink {
  readonly emitted: TerminalEvent[] = [];
  async emit(event: TerminalEvent): Promise<void> {
    this.emitted.push(event);
  }
}

/** What the API always has that these tests don't watch: no batches to count on, no metrics. */
export const UNWATCHED = { batchTracker: NO_BATCHES, metrics: noMetrics };

let tables = 0;

export async function harness(aws: LocalAws, overrides: Partial<ApiDeps> = {}) {
  const tableName = `jobs-${process.pid}-${++tables}`;
  await aws.createTable(tableName);
  const jobs = new JobStore(aws.ddb, tableName);
  const objects = new ObjectStore(aws.s3, aws.bucket);
  const starter = new RecordingStarter();
  const sink = new RecordingSink();
  const app = createApp({
    jobs,
    objects,
    starter,
    events: sink,
    authenticate: singleKeyAuthenticator(API_KEY),
    ...UNWATCHED,
    ...overrides,
  });
  const post = async (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    app.request("/v1/video/generations", {
      method: "POST",
      headers: { ...json, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const get = async (path: string): Promise<Response> => app.request(path, { headers: auth });
  return { app, jobs, objects, starter, sink, post, get };
}

export type Harness = Awaited<ReturnType<typeof harness>>;

/** Stores `bytes` as the job's output and marks it succeeded, the way Download and Finish leave it. */
export async function succeed(h: Harness, id: string, bytes: Uint8Array): Promise<Job> {
  const key = `outputs/${id}/video.mp4`;
  await h.objects.put(key, bytes, { contentType: "video/mp4" });
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const output = {
    bucket: h.objects.bucket,
    key,
    bytes: bytes.length,
    sha256,
    contentType: "video/mp4",
  };
  return h.jobs.transition(id, {
    from: ["queued", "running", "downloading"],
    to: "succeeded",
    set: { outputs: [output], finishedAt: new Date().toISOString() },
  });
}

export async function fail(
  h: Harness,
  id: string,
  error = { code: "upstream_failed", message: "The upstream said no." },
): Promise<Job> {
  return h.jobs.transition(id, {
    from: ["queued", "running", "downloading"],
    to: "failed",
    set: { error, finishedAt: new Date().toISOString() },
  });
}

/** Creates a video job through the API and returns its id. */
export async function created(
  h: Harness,
  body: unknown = VALID,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await h.post(body, headers);
  if (response.status !== 200)
    throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { task_id: string }).task_id;
}
