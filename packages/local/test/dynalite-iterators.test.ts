/**
 * dynalite closes a Query's or Scan's leveldb iterator with `iterator.return()`, which
 * abstract-level's iterators lack: without close-iterators.mjs (what the dynalite child applies)
 * every one stayed open, pinning its snapshot's memory and files until the database closed. Here a
 * bare dynalite on a folder serves queries cut short by a Limit, queries read to the end and scans,
 * and every iterator it opened is closed once they are answered.
 */
import { mkdtemp, rm } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  ScanCommand,
} from "@aws-sdk/lib-dynamodb";
import { createJobsTableInput } from "@reelay/core/adapters";
import { afterEach, expect, it } from "vitest";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../src/aws-clients.ts";
import { ensureTable } from "../src/dynalite/table.ts";
// @ts-expect-error: a plain JavaScript module of the dynalite child, without types
import { closeIteratorsOnReturn } from "../src/dynalite/close-iterators.mjs";

const require = createRequire(import.meta.url);
const dynalite = require("dynalite") as (options: Record<string, unknown>) => Server;
const fromDynalite = createRequire(require.resolve("dynalite"));
const { Level } = fromDynalite("level") as {
  Level: { prototype: { _iterator: (...args: unknown[]) => { _close: () => Promise<void> } } };
};
const { AbstractIterator } = createRequire(
  createRequire(fromDynalite.resolve("level")).resolve("classic-level"),
)("abstract-level") as { AbstractIterator: unknown };

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

it("every leveldb iterator a Query or Scan opens is closed once it is answered", async () => {
  closeIteratorsOnReturn(AbstractIterator);
  let opened = 0;
  let closed = 0;
  const iterator = Level.prototype._iterator;
  Level.prototype._iterator = function counted(...args: unknown[]) {
    const it = iterator.apply(this, args);
    opened++;
    const close = it._close.bind(it);
    it._close = async () => {
      closed++;
      await close();
    };
    return it;
  };
  dir = await mkdtemp(join(tmpdir(), "reelay-iterators-"));
  const server = dynalite({ path: dir, createTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const ddb = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: LOCAL_REGION,
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: LOCAL_CREDENTIALS,
    }),
  );
  try {
    const TableName = createJobsTableInput("jobs").TableName as string;
    await ensureTable(ddb, TableName);
    for (let i = 0; i < 30; i++)
      await ddb.send(
        new PutCommand({
          TableName,
          Item: { pk: `vidtsk_${i}`, gsi1pk: "JOB", gsi1sk: `2026-01-01T00:00:${10 + i}Z#${i}` },
        }),
      );
    const before = opened;
    const listing = (limit?: number) =>
      new QueryCommand({
        TableName,
        IndexName: "gsi1",
        KeyConditionExpression: "gsi1pk = :p",
        ExpressionAttributeValues: { ":p": "JOB" },
        ...(limit === undefined ? {} : { Limit: limit }),
      });
    for (let i = 0; i < 20; i++) {
      await ddb.send(listing(3));
      await ddb.send(listing());
      await ddb.send(new ScanCommand({ TableName, Limit: 5 }));
      await ddb.send(new ScanCommand({ TableName }));
    }
    // Closing is asynchronous: give the last ones a moment.
    for (let wait = 0; closed < opened && wait < 50; wait++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(opened - before).toBeGreaterThanOrEqual(80);
    expect(closed).toBe(opened);
  } finally {
    Level.prototype._iterator = iterator;
    ddb.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}, 60_000);
