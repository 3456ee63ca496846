/**
 * What 0.1.0's own code stored (test/fixtures/0.1.0/, written by `npm run fixtures:release`: its
 * `reelay up` driven through its API) read by this release's stores and readers: every item put
 * back as it was into dynalite and read through the store that owns it, every object's version
 * checked and its fields read. Version 1 (no version) is one this release reads.
 */
import { readFileSync } from "node:fs";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { readableVersion } from "../../src/domain/schema-version.ts";
import { describe, expect, it } from "vitest";
import { AdmissionStore } from "../../src/adapters/dynamodb/admission-table.ts";
import { ApiKeyStore } from "../../src/adapters/dynamodb/api-key-table.ts";
import { AuditStore } from "../../src/adapters/dynamodb/audit-table.ts";
import { BatchStore } from "../../src/adapters/dynamodb/batch-table.ts";
import { BudgetLedger } from "../../src/adapters/dynamodb/budget-ledger.ts";
import { DeliveryStore } from "../../src/adapters/dynamodb/delivery-table.ts";
import { GenerationStatsStore } from "../../src/adapters/dynamodb/generation-stats-table.ts";
import { JobStore } from "../../src/adapters/dynamodb/job-table.ts";
import { ReuseIndex } from "../../src/adapters/dynamodb/reuse-table.ts";
import { SubscriberStore } from "../../src/adapters/dynamodb/subscriber-table.ts";
import { JOB_STATUSES } from "../../src/domain/jobs/types.ts";
import type { LocalAws } from "../support/local-aws.ts";
import { sharedLocalAws } from "../support/shared-local-aws.ts";

