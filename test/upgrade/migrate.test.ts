/**
 * The stored-data migration (scripts/migration.ts, `npm run migrate`) on dynalite and s3rver:
 * version-1 items and objects (0.1.0's, no version) are stamped, a second run changes nothing, a
 * run stopped part way resumes from its checkpoint, and a dry run writes nothing.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  GetObjectCommand,
  GetObjectTaggingCommand,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { PutCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { SCHEMA_VERSION } from "@reelay/core/domain";
import { afterEach, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../packages/core/test/support/local-aws.ts";
import { migrate, type MigrationOptions } from "../../scripts/migration.ts";

const ITEMS = 23;
let aws: LocalAws | undefined;

afterEach(async () => {
  await aws?.stop();
  aws = undefined;
});

/** A table and bucket as 0.1.0 leaves them: items and objects without a version, and one newer item. */
async function unversioned(): Promise<LocalAws> {
  aws = await startLocalAws();
  for (let i = 0; i < ITEMS; i++)
    await aws.ddb.send(
      new PutCommand({ TableName: aws.tableName, Item: { pk: `item-${i}`, n: i } }),
    );
  await aws.ddb.send(
    new PutCommand({
      TableName: aws.tableName,
      Item: { pk: "from-the-future", schemaVersion: SCHEMA_VERSION + 1 },
    }),
  );
  const put = (Key: string, Body: string) =>
    aws?.s3.send(
      new PutObjectCommand({ Bucket: aws.bucket, Key, Body, ContentType: "application/json" }),
    );
  await put("outputs/vidtsk_1/job.json", JSON.stringify({ id: "vidtsk_1" }));
  await put("outputs/vidtsk_1/video.mp4", "not json");
  await put("outputs/batches/bat_1/results.jsonl", '{"line":1}\n{"line":2}\n');
  await put("rejected/a.json.error.json", JSON.stringify({ file: "inbox/a.json" }));
  return aws;
}

async function items(local: LocalAws) {
  const page = await local.ddb.send(new ScanCommand({ TableName: local.tableName }));
  return new Map((page.Items ?? []).map((item) => [item.pk as string, item]));
}

async function text(local: LocalAws, Key: string): Promise<string> {
  const got = await local.s3.send(new GetObjectCommand({ Bucket: local.bucket, Key }));
  return (await got.Body?.transformToString()) ?? "";
}

function options(local: LocalAws, more: Partial<MigrationOptions> = {}): MigrationOptions {
  return {
    dryRun: false,
    checkpointFile: join(local.dir, "checkpoint.json"),
    pageSize: 5,
    log: () => undefined,
    ...more,
  };
}

describe("npm run migrate", () => {
  it("stamps every version-1 item and object with the current version (tags kept, a newer item left alone); a second run changes nothing", async () => {
    const local = await unversioned();
    const first = await migrate(local, options(local));
    expect(first).toEqual({
      items: { changed: ITEMS, current: 0, newer: 1 },
      objects: { changed: 3, current: 0, newer: 0 },
      finished: true,
    });
    const stored = await items(local);
    expect(stored.get("item-3")).toEqual({ pk: "item-3", n: 3, schemaVersion: SCHEMA_VERSION });
    expect(stored.get("from-the-future")?.schemaVersion).toBe(SCHEMA_VERSION + 1);
    expect(await text(local, "outputs/vidtsk_1/job.json")).toBe(
      `${JSON.stringify({ id: "vidtsk_1", schemaVersion: SCHEMA_VERSION }, null, 2)}\n`,
    );
    expect(await text(local, "outputs/batches/bat_1/results.jsonl")).toBe(
      `{"line":1,"schema_version":${SCHEMA_VERSION}}\n{"line":2,"schema_version":${SCHEMA_VERSION}}\n`,
    );
    expect(JSON.parse(await text(local, "rejected/a.json.error.json")).schema_version).toBe(
      SCHEMA_VERSION,
    );
    expect(await text(local, "outputs/vidtsk_1/video.mp4")).toBe("not json");
    expect(existsSync(options(local).checkpointFile)).toBe(false);

    const second = await migrate(local, options(local));
    expect(second).toEqual({
      items: { changed: 0, current: ITEMS, newer: 1 },
      objects: { changed: 0, current: 3, newer: 0 },
      finished: true,
    });
    expect(await items(local)).toEqual(stored);
  });

  it("an object's tags (a job's retention) go with its rewrite", async () => {
    const local = await unversioned();
    // s3rver keeps no tags: its answer for job.json is the one S3 gives for a tagged object.
    const puts: PutObjectCommand["input"][] = [];
    const s3 = {
      send(command: Parameters<S3Client["send"]>[0]) {
        if (command instanceof GetObjectTaggingCommand)
          return Promise.resolve({ TagSet: [{ Key: "retention-days", Value: "7" }] });
        if (command instanceof PutObjectCommand) puts.push(command.input);
        return local.s3.send(command);
      },
    } as unknown as S3Client;
    await migrate({ ...local, s3 }, options(local));
    expect(puts.find((put) => put.Key === "outputs/vidtsk_1/job.json")).toMatchObject({
      Tagging: "retention-days=7",
      ContentType: "application/json",
    });
  });

  it("a run stopped after 2 pages leaves its checkpoint; the next run resumes there and finishes, each item stamped once", async () => {
    const local = await unversioned();
    const stopped = await migrate(local, options(local, { maxPages: 2 }));
    expect(stopped.finished).toBe(false);
    expect(stopped.items.changed).toBe(10);
    expect(existsSync(options(local).checkpointFile)).toBe(true);
    const lines: string[] = [];
    const resumed = await migrate(local, options(local, { log: (line) => lines.push(line) }));
    expect(lines[0]).toMatch(/^resuming from /);
    expect(resumed.finished).toBe(true);
    // The resumed run read only what the stopped one had not: together they saw each item once.
    expect(stopped.items.changed + resumed.items.changed).toBe(ITEMS);
    expect(resumed.items.current).toBe(0);
    const stored = [...(await items(local)).values()];
    expect(stored.filter((item) => item.schemaVersion === SCHEMA_VERSION)).toHaveLength(ITEMS);
  });

  it("a dry run says what it would stamp and writes nothing, not even a checkpoint", async () => {
    const local = await unversioned();
    const before = await items(local);
    const lines: string[] = [];
    const report = await migrate(
      local,
      options(local, { dryRun: true, log: (line) => lines.push(line) }),
    );
    expect(report.items.changed).toBe(ITEMS);
    expect(report.objects.changed).toBe(3);
    expect(lines).toContain(`would stamp item item-0: version 1 -> ${SCHEMA_VERSION}`);
    expect(lines).toContain(
      `would stamp object outputs/vidtsk_1/job.json: version 1 -> ${SCHEMA_VERSION}`,
    );
    expect(await items(local)).toEqual(before);
    expect(JSON.parse(await text(local, "outputs/vidtsk_1/job.json"))).toEqual({ id: "vidtsk_1" });
    expect(existsSync(options(local).checkpointFile)).toBe(false);
  });
});
