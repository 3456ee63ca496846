/**
 * The upstream API key never leaves the request headers it is meant for. A local stack is pointed
 * (REELAY_UPSTREAM_URL, REELAY_UPSTREAM_API_KEY, as a user would) at the simulator, whose key is a
 * recognisable canary, through a small HTTP proxy that also plays an upstream echoing the
 * Authorization header back in its error answers (the simulator never does). Jobs then succeed, fail
 * upstream, time out, meet 401s, 400s, 2xx business errors, 429s, 5xx and resets (retried), polls
 * answered 500 for good, and a failed download; and the key is searched for, raw and base64-, hex- or
 * URL-encoded, in: every log line (the stack's logger, through the real consoleLogger formatting),
 * everything written to the console, stdout and stderr (captured by spies that still call through:
 * a capture, not a mock), events.jsonl, every job record (GET, every listing page, and a raw scan of
 * the table), every API answer (errors included, /v1/models with the upstream listing and its
 * failure, /openapi.json, /docs, the dashboard, /metrics), every object in the bucket, every file under the
 * data dir, and the webhook deliveries; and no log line or console write holds a presigned query
 * (S3's X-Amz-Signature, the simulator's sig=), which API answers do carry. The simulator runs outside the data dir and keeps no state
 * file, so no file there legitimately holds the key and nothing is excluded.
 */
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { inspect } from "node:util";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { loadConfig } from "@reelay/core/wiring";
import { localS3Client } from "@reelay/local/aws-clients";
import { startStandins } from "@reelay/local/aws-standins";
import { consoleLogger, type Logger } from "@reelay/local/log";
import { EVENTS_FILE, startLocalStack, type LocalStack } from "@reelay/local/stack";
import { tempDir, waitFor } from "./support/stack.ts";

const CANARY = `sk-reelay-SECRET-canary-${randomBytes(12).toString("hex")}`;
const JOB_TIMEOUT_S = 4;
const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);

/**
 * The forms a leak could take: the key, its random part alone, hex, and base64 / base64url at each
 * of the three byte alignments it could sit at inside a longer encoded text (edges trimmed).
 */
function leakForms(secret: string): string[] {
  const forms = [
    secret,
    secret.slice(secret.lastIndexOf("-") + 1),
    Buffer.from(secret).toString("hex"),
    encodeURIComponent(`Bearer ${secret}`),
  ];
  for (const offset of [0, 1, 2]) {
    const bytes = Buffer.concat([Buffer.alloc(offset, 0x20), Buffer.from(secret)]);
    for (const alphabet of ["base64", "base64url"] as const)
      forms.push(bytes.toString(alphabet).slice(4, -4));
  }
  return forms;
}
const FORMS = leakForms(CANARY);
/** A presigned link's signing parameters. */
const PRESIGNED_QUERY = /X-Amz-Signature|X-Amz-Credential|[?&]sig=/i;

/** Where (by label) any form of the key occurs; texts are searched as given and as latin1 of their bytes. */
function leaksIn(places: [string, string][]): string[] {
  return places
    .filter(([, text]) => FORMS.some((form) => text.includes(form)))
    .map(([label]) => label);
}

// ---- the upstream: the simulator behind a proxy that can echo the Authorization header ----

