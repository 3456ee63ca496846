/**
 * The API over real local parts: a fresh jobs table in dynalite and the bucket in s3rver per harness.
 * Every test builds its ApiDeps with testApiDeps: the pipeline's own wiring over the table, as both
 * platforms build them (apiDepsFrom), with the test's stand-ins over it. The starter is a recording
 * stand-in: the real one starts the state machine, which is tested with the flow; here we only need
 * to know what the API asked it to start. The upstream client's URL is never fetched.
 */
import { createHash } from "node:crypto";
import type { TerminalEvent, Job } from "@reelay/core/domain";
import { UpstreamClient } from "@reelay/core/adapters";
import type { AuditBus, EventSink } from "@reelay/core/usecases";
import { loadConfig, wirePipeline, wireWebhooks, type Wiring } from "@reelay/core/wiring";
import { apiDepsFrom } from "../../src/api-deps-from-wiring.ts";
import { createApp, type ApiDeps } from "../../src/index.ts";
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

/** What a test sets about the world the API runs in, beside the deps it replaces. */
export interface TestWorld {
  /** The jobs table (made by the caller: two instances may share one). */
  tableName: string;
  /** Settings as REELAY_* variables (loadConfig); none by default. */
  env?: Record<string, string>;
  /** The pipeline's clock; the real one by default. */
  now?: () => Date;
  /** Where terminal events go; a RecordingSink by default. */
  events?: EventSink;
  /** Where audit records are announced; stored only by default. */
  auditBus?: AuditBus;
}

let tables = 0;

/** A new jobs table named after `prefix`, empty. */
export async function freshTable(aws: LocalAws, prefix: string): Promise<string> {
  const tableName = `${prefix}-${process.pid}-${++tables}`;
  await aws.createTable(tableName);
  return tableName;
}

/** The API's deps over `world`'s table, `overrides` replacing what the test stands in for. */
export function testApiDeps(
  aws: LocalAws,
  world: TestWorld,
  overrides: Partial<ApiDeps> = {},
): { deps: ApiDeps; wiring: Wiring } {
  const wiring = wirePipeline({
    config: loadConfig(world.env ?? {}),
    platform: "local",
    clients: { db: aws.ddb, s3: aws.s3, tableName: world.tableName, bucket: aws.bucket },
    events: world.events ?? new RecordingSink(),
    ...(world.auditBus === undefined ? {} : { auditBus: world.auditBus }),
    ...(world.now === undefined ? {} : { now: world.now }),
    upstream: new UpstreamClient({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "never-sent" }),
    waker: { wake: async () => undefined },
  });
  const webhooks = wireWebhooks({
    config: { webhookSchedule: [0], aws: { rehearsal: false } },
    platform: "local",
    clients: { db: aws.ddb, tableName: world.tableName },
  });
  const deps = apiDepsFrom(wiring, {
    webhooks: webhooks.api,
    starter: new RecordingStarter(),
    stopper: { stop: async () => undefined },
    adminKey: API_KEY,
    ...(world.now === undefined ? {} : { now: world.now }),
    ...overrides,
  });
  return { deps, wiring };
}

export async function harness(aws: LocalAws, overrides: Partial<ApiDeps> = {}) {
  const tableName = await freshTable(aws, "jobs");
  const starter = new RecordingStarter();
  const sink = new RecordingSink();
  const { deps, wiring } = testApiDeps(aws, { tableName, events: sink }, { starter, ...overrides });
  const app = createApp(deps);
  const { jobs, objects } = wiring.pipeline;
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
