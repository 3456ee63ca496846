/**
 * dynalite writes index entries before the item; a process killed in between leaves the listing
 * index ahead of the table. The kill is reproduced in-process: dynalite's own index write runs, then
 * the write fails before the item is stored, which is the on-disk state a SIGKILL there leaves.
 * The next start (startStandins) must list every job once, as its item says.
 */
import { mkdtemp, rm } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, expect, it } from "vitest";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../src/aws-clients.ts";
import { LOCAL_TABLE, startStandins, type Standins } from "../src/aws-standins.ts";

const require = createRequire(import.meta.url);
const dynalite = require("dynalite") as (options: Record<string, unknown>) => Server;
type UpdateIndexes = (
  store: unknown,
  table: unknown,
  existing: unknown,
  item: unknown,
  cb: (error?: Error) => void,
) => void;
const dynaliteDb = require("dynalite/db") as { updateIndexes: UpdateIndexes };

let dataDir: string | undefined;
let standins: Standins | undefined;

afterEach(async () => {
  await standins?.close();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  standins = undefined;
  dataDir = undefined;
});

const job = (id: string, createdAt: string, status: string) => ({
  pk: id,
  gsi1pk: "JOB",
  gsi1sk: `${createdAt}#${id}`,
  id,
  status,
  createdAt,
});

/** Runs `writes` against a bare dynalite on `dir` (no repair at start); with `killed`, every write stops after its index entries. */
async function withDynalite(
  dir: string,
  killed: boolean,
  writes: (ddb: DynamoDBDocumentClient) => Promise<void>,
): Promise<void> {
  const real = dynaliteDb.updateIndexes;
  // dynalite answers an error with a statusCode (here a 500) and throws any other.
  const dead = Object.assign(new Error("killed"), {
    statusCode: 500,
    body: { __type: "com.amazonaws.dynamodb.v20120810#InternalFailure", message: "killed" },
  });
  if (killed)
    dynaliteDb.updateIndexes = (store, table, existing, item, cb) =>
      real(store, table, existing, item, (error) => cb(error ?? dead));
  const server = dynalite({ path: join(dir, "dynamodb") });
  try {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ddb = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        region: LOCAL_REGION,
        endpoint,
        credentials: LOCAL_CREDENTIALS,
        maxAttempts: 1,
      }),
    );
    await writes(ddb);
    ddb.destroy();
  } finally {
    dynaliteDb.updateIndexes = real;
    await new Promise((resolve) => server.close(resolve));
  }
}

async function listed(ddb: DynamoDBDocumentClient): Promise<string[]> {
  const page = await ddb.send(
    new QueryCommand({
      TableName: LOCAL_TABLE,
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :p",
      ExpressionAttributeValues: { ":p": "JOB" },
    }),
  );
  return (page.Items ?? []).map((item) => `${item.id} ${item.status} ${item.createdAt}`).sort();
}

it("entries a kill left in the listing index without their item are put right at the next start", async () => {
  dataDir = await mkdtemp(join(tmpdir(), "reelay-index-"));
  // A first start makes the table; two jobs are stored whole.
  standins = await startStandins({ dataDir, s3Port: 0 });
  await standins.ddb.send(
    new PutCommand({
      TableName: LOCAL_TABLE,
      Item: job("vidtsk_A", "2026-01-01T00:00:01Z", "running"),
    }),
  );
  await standins.ddb.send(
    new PutCommand({
      TableName: LOCAL_TABLE,
      Item: job("vidtsk_B", "2026-01-01T00:00:02Z", "running"),
    }),
  );
  await standins.close();
  standins = undefined;

  await withDynalite(dataDir, true, async (ddb) => {
    const put = (item: Record<string, unknown>) =>
      ddb.send(new PutCommand({ TableName: LOCAL_TABLE, Item: item })).catch(() => undefined);
    await put(job("vidtsk_A", "2026-01-01T00:00:01Z", "succeeded")); // A's update reached only the index
    await put(job("vidtsk_C", "2026-01-01T00:00:03Z", "queued")); // C's creation reached only the index...
    await put(job("vidtsk_D", "2026-01-01T00:00:04Z", "queued")); // ...and D's, which its caller retries:
  });
  await withDynalite(dataDir, false, async (ddb) => {
    await ddb.send(
      new PutCommand({
        TableName: LOCAL_TABLE,
        Item: job("vidtsk_D", "2026-01-01T00:00:09Z", "queued"),
      }),
    );
    // What the listing says before any repair: A ahead of its item, C without one, D twice.
    expect(await listed(ddb)).toEqual([
      "vidtsk_A succeeded 2026-01-01T00:00:01Z",
      "vidtsk_B running 2026-01-01T00:00:02Z",
      "vidtsk_C queued 2026-01-01T00:00:03Z",
      "vidtsk_D queued 2026-01-01T00:00:04Z",
      "vidtsk_D queued 2026-01-01T00:00:09Z",
    ]);
  });

  standins = await startStandins({ dataDir, s3Port: 0 });
  expect(await listed(standins.ddb)).toEqual([
    "vidtsk_A running 2026-01-01T00:00:01Z",
    "vidtsk_B running 2026-01-01T00:00:02Z",
    "vidtsk_D queued 2026-01-01T00:00:09Z",
  ]);
}, 60_000);
