/**
 * What an operator and an integrator use beside the jobs themselves, through the rehearsed API:
 * a managed webhook subscriber (a server of the scenario's own on 127.0.0.1, which the stage lets
 * deliveries reach), a key's limits, the audit log, and the MCP function with the MCP SDK's client.
 * Each ends as on the local stack.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Webhook } from "standardwebhooks";
import type { Stage } from "../stage.ts";
import { cancelAll, createVideo } from "./flow.ts";
import { api, endedJob, expectThat, type JsonBody, type Scenario, waitFor } from "./support.ts";

const show = (value: unknown) => JSON.stringify(value);

/** Headers that make a call with a stored key instead of the stage's own. */
const as = (key: string) => ({ authorization: `Bearer ${key}` });

interface StoredKey {
  id: string;
  key: string;
  webhook_secret: string;
  limits: JsonBody;
}

/** POST /v1/keys with the deployment's key; the key as its create answers it (once). */
async function newKey(stage: Stage, body: JsonBody): Promise<StoredKey> {
  const made = await api(stage, "POST", "/v1/keys", body);
  expectThat(made.status === 201, `POST /v1/keys answered ${made.status}: ${show(made.body)}`);
  return made.body as StoredKey;
}

interface Received {
  headers: Record<string, string>;
  body: string;
  status: number;
}

interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A webhook subscriber on loopback: answers each request with `answer`'s status and keeps it. */
async function startReceiver(
  answer: (request: Received, earlier: readonly Received[]) => number,
): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
    );
    const request = { headers, body: Buffer.concat(chunks).toString("utf8"), status: 0 };
    request.status = answer(request, received);
    received.push(request);
    res.writeHead(request.status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The delivery log's record of one event's delivery (the admin's view). */
async function deliveryOf(stage: Stage, eventId: string): Promise<JsonBody | undefined> {
  const { status, body } = await api(
    stage,
    "GET",
    `/v1/webhooks/deliveries?event=${encodeURIComponent(eventId)}`,
  );
  expectThat(status === 200, `GET /v1/webhooks/deliveries answered ${status}: ${show(body)}`);
  return (body.data as JsonBody[])[0];
}

/**
 * The retry of a failed attempt: on AWS the webhook sweep's run each minute sends it, the first
 * run once the schedule's wait (REELAY_WEBHOOK_SCHEDULE, 5 s ± 10 % after the first) is over.
 */
async function sweepWhenDue(stage: Stage, eventId: string): Promise<JsonBody> {
  const pending = await waitFor(`the retry of ${eventId} on record`, async () => {
    const delivery = await deliveryOf(stage, eventId);
    return delivery?.status === "pending" && delivery.attempts?.length === 1 ? delivery : undefined;
  });
  const due = Date.parse(String(pending.nextAttemptAt));
  await waitFor("the schedule's wait", async () => (Date.now() >= due ? true : undefined));
  stage.scheduler.tick();
  return waitFor(`${eventId} delivered`, async () => {
    const delivery = await deliveryOf(stage, eventId);
    return delivery?.status === "delivered" ? delivery : undefined;
  });
}

/** Each request the receiver got for the event, verified with the subscriber's secret. */
function verified(receiver: Receiver, eventId: string, secret: string): JsonBody[] {
  return receiver.received
    .filter((r) => r.headers["webhook-id"] === eventId)
    .map((r) => new Webhook(secret).verify(r.body, r.headers) as JsonBody);
}

/** The event's attempts at the receiver and in the log: 500 first, then 200, both signed. */
async function checkDelivery(
  stage: Stage,
  receiver: Receiver,
  id: string,
  secret: string,
): Promise<void> {
  const eventId = `${id}.succeeded`;
  await waitFor("the first attempt", async () => (receiver.received.length > 0 ? true : undefined));
  const delivered = await sweepWhenDue(stage, eventId);
  const logged = (delivered.attempts as JsonBody[]).map((a) => a.status);
  expectThat(show(logged) === show([500, 200]), `attempts on record: ${show(logged)}`);
  const answered = receiver.received.map((r) => [r.headers["webhook-id"], r.status]);
  expectThat(
    show(answered) ===
      show([
        [eventId, 500],
        [eventId, 200],
      ]),
    `the receiver got ${show(answered)}`,
  );
  for (const payload of verified(receiver, eventId, secret))
    expectThat(
      payload.type === "Generation Succeeded" && payload.data?.jobId === id,
      `a delivery verified as ${show({ type: payload.type, jobId: payload.data?.jobId })}`,
    );
}

const webhook: Scenario = {
  name: "a managed webhook subscriber (POST /v1/webhooks, a server on 127.0.0.1) gets its project's job's Generation Succeeded signed per Standard Webhooks; its 500 is retried by the webhook sweep's next run",
  async run(stage) {
    // The first attempt of each event is answered 500, any later one 200.
    const receiver = await startReceiver((request, earlier) =>
      earlier.some((r) => r.headers["webhook-id"] === request.headers["webhook-id"]) ? 200 : 500,
    );
    const key = await newKey(stage, { name: "hooks", scopes: ["read", "write", "webhooks"] });
    let subscriber: string | undefined;
    try {
      const made = await api(stage, "POST", "/v1/webhooks", { url: receiver.url }, as(key.key));
      expectThat(
        made.status === 201,
        `POST /v1/webhooks ${receiver.url} answered ${made.status}: ${show(made.body)}`,
      );
      subscriber = String(made.body.id);
      const id = await createVideo(stage, "a kite over the dunes", as(key.key));
      const job = await endedJob(stage, id);
      expectThat(job.status === "succeeded", `job ${id} ended ${job.status}`);
      await checkDelivery(stage, receiver, id, String(made.body.secret));
    } finally {
      if (subscriber !== undefined)
        await api(stage, "DELETE", `/v1/webhooks/${subscriber}`, undefined, as(key.key));
      await receiver.close();
    }
  },
};

const rateLimited: Scenario = {
  name: "a key past its rate (limits rate 0.1/s, burst 2): its third call is 429 rate_limited with Retry-After and RateLimit headers; another key and the deployment's key are served meanwhile",
  async run(stage) {
    const limited = await newKey(stage, { name: "slow", limits: { rate: 0.1, burst: 2 } });
    expectThat(
      limited.limits.rate === 0.1 && limited.limits.burst === 2,
      `the key's limits are ${show(limited.limits)}`,
    );
    const other = await newKey(stage, { name: "other" });
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await api(stage, "GET", "/v1/jobs", undefined, as(limited.key)));
    const statuses = answers.map((a) => a.status);
    expectThat(show(statuses) === show([200, 200, 429]), `the key's calls answered ${statuses}`);
    const refused = answers[2];
    expectThat(
      refused?.body.error?.code === "rate_limited" &&
        Number(refused.headers.get("retry-after")) > 0 &&
        refused.headers.get("ratelimit-limit") === "2" &&
        refused.headers.get("ratelimit-remaining") === "0",
      `the refusal: ${show(refused?.body)} retry-after ${refused?.headers.get("retry-after")}, limit ${refused?.headers.get("ratelimit-limit")}`,
    );
    for (const [who, headers] of [
      ["another key", as(other.key)],
      ["the deployment's key", {}],
    ] as const) {
      const served = await api(stage, "GET", "/v1/jobs", undefined, headers);
      expectThat(served.status === 200, `${who} answered ${served.status} meanwhile`);
    }
  },
};

const queueFull: Scenario = {
  name: "a key past its max_queued (2): a batch of 3 is 429 queue_full and makes nothing; the key's own job and another key's are still made and succeed",
  async run(stage) {
    const limited = await newKey(stage, { name: "few", limits: { max_queued: 2 } });
    const other = await newKey(stage, { name: "many" });
    const request = { model: "gamma-3.1", prompt: "a gull over a pier", duration_sec: 4 };
    const refused = await api(
      stage,
      "POST",
      "/v1/batches",
      { requests: [request, request, request] },
      as(limited.key),
    );
    expectThat(
      refused.status === 429 && refused.body.error?.code === "queue_full",
      `the batch answered ${refused.status}: ${show(refused.body)}`,
    );
    for (const path of ["/v1/batches", "/v1/jobs"]) {
      const listed = await api(stage, "GET", path, undefined, as(limited.key));
      expectThat(
        listed.status === 200 && (listed.body.data as unknown[]).length === 0,
        `after the refusal GET ${path} answered ${listed.status}: ${show(listed.body)}`,
      );
    }
    const ids = [
      await createVideo(stage, "a gull, alone", as(limited.key)),
      await createVideo(stage, "a gull, elsewhere", as(other.key)),
    ];
    for (const id of ids) {
      const job = await endedJob(stage, id);
      expectThat(job.status === "succeeded", `job ${id} ended ${job.status}`);
    }
  },
};

/** GET /v1/audit from `from` on, oldest first, of one project's records. */
async function auditOf(stage: Stage, from: string, project: string): Promise<JsonBody[]> {
  const { status, body } = await api(
    stage,
    "GET",
    `/v1/audit?from=${encodeURIComponent(from)}&limit=100`,
  );
  expectThat(status === 200, `GET /v1/audit answered ${status}: ${show(body)}`);
  return (body.data as JsonBody[]).filter((r) => r.project === project).reverse();
}

/** Each record went on the bus as an `Audit` event (the API function's PutEvents). */
function announced(stage: Stage, ids: readonly string[]): string[] {
  const onBus = new Set(
    stage.gate
      .calls()
      .filter(({ call, verdict }) => call.operation === "PutEvents" && verdict.allowed)
      .flatMap(({ call }) => (call.input.Entries as JsonBody[] | undefined) ?? [])
      .filter((entry) => entry.DetailType === "Audit")
      .map((entry) => String((JSON.parse(String(entry.Detail)) as JsonBody).id)),
  );
  return ids.filter((id) => !onBus.has(id));
}

/** A job cancelled by its maker and retried by another key of the project; both ids. */
async function cancelThenRetry(
  stage: Stage,
  maker: StoredKey,
  other: StoredKey,
): Promise<{ id: string; retry: string }> {
  const id = await createVideo(stage, "a clock with no hands [[sim:never_finish]]", as(maker.key));
  const cancelled = await api(stage, "POST", `/v1/jobs/${id}/cancel`, {}, as(maker.key));
  expectThat(cancelled.status === 200, `cancel answered ${cancelled.status}`);
  const retried = await api(stage, "POST", `/v1/jobs/${id}/retry`, {}, as(other.key));
  expectThat(retried.status === 200, `retry answered ${retried.status}: ${show(retried.body)}`);
  const retry = String(retried.body.id ?? retried.body.task_id);
  // The retry never finishes either: its slot is given back. Its task keeps one place upstream
  // for a minute, one of an account's four: no create after this one is refused for it.
  await cancelAll(stage, [retry]);
  return { id, retry };
}

const audit: Scenario = {
  name: "the audit log: two keys' creation, one's revocation and a cancelled job's retry by another key of its project, with actor and target and no secret, each an Audit event on the bus; the cancel is no audited action (as on the local stack)",
  async run(stage) {
    const from = new Date().toISOString();
    const project = `audit-${Date.now().toString(36)}`;
    const maker = await newKey(stage, { name: "maker", project });
    const other = await newKey(stage, { name: "other", project });
    const { id, retry } = await cancelThenRetry(stage, maker, other);
    const revoked = await api(stage, "DELETE", `/v1/keys/${other.id}`);
    expectThat(revoked.status === 200, `DELETE /v1/keys answered ${revoked.status}`);
    const records = await auditOf(stage, from, project);
    const summary = records.map((r) => [r.action, r.actor?.key_id, r.target]);
    const expected = [
      ["key.created", "local", maker.id],
      ["key.created", "local", other.id],
      ["job.retried", other.id, id],
      ["key.revoked", "local", other.id],
    ];
    expectThat(show(summary) === show(expected), `the project's records: ${show(summary)}`);
    expectThat(
      records[2]?.change?.job === retry,
      `job.retried's change: ${show(records[2]?.change)}`,
    );
    const text = show(records);
    expectThat(
      ![maker.key, other.key, maker.webhook_secret].some((secret) => text.includes(secret)) &&
        !/rk_|whsec_/.test(text),
      "a secret is in the audit log",
    );
    const missing = announced(
      stage,
      records.map((r) => String(r.id)),
    );
    expectThat(missing.length === 0, `records never put on the bus: ${missing.join(", ")}`);
  },
};

const TOOLS = [
  "cancel_job",
  "create_batch",
  "generate_image",
  "generate_video",
  "get_batch",
  "get_job",
  "list_models",
  "usage",
  "validate_request",
  "wait_for_job",
];

async function connectMcp(stage: Stage): Promise<Client> {
  const client = new Client({ name: "reelay-rehearsal", version: "0.0.0" });
  const url = new URL(`${stage.apiUrl}/mcp`);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: as(stage.apiKey) },
  });
  try {
    await client.connect(transport);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    expectThat(false, `the MCP client could not connect to POST /mcp: ${message}`);
  }
  return client;
}

