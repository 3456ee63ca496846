/**
 * The stored-data migration (`npm run migrate`): brings every item of the jobs table and every
 * object reelay wrote for people to read (job.json, results.jsonl, .error.json) to the current
 * schema version (packages/core/src/domain/schema-version.ts).
 *
 * From version 1 (0.1.0, no version) to 2 the shape does not change: the migration only stamps the
 * version. An item is stamped with a conditional write (only while it still has no version), so a
 * running reelay writing the same item meanwhile loses nothing, and a second run changes nothing.
 * An item or object of a version newer than this release's is left as it is and counted.
 *
 * Resumable: after each page of the table's scan and of the bucket's listing, where the next page
 * starts is written to the checkpoint file; a run that finds one starts there. A run that finishes
 * removes it. A dry run writes nothing (not even the checkpoint) and says what it would change.
 */
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import {
  GetObjectCommand,
  GetObjectTaggingCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { type DynamoDBDocumentClient, ScanCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ITEM_VERSION_ATTRIBUTE, OBJECT_VERSION_FIELD, SCHEMA_VERSION } from "@reelay/core/domain";

type Item = Record<string, unknown>;

export interface MigrationTarget {
  ddb: DynamoDBDocumentClient;
  tableName: string;
  s3: S3Client;
  bucket: string;
}

export interface MigrationOptions {
  dryRun: boolean;
  checkpointFile: string;
  /** Items (or objects) per page; default 100. */
  pageSize?: number;
  /** Stops after this many pages, leaving the checkpoint (what an interruption leaves). */
  maxPages?: number;
  log: (line: string) => void;
}

interface MigrationCounts {
  /** Stamped (or, in a dry run, that would be). */
  changed: number;
  /** Already at the current version. */
  current: number;
  /** Of a newer version than this release's: left alone. */
  newer: number;
}

export interface MigrationReport {
  items: MigrationCounts;
  objects: MigrationCounts;
  /** False when it stopped at maxPages with work left (the checkpoint says where). */
  finished: boolean;
}

interface Checkpoint {
  /** The scan's next start; null once the table is done. */
  table?: Item | null;
  /** The last object key handled in each prefix; null once the prefix is done. */
  objects?: Record<string, string | null>;
}

/** The prefixes whose objects carry a version, and which of their keys do. */
const OBJECT_KINDS = [
  { prefix: "outputs/", versioned: (key: string) => /\/(job\.json|results\.jsonl)$/.test(key) },
  { prefix: "rejected/", versioned: (key: string) => key.endsWith(".error.json") },
] as const;

function counts(): MigrationCounts {
  return { changed: 0, current: 0, newer: 0 };
}

async function readCheckpoint(file: string): Promise<Checkpoint> {
  return existsSync(file) ? (JSON.parse(await readFile(file, "utf8")) as Checkpoint) : {};
}

/** What a version says: its absence is 1, the attribute otherwise. */
function classify(version: unknown): keyof MigrationCounts {
  if (version === undefined) return "changed";
  return typeof version === "number" && version <= SCHEMA_VERSION ? "current" : "newer";
}

/** Stamps one version-1 item, only while it still has no version (a writer may have got there). */
async function stampItem(target: MigrationTarget, pk: unknown): Promise<void> {
  await target.ddb
    .send(
      new UpdateCommand({
        TableName: target.tableName,
        Key: { pk },
        UpdateExpression: "SET #v = :v",
        ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(#v)",
        ExpressionAttributeNames: { "#v": ITEM_VERSION_ATTRIBUTE },
        ExpressionAttributeValues: { ":v": SCHEMA_VERSION },
      }),
    )
    .catch((error: unknown) => {
      if ((error as { name?: string }).name !== "ConditionalCheckFailedException") throw error;
    });
}

interface Run {
  target: MigrationTarget;
  options: MigrationOptions;
  checkpoint: Checkpoint;
  pages: number;
  report: MigrationReport;
}

async function save(run: Run): Promise<void> {
  if (!run.options.dryRun)
    await writeFile(run.options.checkpointFile, `${JSON.stringify(run.checkpoint)}\n`);
}

/** True while another page may be read in this run. */
function pageLeft(run: Run): boolean {
  if (run.options.maxPages !== undefined && run.pages >= run.options.maxPages) {
    run.report.finished = false;
    return false;
  }
  run.pages++;
  return true;
}

async function migrateTable(run: Run): Promise<void> {
  const { target, options } = run;
  while (run.checkpoint.table !== null && pageLeft(run)) {
    const page = await target.ddb.send(
      new ScanCommand({
        TableName: target.tableName,
        Limit: options.pageSize ?? 100,
        ...(run.checkpoint.table === undefined ? {} : { ExclusiveStartKey: run.checkpoint.table }),
      }),
    );
    for (const item of page.Items ?? []) {
      const kind = classify(item[ITEM_VERSION_ATTRIBUTE]);
      run.report.items[kind]++;
      if (kind === "newer")
        options.log(
          `item ${String(item.pk)}: version ${String(item[ITEM_VERSION_ATTRIBUTE])}, newer than ${SCHEMA_VERSION}: left alone`,
        );
      if (kind !== "changed") continue;
      if (options.dryRun)
        options.log(`would stamp item ${String(item.pk)}: version 1 -> ${SCHEMA_VERSION}`);
      else await stampItem(target, item.pk);
    }
    run.checkpoint.table = page.LastEvaluatedKey ?? null;
    await save(run);
  }
}

/** The object's text with its version added: to the one JSON value, or to each JSONL line. */
function stampedText(key: string, text: string, field: string): string {
  if (key.endsWith(".jsonl"))
    return text
      .split("\n")
      .map((line) =>
        line.trim() === ""
          ? line
          : JSON.stringify({ ...JSON.parse(line), [field]: SCHEMA_VERSION }),
      )
      .join("\n");
  // Laid out as reelay writes its JSON objects (ObjectStore.putJson).
  return `${JSON.stringify({ ...JSON.parse(text), [field]: SCHEMA_VERSION }, null, 2)}\n`;
}

/** The version an object's text names (its first line's, for JSONL). */
function objectVersion(key: string, text: string, field: string): unknown {
  const first = key.endsWith(".jsonl")
    ? (text.split("\n").find((l) => l.trim() !== "") ?? "{}")
    : text;
  return (JSON.parse(first) as Item)[field];
}

async function migrateObject(run: Run, key: string): Promise<void> {
  const { target, options } = run;
  const got = await target.s3.send(new GetObjectCommand({ Bucket: target.bucket, Key: key }));
  const text = (await got.Body?.transformToString()) ?? "";
  // job.json is a record and names it as the items do; the snake_case objects their way.
  const field = key.endsWith("/job.json") ? ITEM_VERSION_ATTRIBUTE : OBJECT_VERSION_FIELD;
  const kind = classify(objectVersion(key, text, field));
  run.report.objects[kind]++;
  if (kind === "newer") options.log(`object ${key}: newer than ${SCHEMA_VERSION}: left alone`);
  if (kind !== "changed") return;
  if (options.dryRun)
    return options.log(`would stamp object ${key}: version 1 -> ${SCHEMA_VERSION}`);
  // Its tags (a job's retention) go with it: a put without them would drop them.
  const tags = await target.s3.send(
    new GetObjectTaggingCommand({ Bucket: target.bucket, Key: key }),
  );
  const tagging = new URLSearchParams(
    tags.TagSet?.map((t): [string, string] => [t.Key ?? "", t.Value ?? ""]),
  ).toString();
  await target.s3.send(
    new PutObjectCommand({
      Bucket: target.bucket,
      Key: key,
      Body: stampedText(key, text, field),
      ContentType: got.ContentType,
      ...(tagging === "" ? {} : { Tagging: tagging }),
    }),
  );
}

async function migrateObjects(run: Run): Promise<void> {
  const { target, options } = run;
  run.checkpoint.objects ??= {};
  const done = run.checkpoint.objects;
  for (const { prefix, versioned } of OBJECT_KINDS) {
    while (done[prefix] !== null && pageLeft(run)) {
      const page = await target.s3.send(
        new ListObjectsV2Command({
          Bucket: target.bucket,
          Prefix: prefix,
          MaxKeys: options.pageSize ?? 100,
          ...(done[prefix] === undefined ? {} : { StartAfter: done[prefix] }),
        }),
      );
      for (const { Key } of page.Contents ?? [])
        if (Key !== undefined && versioned(Key)) await migrateObject(run, Key);
      done[prefix] = page.IsTruncated === true ? (page.Contents?.at(-1)?.Key ?? null) : null;
      await save(run);
    }
  }
}

/** Runs (or resumes) the migration; see the file's comment. */
export async function migrate(
  target: MigrationTarget,
  options: MigrationOptions,
): Promise<MigrationReport> {
  const checkpoint = await readCheckpoint(options.checkpointFile);
  if (checkpoint.table !== undefined || checkpoint.objects !== undefined)
    options.log(`resuming from ${options.checkpointFile}`);
  const report = { items: counts(), objects: counts(), finished: true };
  const run: Run = { target, options, checkpoint, pages: 0, report };
  await migrateTable(run);
  await migrateObjects(run);
  if (report.finished && !options.dryRun) await rm(options.checkpointFile, { force: true });
  return report;
}