interface EchoProxy {
  url: string;
  /** Authorization headers the upstream was sent. */
  authorizations: Set<string>;
  /** Answer the next model listings 500 with the request headers in the body. */
  echoModels: boolean;
  /** How many answers echoed the key, by kind. */
  echoes: { models: number; polls: number; creates: number };
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

async function startEchoProxy(sim: Simulator): Promise<EchoProxy> {
  const echoPolls = new Set<string>();
  const state = { echoModels: false };
  const authorizations = new Set<string>();
  const echoes = { models: 0, polls: 0, creates: 0 };
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const text = body.toString("utf8");
    const auth = String(req.headers.authorization ?? "");
    authorizations.add(auth);
    const send = (status: number, payload: string, type = "application/json") => {
      if (payload.includes(auth.replace(/^Bearer /, "")))
        echoes[
          req.method === "POST"
            ? "creates"
            : (req.url ?? "").includes("/models")
              ? "models"
              : "polls"
        ] += 1;
      res.writeHead(status, { "content-type": type });
      res.end(payload);
    };
    const headersEcho = JSON.stringify(req.headers);
    if (req.method === "POST" && text.includes("[[echo:create-401]]"))
      return send(
        401,
        JSON.stringify({
          error: { code: "invalid_api_key", message: `Incorrect API key provided: ${auth}` },
        }),
      );
    if (req.method === "POST" && text.includes("[[echo:create-400-html]]"))
      return send(
        400,
        `<html><body><h1>Bad request</h1><p>key ${auth.replace(/^Bearer /, "")} may not use this model</p></body></html>`,
        "text/html",
      );
    if (req.method === "POST" && text.includes("[[echo:create-business]]"))
      return send(
        200,
        JSON.stringify({
          error: {
            code: "key_disabled",
            message: `The key ${auth.replace(/^Bearer /, "")} is disabled`,
          },
        }),
      );
    const taskId = /\/tasks\/([^/?]+)/.exec(req.url ?? "")?.[1];
    if (req.method === "GET" && taskId !== undefined && echoPolls.has(taskId))
      return send(
        500,
        JSON.stringify({ error: { message: `internal error; the request was ${headersEcho}` } }),
      );
    if (req.method === "GET" && (req.url ?? "").includes("/models") && state.echoModels)
      return send(500, JSON.stringify({ error: { message: `listing failed for ${headersEcho}` } }));
    // Everything else goes to the simulator as sent.
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        ([name]) => !["host", "connection", "content-length"].includes(name),
      ),
    ) as Record<string, string>;
    let answer: Response;
    let answerText: string;
    try {
      answer = await fetch(`${sim.origin}${req.url}`, {
        method: req.method!,
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      answerText = await answer.text();
    } catch {
      // The simulator reset the connection ([[sim:reset]]): so does the proxy.
      req.socket.destroy();
      return;
    }
    if (req.method === "POST" && text.includes("[[echo:poll-500]]")) {
      const parsed = JSON.parse(answerText) as {
        task_id?: string;
        service_task?: { task_id?: string };
      };
      const id = parsed.service_task?.task_id ?? parsed.task_id;
      if (id !== undefined) echoPolls.add(id);
    }
    res.writeHead(
      answer.status,
      Object.fromEntries(
        [...answer.headers].filter(([name]) => ["content-type", "retry-after"].includes(name)),
      ),
    );
    res.end(answerText);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    authorizations,
    echoes,
    get echoModels() {
      return state.echoModels;
    },
    set echoModels(value: boolean) {
      state.echoModels = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- the JSON log lines ----

/**
 * Every JSON line parses and has Powertools' leading keys; a line about a job names it as jobId,
 * a step's names the step; a job's last line names its model and, once it has one, its upstream
 * task, which the Poll lines name too; the API key appears only as its id.
 */
function expectJsonLinesCarryTheirJob(lines: string[], jobs: Record<string, string>): void {
  const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(parsed.length).toBeGreaterThan(Object.keys(jobs).length * 3);
  for (const line of parsed) {
    expect(Object.keys(line).slice(0, 4)).toEqual(["timestamp", "level", "service", "message"]);
    const named = /\b((?:vid|img)tsk_[0-9A-Z]{26})\b/.exec(String(line.message))?.[1];
    if (named !== undefined) expect(line.jobId, String(line.message)).toBe(named);
  }
  for (const [label, id] of Object.entries(jobs)) {
    const about = parsed.filter((line) => line.jobId === id);
    expect(
      about.some((line) => line.step === "Submit"),
      label,
    ).toBe(true);
    const last = about.findLast((line) => /succeeded|failed/.test(String(line.message)));
    expect(last, label).toMatchObject({ level: "INFO", model: expect.any(String), keyId: "local" });
    if (id.startsWith("vidtsk_") && !label.startsWith("create ")) {
      expect(last?.upstreamTaskId, label).toEqual(expect.any(String));
      // Known once Submit made the task: the Poll lines carry it too.
      const poll = about.find((l) => l.step === "Poll" && String(l.message).endsWith("done"));
      expect(poll?.upstreamTaskId, label).toBe(last?.upstreamTaskId);
    }
  }
}

// ---- everything the test saw ----

/** [label, text] of every API answer, log line, console write, webhook delivery... */
const seen: [string, string][] = [];
const logLines: string[] = [];
/** The JSON-format lines alone (they are in logLines too). */
const jsonLines: string[] = [];
const webhookBodies: string[] = [];
let sim: Simulator;
let proxy: EchoProxy;
let receiver: Server;
let stack: LocalStack;
let dataDir: string;
let stopped = false;
const jobs: Record<string, string> = {};

async function api(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any; text: string }> {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${stack.apiKey}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  seen.push([
    `${method} ${path} -> ${response.status}`,
    `${JSON.stringify([...response.headers])}\n${text}`,
  ]);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

async function createVideo(label: string, prompt: string): Promise<void> {
  const { status, json } = await api("POST", "/v1/video/generations", {
    model: "gamma-3.1",
    prompt,
    duration_sec: 4,
  });
  expect(status, label).toBe(200);
  jobs[label] = json.task_id as string;
}

async function terminal(label: string, id: string): Promise<any> {
  let last: unknown;
  return waitFor(
    `job "${label}" to end (last seen ${JSON.stringify(last)})`,
    async () => {
      const { json } = await api("GET", `/v1/jobs/${id}`);
      last = json;
      return TERMINAL.has(json.status) ? json : undefined;
    },
    60_000,
    500,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; last seen ${JSON.stringify(last)}`);
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

const consoleSpies: { mockRestore(): void }[] = [];

beforeAll(async () => {
  // Captures, not mocks: every spy calls the real method.
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method].bind(console);
    consoleSpies.push(
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        seen.push([
          `console.${method}`,
          args.map((a) => (typeof a === "string" ? a : inspect(a, { depth: null }))).join(" "),
        ]);
        original(...args);
      }),
    );
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    consoleSpies.push(
      vi.spyOn(stream, "write").mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        seen.push([
          stream === process.stdout ? "stdout" : "stderr",
          Buffer.isBuffer(chunk) ? chunk.toString("latin1") : String(chunk),
        ]);
        return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write),
    );
  }

  sim = await startSimulator({ apiKey: CANARY, generationMs: 20_000, timeScale: 0.05 });
  proxy = await startEchoProxy(sim);
  receiver = createServer(async (req, res) => {
    webhookBodies.push(`${JSON.stringify(req.headers)}\n${(await bodyOf(req)).toString("utf8")}`);
    res.writeHead(204).end();
  });
  const receiverPort = await listen(receiver);

  dataDir = await tempDir("secrets");
  const config = loadConfig({
    REELAY_PORT: "0",
    REELAY_DATA_DIR: dataDir,
    REELAY_UPSTREAM_URL: proxy.url,
    REELAY_UPSTREAM_API_KEY: CANARY,
    REELAY_JOB_TIMEOUT_S: String(JOB_TIMEOUT_S),
    REELAY_WEBHOOK_SCHEDULE: "0",
    REELAY_WEBHOOKS: JSON.stringify([
      {
        url: `http://127.0.0.1:${receiverPort}/hook`,
        secret: `whsec_${randomBytes(24).toString("base64")}`,
      },
    ]),
  });
  // The stack's real log formatting (consoleLogger) in both formats, JSON at debug level (a line
  // per step), kept line by line, plus each error in full (cause chain included).
  const text = consoleLogger((line) => logLines.push(line));
  const json = consoleLogger(
    (line) => {
      logLines.push(line);
      jsonLines.push(line);
    },
    { format: "json", level: "debug" },
  );
  const inFull = (error: unknown) => {
    if (error !== undefined) logLines.push(inspect(error, { depth: null }));
  };
  const logger: Logger = {
    structured: true,
    debug: (message, context) => {
      for (const l of [text, json]) l.debug(message, context);
    },
    info: (message, context) => {
      for (const l of [text, json]) l.info(message, context);
    },
    warn: (message, error, context) => {
      for (const l of [text, json]) l.warn(message, error, context);
      inFull(error);
    },
    error: (message, error, context) => {
      for (const l of [text, json]) l.error(message, error, context);
      inFull(error);
    },
  };
  stack = await startLocalStack({
    config,
    logger,
    s3Port: 0,
    previews: false,
  });
}, 60_000);

