/**
 * What every scenario uses: the rehearsed API reached over HTTP as a user reaches it, a wait on a
 * condition (never on a fixed time), and the bucket read as the user would read it.
 */
import { GetObjectTaggingCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { isTerminal } from "@reelay/core/domain";
import type { Stage } from "../stage.ts";

export interface Scenario {
  name: string;
  run(stage: Stage): Promise<void>;
}

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** A request to the rehearsed HTTP API with the stage's key. */
/** A JSON answer as a scenario reads it: fields looked up by name, checked where they matter. */
// biome-ignore lint/suspicious/noExplicitAny: scenarios read the API's JSON answers loosely and assert on the fields they need.
export type JsonBody = Record<string, any>;

export async function api<T = JsonBody>(
  stage: Stage,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer<T>> {
  const response = await fetch(`${stage.apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${stage.apiKey}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (a JSONL results file, say): the text as it came.
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

class ScenarioFailure extends Error {}

export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ScenarioFailure(message);
}

/** Polls `probe` until it answers a value, or fails naming what it waited for. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new ScenarioFailure(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The job as GET /v1/jobs/{id} shows it once it has ended. */
export function endedJob(stage: Stage, id: string, timeoutMs?: number): Promise<JsonBody> {
  return waitFor(
    `job ${id} to end`,
    async () => {
      const { status, body } = await api(stage, "GET", `/v1/jobs/${id}`);
      return status === 200 && isTerminal(String(body.status)) ? body : undefined;
    },
    timeoutMs,
  );
}

/** Every key under a prefix of the stage's bucket. */
export async function keysUnder(stage: Stage, prefix: string): Promise<string[]> {
  const listed = await stage.standins.s3.send(
    new ListObjectsV2Command({ Bucket: stage.bucket, Prefix: prefix }),
  );
  return (listed.Contents ?? []).map((o) => o.Key ?? "").sort();
}

/** An object's tags, read from the bucket directly. */
export async function tagsOf(stage: Stage, key: string): Promise<Record<string, string>> {
  const { TagSet } = await stage.standins.s3.send(
    new GetObjectTaggingCommand({ Bucket: stage.bucket, Key: key }),
  );
  return Object.fromEntries((TagSet ?? []).map((t) => [t.Key ?? "", t.Value ?? ""]));
}
