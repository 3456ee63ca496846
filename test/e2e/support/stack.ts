/**
 * The local stack for end-to-end tests: real dynalite, s3rver, simulator, state machine interpreter
 * and API on 127.0.0.1, a temp data dir, a fast simulator. Clients in the tests use plain fetch and
 * the AWS SDK, nothing of reelay's own, so they see what a user sees.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, HeadObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { loadConfig } from "@reelay/core/wiring";
import { JsonlFileSink } from "@reelay/core/adapters";
import type { TerminalEvent } from "@reelay/core/domain";
import { localS3Client } from "@reelay/local/aws-clients";
import type { Logger } from "@reelay/local/log";
import {
  EVENTS_FILE,
  startLocalStack,
  type LocalStack,
  type LocalStackOptions,
} from "@reelay/local/stack";
import { EventsTail } from "./events-tail.ts";

const SIM_TIME_SCALE = 0.05;
/**
 * reelay's own pauses (the Wait before a look, the poll window's pauses) at this fraction: the first
 * look at 1.2 s instead of 2 s, still after the default simulated job (20 s at SIM_TIME_SCALE, 1 s)
 * has ended, so a job costs the looks it did at real time and waits less for them.
 */
const WAIT_SCALE = 0.6;

/** REELAY_PRICES with os-2 at 0.025 a second: a 4 s job is estimated at 0.1; other models unpriced. */
export const OS2_PRICES = JSON.stringify({
  currency: "USD",
  models: { "os-2": { per_second: { default: 0.025 } } },
});

/**
 * A beforeAll that starts a stack waits this long at most: a hang guard, not a measure. A stack
 * starts in a few seconds, but on a loaded machine (several suites on two cores) it took over the
 * default 30 s.
 */
export const STACK_START_MS = 120_000;

export async function tempDir(label: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `reelay-e2e-${label}-`));
}

/**
 * Whether a `reelay up` child's output says its port was taken: the CLI's own line for it (as
 * packages/cli/test/up-failures-cli.test.ts pins it), or Node's code from an older release. A port
 * from freePort() can be taken by another test's process before the child binds it.
 */
export function portTaken(output: string): boolean {
  return output.includes("is taken by another program") || output.includes("EADDRINUSE");
}

/** A port free right now (the OS picks it); the caller binds it soon after. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface TestStack extends LocalStack {
  s3: S3Client;
  /** What the stack logged (drops handled, jobs ended), newest last. */
  logLines: string[];
  /** Stops the stack and removes its data dir. */
  dispose(): Promise<void>;
}

/**
 * Starts the stack in this process; `env` holds REELAY_* settings as a user would set them, and
 * `simulator` the bundled upstream's options beside the fast default time scale. reelay's own
 * pauses run at WAIT_SCALE unless `time` says otherwise: a test of deadlines passes
 * `{ waitScale: 1 }` (the clock stays real), one that moves its own clock passes `{ clock }`.
 * Videos get no previews unless `{ previews: true }`: ffmpeg would decode every test's video, the
 * largest CPU cost of a job here, for tests that never look at a thumbnail. s3rver runs in this
 * process unless `{ s3InChild: true }`: its child's start alone costs more CPU than most tests' jobs.
 */
