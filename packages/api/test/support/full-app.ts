/**
 * The API with every route it can serve (keys, batches, admission, upstreams, webhooks, events) over
 * the pipeline's own wiring on dynalite and s3rver. Jobs are recorded, not run: the starter is
 * the recording stand-in, so no upstream is called (the client's URL is never fetched).
 */
import { handleMcpRequest } from "@reelay/mcp";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { JsonlFileSink } from "@reelay/core/adapters";
import { wireWebhooks } from "@reelay/core/wiring";
import { createApp } from "../../src/app.ts";
import { startLocalAws, type LocalAws } from "../../../core/test/support/local-aws.ts";
import { API_KEY, freshTable, RecordingStarter, testApiDeps } from "./harness.ts";

async function fullApp(aws: LocalAws) {
  const tableName = await freshTable(aws, "full");
  // The local stack's bus for audit records: a JSONL file, read back by the audit tests.
  const bus = new JsonlFileSink(join(aws.dir, `${tableName}-events.jsonl`));
  const starter = new RecordingStarter();
  const webhooks = wireWebhooks({
    config: { webhookSchedule: [0], aws: { rehearsal: false } },
    platform: "local",
    clients: { db: aws.ddb, tableName },
  });
  const { deps, wiring } = testApiDeps(
    aws,
    { tableName, auditBus: bus },
    {
      starter,
      eventStream: { subscribe: () => () => undefined },
      // As the local stack serves it, so the authorization matrix covers POST /mcp.
      mcp: handleMcpRequest,
      webhooks: webhooks.api,
    },
  );
  const app = createApp(deps);
  return { app, wiring, webhooks, starter, tableName, db: aws.ddb, bus };
}

export type FullApp = Awaited<ReturnType<typeof fullApp>>;

export type Json = Record<string, any>;

/** One JSON call with `key` as the bearer (none when undefined). */
export async function call(
  full: Pick<FullApp, "app">,
  method: string,
  path: string,
  key: string | undefined,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const response = await full.app.request(path, {
    method,
    headers: {
      ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
      "Content-Type": "application/json",
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: Json = {};
  try {
    parsed = JSON.parse(text) as Json;
  } catch {
    parsed = { text };
  }
  return { status: response.status, body: parsed };
}

/** One stack for the file: dynalite and s3rver started before its tests and stopped after. */
export function sharedFullApp(): () => FullApp {
  let aws: LocalAws | undefined;
  let full: FullApp | undefined;
  beforeAll(async () => {
    aws = await startLocalAws();
    full = await fullApp(aws);
  });
  afterAll(() => aws?.stop());
  return () => {
    if (full === undefined) throw new Error("sharedFullApp: the stack is not up yet");
    return full;
  };
}

/** A new stored key made with the deployment's key; `fields` go into POST /v1/keys. */
export async function newKey(
  full: Pick<FullApp, "app">,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; key: string; project: string; scopes: string[] }> {
  const made = await call(full, "POST", "/v1/keys", API_KEY, { name: "k", ...fields });
  if (made.status !== 201) throw new Error(`POST /v1/keys answered ${made.status}`);
  return made.body as { id: string; key: string; project: string; scopes: string[] };
}