type Item = Record<string, any>;
const fixture = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../../test/fixtures/0.1.0/${name}`, import.meta.url), "utf8"),
  );
const ITEMS = fixture("items.json") as Item[];
const OBJECTS = fixture("objects.json") as Record<string, string>;
const localAws = sharedLocalAws();

const of = (kind: string) => ITEMS.filter((item) => item.gsi1pk === kind);
const withPk = (prefix: string) => ITEMS.filter((item) => String(item.pk).startsWith(prefix));

let loaded: Promise<LocalAws> | undefined;
/** The fixture's items, put back as 0.1.0 stored them, once for the file. */
function stored(): Promise<LocalAws> {
  loaded ??= (async () => {
    const aws = localAws();
    for (const item of ITEMS)
      await aws.ddb.send(new PutCommand({ TableName: aws.tableName, Item: item }));
    return aws;
  })();
  return loaded;
}

describe("0.1.0's items, read by this release's stores", () => {
  it("the fixture holds no schema version (0.1.0 wrote none) and a job in every status", () => {
    expect(ITEMS.filter((item) => "schemaVersion" in item)).toEqual([]);
    expect(new Set(of("JOB").map((job) => job.status))).toEqual(new Set(JOB_STATUSES));
  });

  it("jobs: each read by get and by the listing with its status, model, request and history; outputs and errors where they ended so", async () => {
    const aws = await stored();
    const jobs = new JobStore(aws.ddb, aws.tableName);
    const listed = await jobs.list({ limit: 50 });
    expect(listed.jobs.map((job) => job.id).sort()).toEqual(
      of("JOB")
        .map((j) => j.id)
        .sort(),
    );
    for (const item of of("JOB")) {
      const job = await jobs.require(item.id);
      expect(job).toMatchObject({ id: item.id, status: item.status, model: item.model });
      expect(job.request).toEqual(item.request);
      expect(job.history.at(-1)).toMatchObject({ status: item.status });
      if (item.status === "succeeded") expect(job.outputs?.[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
      if (item.status === "failed") expect(job.error?.code).toBe(item.error.code);
    }
  });

  it("the batch, its lines, the audit records, the subscriber and the deliveries", async () => {
    const aws = await stored();
    const [batchItem] = of("BATCH");
    const batches = new BatchStore(aws.ddb, aws.tableName);
    const batch = await batches.require(batchItem?.id);
    expect(batch).toMatchObject({ total: 2, jobs: 1, rejected: 1, ended: 1 });
    expect(batch.finishedAt).toBe(batchItem?.finishedAt);
    expect((await batches.lines(batch)).map((line) => line.line)).toEqual([1, 2]);
    const audit = await new AuditStore(aws.ddb, aws.tableName).list({});
    expect(audit.records.map((r) => r.action).sort()).toEqual(
      of("AUDIT")
        .map((r) => r.action)
        .sort(),
    );
    const [subscriber] = await new SubscriberStore(aws.ddb, aws.tableName).list();
    expect(subscriber).toMatchObject({
      id: of("WEBHOOK_SUBSCRIBER")[0]?.id,
      url: expect.any(String),
    });
    expect(subscriber?.secrets[0]?.secret).toMatch(/^whsec_/);
    const deliveries = await new DeliveryStore(aws.ddb, aws.tableName).list();
    expect(deliveries).toHaveLength(of("WEBHOOK#delivered").length);
    expect(new Set(deliveries.map((d) => d.status))).toEqual(new Set(["delivered"]));
  });

  it("the API key and its budget, the budget ledger, admission, the queue entry, generation stats and the reuse index", async () => {
    const aws = await stored();
    const keys = await new ApiKeyStore(aws.ddb, aws.tableName).list();
    expect(keys).toMatchObject([{ name: "fixtures", budget: { amount: 50, period: "month" } }]);
    const [ledger] = withPk("budget#");
    const used = await new BudgetLedger(aws.ddb, aws.tableName).used(ledger?.pk);
    expect(used).toBe(ledger?.reserved);
    const admission = new AdmissionStore(aws.ddb, aws.tableName);
    expect((await admission.state()).held).toEqual(withPk("admission")[0]?.held);
    const [queued] = of("QUEUE");
    expect(await admission.entry(queued?.jobId)).toMatchObject({ jobId: queued?.jobId });
    const stats = new GenerationStatsStore(aws.ddb, aws.tableName);
    for (const item of withPk("stats#"))
      expect((await stats.history(item.pk.slice("stats#".length)))?.samples).toBe(item.n);
    const reuse = new ReuseIndex(aws.ddb, aws.tableName);
    for (const item of withPk("fp#")) {
      const [, scope, fingerprint] = item.pk.split("#");
      expect(await reuse.read(scope, fingerprint)).toEqual({
        succeeded: { jobId: item.succeededId, at: item.succeededAt },
      });
    }
  });
});

describe("0.1.0's objects, read as this release reads them", () => {
  it("every job.json is version 1 and names its job's id and status as the job's item does", () => {
    const manifests = Object.entries(OBJECTS).filter(([key]) => key.endsWith("/job.json"));
    expect(manifests.length).toBeGreaterThan(0);
    for (const [key, text] of manifests) {
      const manifest = JSON.parse(text);
      expect(readableVersion(manifest.schemaVersion, key)).toBe(1);
      const item = of("JOB").find((job) => job.id === manifest.id);
      expect(manifest.status).toBe(item?.status);
    }
  });

  it("results.jsonl lines and the rejected drop's .error.json are version 1 with their fields", () => {
    const [, results = ""] =
      Object.entries(OBJECTS).find(([key]) => key.endsWith("results.jsonl")) ?? [];
    const lines = results
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => readableVersion(line.schema_version, "results.jsonl"))).toEqual([
      1, 1,
    ]);
    expect(lines.map((line) => line.status)).toEqual(["succeeded", "rejected"]);
    const errorFile = JSON.parse(OBJECTS["rejected/bad.json.error.json"] ?? "{}");
    expect(readableVersion(errorFile.schema_version, "error.json")).toBe(1);
    expect(errorFile).toMatchObject({
      file: "inbox/bad.json",
      errors: [expect.objectContaining({ code: expect.any(String) })],
    });
  });
});
