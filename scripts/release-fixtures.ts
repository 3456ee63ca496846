/**
 * `npm run fixtures:release`: what the previous release (CHANGELOG.md's newest before HEAD,
 * extracted from git by test/support/releases.ts) stores, written by its own code and kept as
 * fixtures under test/fixtures/<version>/ for the readers of this one
 * (packages/core/test/upgrade/release-fixtures.test.ts).
 *
 * The release's `reelay up` runs as a child on a fresh data dir against the simulator, and is
 * driven through its API as a user would: a webhook subscriber, a key with a budget, jobs that end
 * succeeded, failed and cancelled, a batch, a rejected drop, then jobs left running, downloading
 * (its download refused again and again) and queued (behind REELAY_UPSTREAM_CONCURRENCY=1). Then the
 * stack is stopped and every item of its table, every job.json, results.jsonl and .error.json of
 * its bucket is written out as it was stored. Stored webhook secrets (a subscriber's, a key's) are replaced by a fixed
 * placeholder of the same form, so no generated secret is committed.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { startStandins } from "@reelay/local/aws-standins";
import { startSimulator } from "@reelay/simulator";
import { ApiClient } from "../soak/client.ts";
import { freePort } from "../test/e2e/support/stack.ts";
import { extractRelease, previousRelease } from "../test/support/releases.ts";

const ROOT = join(import.meta.dirname, "..");
const LONG = "[[sim:generation_ms=3600000]]";
const QUICK = "[[sim:generation_ms=300]] [[sim:output_bytes=20000]]";
const PLACEHOLDER_SECRET = `whsec_${Buffer.alloc(24, 7).toString("base64")}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Api = ApiClient;

async function created(api: Api, path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await api.call("POST", path, { body });
  if (answer.status >= 300)
    throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function video(api: Api, prompt: string): Promise<string> {
  const body = await created(api, "/v1/video/generations", { model: "gamma-3.1", prompt });
  return body.task_id as string;
}

async function statusOf(api: Api, id: string): Promise<string> {
  return (await api.call("GET", `/v1/jobs/${id}`)).body.status as string;
}

async function until(api: Api, id: string, statuses: string[]): Promise<void> {
  const deadline = Date.now() + 240_000;
  while (!statuses.includes(await statusOf(api, id))) {
    if (Date.now() > deadline) throw new Error(`${id}: not ${statuses.join(" or ")} in time`);
    await sleep(500);
  }
}

/** The work above, through the release's API; resolves once every job is where it should stay. */
async function drive(api: Api, hookUrl: string, s3Endpoint: string): Promise<void> {
  await created(api, "/v1/webhooks", { url: hookUrl });
  await created(api, "/v1/keys", { name: "fixtures", budget: { amount: 50, period: "month" } });
  const ended = [
    await video(api, `succeeds ${QUICK}`),
    await video(api, `fails [[sim:task_fail]] ${QUICK}`),
    (
      await created(api, "/v1/chat/completions", {
        model: "deltaq2-image",
        messages: [{ role: "user", content: `an image [[sim:generation_ms=300]]` }],
        modalities: ["image", "text"],
        image_config: { aspect_ratio: "1:1", image_size: "2K" },
      })
    ).task_id as string,
  ];
  const batch = await created(api, "/v1/batches", {
    requests: [
      { model: "gamma-3.1", prompt: `batch line 1 ${QUICK}` },
      { model: "no-such-model", prompt: "batch line 2" },
    ],
  });
  for (const id of ended) await until(api, id, ["succeeded", "failed"]);
  const cancelled = await video(api, `cancelled ${LONG}`);
  await until(api, cancelled, ["running"]);
  await created(api, `/v1/jobs/${cancelled}/cancel`, {});
  await until(api, cancelled, ["cancelled"]);
  const s3 = (await import("@aws-sdk/client-s3")).S3Client;
  const client = new s3({
    endpoint: s3Endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  await client.send(
    new PutObjectCommand({
      Bucket: "reelay-local",
      Key: "inbox/bad.json",
      Body: '{"model": "no-such-model"}',
    }),
  );
  const deadline = Date.now() + 120_000;
  while (
    (await api.call("GET", `/v1/batches/${String(batch.id)}`)).body.status !== "completed" &&
    Date.now() < deadline
  )
    await sleep(500);
  const downloading = await video(
    api,
    `downloading [[sim:generation_ms=300]] [[sim:download_error times=100000]]`,
  );
  await until(api, downloading, ["downloading"]);
  const running = await video(api, `running ${LONG}`);
  await until(api, running, ["running"]);
  const queued = await video(api, `queued ${LONG}`);
  await sleep(3_000);
  if ((await statusOf(api, queued)) !== "queued") throw new Error(`${queued} is not queued`);
}

/** The item with each stored webhook secret (a subscriber's, a key's) replaced by the placeholder. */
function redacted(item: Record<string, unknown>): Record<string, unknown> {
  const out = { ...item };
  for (const field of ["secrets", "webhookSecrets"]) {
    const list = out[field];
    if (Array.isArray(list))
      out[field] = list.map((s: object) => ({ ...s, secret: PLACEHOLDER_SECRET }));
  }
  return out;
}

/** Every item and versioned object the stopped stack left in `dataDir`. */
async function dump(dataDir: string) {
  const standins = await startStandins({ dataDir });
  try {
    const scan = await standins.ddb.send(new ScanCommand({ TableName: standins.tableName }));
    const items = (scan.Items ?? [])
      .map(redacted)
      .sort((a, b) => String(a.pk).localeCompare(String(b.pk)));
    const listed = await standins.s3.send(new ListObjectsV2Command({ Bucket: standins.bucket }));
    const objects: Record<string, string> = {};
    for (const { Key } of listed.Contents ?? []) {
      if (Key === undefined || !/(job\.json|results\.jsonl|\.error\.json)$/.test(Key)) continue;
      const got = await standins.s3.send(new GetObjectCommand({ Bucket: standins.bucket, Key }));
      objects[Key] = (await got.Body?.transformToString()) ?? "";
    }
    return { items, objects };
  } finally {
    await standins.close();
  }
}

const release = previousRelease();
const tree = extractRelease(release);
const work = await mkdtemp(join(tmpdir(), "reelay-fixtures-"));
const dataDir = join(work, "data");
await mkdir(dataDir);
const simKey = `sim_${randomBytes(8).toString("hex")}`;
const simulator = await startSimulator({ apiKey: simKey });
const hook = createServer((req, res) => req.resume().on("end", () => res.end("ok")));
await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
const apiKey = `fixtures_${randomBytes(12).toString("hex")}`;
const port = await freePort();
const child = spawn(
  process.execPath,
  [join(tree, "packages/cli/bin/reelay.js"), "up", "--port", String(port), "--data-dir", dataDir],
  {
    cwd: tree,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      PATH: process.env.PATH,
      REELAY_API_KEY: apiKey,
      REELAY_UPSTREAM_URL: simulator.url,
      REELAY_UPSTREAM_API_KEY: simKey,
      REELAY_UPSTREAM_CONCURRENCY: "1",
      REELAY_PRICES: JSON.stringify({
        currency: "USD",
        models: { "gamma-3.1": { per_second: { default: 0.05 } } },
      }),
      REELAY_BUDGET: JSON.stringify({ amount: 1000, unit: "currency", period: "month" }),
      REELAY_WEBHOOK_SCHEDULE: "0,1",
    },
  },
);
const exited = new Promise((resolve) => child.once("exit", resolve));
try {
  const api = new ApiClient(`http://127.0.0.1:${port}`, apiKey);
  const health = (await api.call("GET", "/healthz")).body;
  if (health.version !== release.version)
    throw new Error(`the stack says ${health.version}, not ${release.version}`);
  await drive(
    api,
    `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
    health.s3?.endpoint ?? `http://127.0.0.1:${port + 1}`,
  );
} finally {
  // The downloading job's step retries past the stop's grace: what is left is killed.
  child.kill("SIGTERM");
  const grace = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(grace);
  hook.close();
  await simulator.close();
}
const { items, objects } = await dump(dataDir);
const out = join(ROOT, "test", "fixtures", release.version);
await mkdir(out, { recursive: true });
await writeFile(join(out, "items.json"), `${JSON.stringify(items, null, 1)}\n`);
await writeFile(join(out, "objects.json"), `${JSON.stringify(objects, null, 1)}\n`);
await rm(work, { recursive: true, force: true });
console.log(`${items.length} items, ${Object.keys(objects).length} objects written to ${out}`);