afterAll(async () => {
  if (!stopped) await stack?.stop();
  for (const spy of consoleSpies) spy.mockRestore();
  await proxy?.close();
  await sim?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

describe("the upstream API key", () => {
  it("is found by the search in every form it looks for (so the search below can fail)", () => {
    const planted = [
      CANARY,
      `x${Buffer.from(`Authorization: Bearer ${CANARY}`).toString("base64")}`,
      Buffer.from(`{"k":"${CANARY}"}`).toString("base64url"),
      Buffer.from(CANARY).toString("hex"),
      encodeURIComponent(`Bearer ${CANARY}`),
      `...${CANARY.slice(-24)}`,
    ];
    for (const text of planted) expect(leaksIn([["planted", text]]), text).toEqual(["planted"]);
    expect(
      leaksIn([["clean", `sk-reelay-SECRET-canary-${randomBytes(12).toString("hex")}`]]),
    ).toEqual([]);
  });

  it("appears in no log line, console output, event, job record, API answer, object, data file or webhook after jobs of every outcome, and no log line or console write holds a presigned query", async () => {
    await createVideo("succeeds", "a paper boat");
    await createVideo(
      "succeeds after 429s and 503s",
      "a kite [[sim:rate_limit times=2 retry_after=0]] [[sim:server_error times=2]]",
    );
    await createVideo("succeeds after resets", "a lantern [[sim:reset times=2]]");
    await createVideo(
      "upstream task fails",
      'a storm [[sim:task_fail reason="blocked by the content policy"]]',
    );
    await createVideo("times out", "a clock with no hands [[sim:never_finish]]");
    await createVideo("download fails once", "a broken reel [[sim:download_error times=1]]");
    await createVideo("create 401 echoing the key", "a locked door [[echo:create-401]]");
    await createVideo("create 400 page naming the key", "a wrong turn [[echo:create-400-html]]");
    await createVideo(
      "create 2xx business error naming the key",
      "a closed shop [[echo:create-business]]",
    );
    await createVideo(
      "polls answered 500 echoing the headers",
      "a stuck gear [[sim:never_finish]] [[echo:poll-500]]",
    );
    const image = await api("POST", "/v1/chat/completions", {
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a lighthouse" }],
      modalities: ["image", "text"],
    });
    expect(image.status).toBe(200);
    jobs["image succeeds"] = image.json.task_id;
    const s3 = localS3Client(stack.s3Endpoint);
    await s3.send(
      new PutObjectCommand({
        Bucket: stack.bucket,
        Key: "inbox/drop.txt",
        Body: "a dropped prompt",
      }),
    );

    // The listing answered 500 with the headers echoed: the catalog with a warning, then the merged listing.
    proxy.echoModels = true;
    const failedListing = await api("GET", "/v1/models");
    expect(failedListing.status).toBe(200);
    expect(failedListing.json.warnings).toEqual([
      expect.objectContaining({ code: "upstream_models_unavailable" }),
    ]);
    expect(proxy.echoes.models).toBeGreaterThan(0);
    proxy.echoModels = false;
    await api("GET", "/v1/models?modality=video");

    const ended: Record<string, any> = {};
    for (const [label, id] of Object.entries(jobs)) ended[label] = await terminal(label, id);
    const drop = await waitFor(
      "the dropped prompt's job",
      async () => {
        const { json } = await api("GET", "/v1/jobs?source=drop");
        const job = json.data?.[0];
        return job !== undefined && TERMINAL.has(job.status) ? job : undefined;
      },
      60_000,
      500,
    );
    expect(drop.status).toBe("succeeded");

    // The outcomes the test set out to produce.
    const outcome = (label: string) => [ended[label].status, ended[label].error?.code];
    expect(outcome("succeeds")).toEqual(["succeeded", undefined]);
    expect(outcome("succeeds after 429s and 503s")).toEqual(["succeeded", undefined]);
    expect(outcome("succeeds after resets")).toEqual(["succeeded", undefined]);
    expect(outcome("image succeeds")).toEqual(["succeeded", undefined]);
    expect(outcome("upstream task fails")).toEqual(["failed", "upstream_task_failed"]);
    expect(outcome("times out")).toEqual(["failed", "timeout"]);
    // The first download answered 503 (the error stays on the record), the Retry's succeeded.
    expect(outcome("download fails once")).toEqual(["succeeded", undefined]);
    expect(outcome("create 401 echoing the key")).toEqual(["failed", "upstream_auth"]);
    expect(outcome("create 400 page naming the key")).toEqual(["failed", "upstream_rejected"]);
    expect(outcome("create 2xx business error naming the key")).toEqual([
      "failed",
      "upstream_rejected",
    ]);
    expect(outcome("polls answered 500 echoing the headers")).toEqual(["failed", "timeout"]);
    // The echoes reached reelay and were redacted on the way in.
    for (const label of [
      "create 401 echoing the key",
      "create 400 page naming the key",
      "create 2xx business error naming the key",
      "polls answered 500 echoing the headers",
    ]) {
      expect(ended[label].error.message, label).toContain("[redacted]");
    }
    // The key really was in use, and echoed back by creates, polls and the listing.
    expect(proxy.authorizations).toContain(`Bearer ${CANARY}`);
    expect(proxy.echoes.creates).toBeGreaterThanOrEqual(3);
    expect(proxy.echoes.polls).toBeGreaterThan(0);

    // Every answer reelay gives, listing pages included.
    let cursor: string | undefined;
    do {
      const page = await api(
        "GET",
        `/v1/jobs?limit=3${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      cursor = page.json.next_cursor ?? undefined;
    } while (cursor !== undefined);
    for (const id of Object.values(jobs)) {
      await api("GET", `/v1/video/tasks/${id}`);
      await api("GET", `/v1/image/tasks/${id}`);
    }
    await api("POST", `/v1/jobs/${jobs.succeeds}/cancel`);
    await api("GET", "/v1/jobs/vidtsk_00000000000000000000000000");
    await api("POST", "/v1/video/generations", { model: "no-such-model", prompt: "x" });
    for (const path of ["/healthz", "/openapi.json", "/docs", "/"]) await api("GET", path);
    // The metrics, after jobs of every outcome: labels name models, codes and operations only.
    expect((await api("GET", "/metrics")).text).toContain("reelay_upstream_requests_total");
    const dashboard = seen.find(([label]) => label.startsWith("GET / ->"))?.[1] ?? "";
    for (const asset of dashboard.matchAll(/(?:src|href)="(\/[^"]+)"/g))
      await api("GET", asset[1]!);

    // Every object in the bucket, read back through S3.
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: stack.bucket }));
    for (const object of listed.Contents ?? []) {
      const got = await s3.send(new GetObjectCommand({ Bucket: stack.bucket, Key: object.Key! }));
      seen.push([
        `s3://${object.Key}`,
        Buffer.from(await got.Body!.transformToByteArray()).toString("latin1"),
      ]);
    }
    s3.destroy();
    await waitFor(
      "a webhook per terminal event",
      async () => (webhookBodies.length >= Object.keys(jobs).length + 1 ? true : undefined),
      20_000,
      200,
    );

    await stack.stop();
    stopped = true;
    // The raw table, reopened from its files after the stack stopped.
    const standins = await startStandins({ dataDir, s3Port: 0 });
    try {
      const items = await standins.ddb.send(new ScanCommand({ TableName: standins.tableName }));
      expect(items.Items?.length).toBeGreaterThanOrEqual(Object.keys(jobs).length + 1);
      for (const item of items.Items ?? [])
        seen.push([`table item ${String(item.pk)}`, JSON.stringify(item)]);
      // Internal fields the API leaves out: the failed download and the echoed poll error are there, redacted.
      const item = (label: string) => items.Items?.find((i) => i.pk === jobs[label]);
      expect(item("download fails once")?.lastError).toMatchObject({
        code: "download_unavailable",
        step: "download",
      });
      expect(item("polls answered 500 echoing the headers")?.lastError).toMatchObject({
        code: "upstream_unavailable",
        message: expect.stringContaining("[redacted]"),
      });
    } finally {
      await standins.close();
    }

    const events = await readFile(join(dataDir, EVENTS_FILE), "utf8");
    expect(events.split("\n").filter(Boolean).length).toBe(Object.keys(jobs).length + 1);
    const files = await filesUnder(dataDir);
    const fileTexts = await Promise.all(
      files.map(
        async (file): Promise<[string, string]> => [
          `file ${file.slice(dataDir.length)}`,
          (await readFile(file)).toString("latin1"),
        ],
      ),
    );

    const places: [string, string][] = [
      ...logLines.map((line, i): [string, string] => [`log line ${i}`, line]),
      ["events.jsonl", events],
      ...webhookBodies.map((body, i): [string, string] => [`webhook ${i}`, body]),
      ...fileTexts,
      ...seen,
    ];
    console.info(
      `secrets: searched ${places.length} texts (${logLines.length} log lines, ${files.length} data files, ${webhookBodies.length} webhooks, ${seen.length} answers/objects/console writes/items) for ${FORMS.length} forms of the key`,
    );
    expect(logLines.length).toBeGreaterThan(0);
    expect(leaksIn(places)).toEqual([]);
    // Nor a presigned query: S3's (uploads, outputs) or the upstream's output links (`sig=`), which
    // the API answers carry by design but no log line or console write may.
    const written = [
      ...logLines.map((line, i): [string, string] => [`log line ${i}`, line]),
      ...seen.filter(([label]) => /^(stdout|stderr|console\.)/.test(label)),
    ];
    expect(
      written.filter(([, text]) => PRESIGNED_QUERY.test(text)).map(([label]) => label),
    ).toEqual([]);
    expect(seen.some(([, text]) => PRESIGNED_QUERY.test(text))).toBe(true);
    expectJsonLinesCarryTheirJob(jsonLines, jobs);
  }, 180_000);
});