async function callTool(client: Client, name: string, args: JsonBody): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (result: CallToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");

const mcp: Scenario = {
  name: "the MCP function through POST /mcp with the MCP SDK's client: every tool listed, generate_video makes a job, get_job reads it back succeeded with its video's link",
  async run(stage) {
    const client = await connectMcp(stage);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expectThat(show(names) === show(TOOLS), `tools listed: ${names.join(", ")}`);
      const created = await callTool(client, "generate_video", {
        request: { model: "gamma-3.1", prompt: "a red bicycle", duration_sec: 4 },
      });
      const id = /\bvidtsk_\w+/.exec(textOf(created))?.[0];
      expectThat(
        created.isError !== true && id !== undefined,
        `generate_video: ${textOf(created)}`,
      );
      const job = await endedJob(stage, id);
      expectThat(job.status === "succeeded", `job ${id} ended ${job.status}`);
      const read = await callTool(client, "get_job", { job_id: id });
      const links = read.content.filter((block) => block.type === "resource_link");
      expectThat(
        textOf(read).includes(`${id} succeeded`) &&
          links.length === 1 &&
          links[0]?.mimeType === "video/mp4",
        `get_job: ${textOf(read).slice(0, 300)}; links ${show(links)}`,
      );
    } finally {
      await client.close();
    }
  },
};

export const OPERATIONS_SCENARIOS: Scenario[] = [webhook, rateLimited, queueFull, audit, mcp];