export async function startTestStack(
  env: Record<string, string> = {},
  simulator: LocalStackOptions["simulator"] = {},
  options: Pick<LocalStackOptions, "waitScale" | "clock" | "previews" | "s3InChild"> = {},
): Promise<TestStack> {
  const dataDir = await tempDir("stack");
  const config = loadConfig({ REELAY_PORT: "0", REELAY_DATA_DIR: dataDir, ...env });
  const logLines: string[] = [];
  const problem = (line: string, error?: unknown) => void logLines.push(`${line} ${String(error)}`);
  const logger: Logger = {
    debug: () => undefined,
    info: (line) => void logLines.push(line),
    warn: problem,
    error: problem,
  };
  const stack = await startLocalStack({
    config,
    logger,
    s3Port: 0,
    simulator: { timeScale: SIM_TIME_SCALE, ...simulator },
    waitScale: WAIT_SCALE,
    previews: false,
    s3InChild: false,
    ...options,
  });
  const s3 = localS3Client(stack.s3Endpoint);
  tails.set(stack.url, new EventsTail(join(dataDir, EVENTS_FILE)));
  return {
    ...stack,
    s3,
    logLines,
    async dispose() {
      tails.delete(stack.url);
      s3.destroy();
      await stack.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One stack for the calling file: started before its tests, disposed after; read it inside a test. */
export function stackPerFile(...args: Parameters<typeof startTestStack>): () => TestStack {
  let stack: TestStack | undefined;
  beforeAll(async () => {
    stack = await startTestStack(...args);
  }, STACK_START_MS);
  afterAll(async () => {
    await stack?.dispose();
  });
  return () => {
    if (stack === undefined) throw new Error("the file's stack has not started");
    return stack;
  };
}

export function bearer(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
}

export async function getJson<T = any>(
  url: string,
  apiKey: string,
): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { headers: bearer(apiKey) });
  return { status: response.status, body: (await response.json()) as T };
}

export async function postJson<T = any>(
  url: string,
  apiKey: string,
  body: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method: "POST",
    headers: bearer(apiKey),
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** A video job made through POST /v1/video/generations; its id, or an error naming the answer. */
export async function createVideoJob(
  stack: TestStack,
  body: Record<string, unknown>,
): Promise<string> {
  const { status, body: answer } = await postJson(
    `${stack.url}/v1/video/generations`,
    stack.apiKey,
    body,
  );
  if (status >= 300) throw new Error(`the create answered ${status}: ${JSON.stringify(answer)}`);
  return answer.task_id as string;
}

/** An 8 s 720p 16:9 gamma-3.1 video job of `prompt`, as GET /v1/jobs/{id} shows it once it ended. */
export async function endedVideo(
  stack: TestStack,
  prompt: string,
): Promise<{ id: string; job: any }> {
  const shape = { duration_sec: 8, resolution: "720p", aspect_ratio: "16:9" };
  const id = await createVideoJob(stack, { model: "gamma-3.1", prompt, ...shape });
  return { id, job: await waitForTerminalJob(stack.url, stack.apiKey, id) };
}

/** The longest pause between two probes: a wait's later looks back off to it (see waitFor). */
const MAX_PROBE_GAP_MS = 1_000;

/**
 * Polls `probe` until it returns a value, or fails after `timeoutMs` naming `what`: first after
 * `everyMs`, then each pause half as long again, up to a second. Fifty jobs awaited at once would
 * otherwise ask the API 200 times a second for as long as they run, and those requests were most
 * of an e2e file's CPU.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 40_000,
  everyMs = 250,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  let gapMs = everyMs;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until)
      throw new Error(
        `timed out waiting for ${what}${last === undefined ? "" : ` (last error: ${String(last)})`}`,
      );
    await new Promise((resolve) => setTimeout(resolve, gapMs));
    gapMs = Math.max(everyMs, Math.min(MAX_PROBE_GAP_MS, gapMs * 1.5));
  }
}

const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);

/** The events files of the stacks this process started, by their API's URL (events-tail.ts). */
const tails = new Map<string, EventsTail>();
/** A wait on a stack's events file still asks the API this often: the event is not what is judged. */
const SAFETY_NET_MS = 5_000;

/**
 * The job's record from GET /v1/jobs/{id} once it is terminal. On a stack this process started, the
 * API is asked at the first look, then once the job's terminal event is in its events file (and
 * every SAFETY_NET_MS regardless); elsewhere at every look.
 */
export function waitForTerminalJob(
  url: string,
  apiKey: string,
  jobId: string,
  timeoutMs?: number,
): Promise<any> {
  const tail = tails.get(url);
  let askedAt: number | undefined;
  return waitFor(
    `job ${jobId} to end`,
    async () => {
      const ask =
        tail === undefined ||
        askedAt === undefined ||
        Date.now() - askedAt >= SAFETY_NET_MS ||
        (await tail.hasEnded(jobId));
      if (!ask) return undefined;
      askedAt = Date.now();
      const { body } = await getJson(`${url}/v1/jobs/${jobId}`, apiKey);
      return TERMINAL.has(body.status) ? body : undefined;
    },
    timeoutMs,
  );
}

export async function sha256OfUrl(url: string): Promise<{ sha256: string; bytes: number }> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length };
}

export async function objectExists(s3: S3Client, bucket: string, key: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch {
    return false;
  }
}

export async function objectText(s3: S3Client, bucket: string, key: string): Promise<string> {
  const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return (await answer.Body?.transformToString("utf8")) ?? "";
}

export function eventsIn(dataDir: string): Promise<TerminalEvent[]> {
  return new JsonlFileSink(join(dataDir, EVENTS_FILE)).readAll();
}

/**
 * The job's terminal events, once there is one: the event is emitted after the terminal record is
 * written (core usecases/jobs/job-end.ts), so a job seen terminal may not have it yet for a moment.
 */
export function eventsFor(dataDir: string, jobId: string): Promise<TerminalEvent[]> {
  return waitFor(
    `the terminal event of job ${jobId}`,
    async () => {
      const events = (await eventsIn(dataDir)).filter((event) => event.detail.jobId === jobId);
      return events.length > 0 ? events : undefined;
    },
    30_000,
    50,
  );
}

/** The job ids of a batch's lines, from its results (GET /v1/batches/{id}/results), in line order. */
export async function batchJobIds(url: string, apiKey: string, batchId: string): Promise<string[]> {
  const response = await fetch(`${url}/v1/batches/${batchId}/results`, { headers: bearer(apiKey) });
  return (await response.text())
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { job_id: string }).job_id);
}
