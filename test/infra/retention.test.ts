/**
 * Retention and delivery on AWS, synthesized offline with
 * REELAY_RETENTION_DAYS, REELAY_OUTPUT_BUCKETS and REELAY_UPLOAD_RETENTION_DAYS as `sst deploy`
 * would read them: uploads/ expires after the upload retention; the bucket
 * expires outputs by their retention tag, one lifecycle rule per day count; the jobs table expires
 * records by their own TTL attribute; the functions get both settings; only the Download step may
 * write the listed buckets (and read its outputs/ as the copy's source); cdk-nag stays clean.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { RECORD_TTL_ATTRIBUTE } from "@reelay/core/adapters";
import { RETENTION_TAG, RETENTION_TAG_DAYS } from "@reelay/core/domain";
import { loadConfig } from "@reelay/core/wiring";
import {
  reelayFunctions,
  render,
  resourcesOf,
  shortId,
  synthReelay,
  SYNTH_TIMEOUT_MS,
  type Synth,
} from "./synth.ts";

const DEPLOY = {
  REELAY_RETENTION_DAYS: "14",
  REELAY_OUTPUT_BUCKETS: "customer-renders,archive.example-bucket",
  REELAY_UPLOAD_RETENTION_DAYS: "3",
};

let synth: Synth;

beforeAll(async () => {
  synth = await synthReelay(DEPLOY);
}, SYNTH_TIMEOUT_MS);

type Statement = { Action: string | string[]; Resource: unknown };

const functions = () =>
  Object.entries(reelayFunctions(synth.template)).map(([id, fn]) => ({
    name: shortId(id),
    env: fn.Properties!.Environment.Variables as Record<string, string>,
    role: render(fn.Properties!.Role),
  }));

const statementsOf = (role: string): Statement[] =>
  Object.values(resourcesOf(synth.template, "AWS::IAM::Policy"))
    .filter((p) => render(p.Properties!.Roles[0]) === role)
    .flatMap((p) => p.Properties!.PolicyDocument.Statement as Statement[]);

/** The resources `role` may call `action` on, rendered. */
const resourcesFor = (role: string, action: string): string[] =>
  statementsOf(role)
    .filter((s) => [s.Action].flat().includes(action))
    .flatMap((s) => [s.Resource].flat().map(render));

describe("retention and delivery on AWS", () => {
  it("synthesizes with both settings, and cdk-nag reports no unsuppressed error", () => {
    expect(synth.nagErrors).toEqual([]);
  });

  it("expires outputs by their retention tag: one lifecycle rule per day count, each expiring its tag after that many days", () => {
    const buckets = Object.entries(resourcesOf(synth.template, "AWS::S3::Bucket"));
    const [, bucket] = buckets.find(([id]) => shortId(id) === "Bucket") ?? [];
    const rules = bucket!.Properties!.LifecycleConfiguration.Rules as any[];
    const byTag = rules.filter((rule) => rule.TagFilters !== undefined);
    expect(byTag).toHaveLength(RETENTION_TAG_DAYS.length);
    for (const days of RETENTION_TAG_DAYS)
      expect(byTag).toContainEqual({
        Id: `expire-retention-${days}d`,
        Status: "Enabled",
        TagFilters: [{ Key: RETENTION_TAG, Value: String(days) }],
        ExpirationInDays: days,
      });
    // S3 allows 1,000 rules a bucket.
    expect(rules.length).toBeLessThan(1000);
  });

  it("expires uploads/ after REELAY_UPLOAD_RETENTION_DAYS, and gives every function the setting", () => {
    const buckets = Object.entries(resourcesOf(synth.template, "AWS::S3::Bucket"));
    const [, bucket] = buckets.find(([id]) => shortId(id) === "Bucket") ?? [];
    const rules = bucket!.Properties!.LifecycleConfiguration.Rules as any[];
    expect(rules.filter((rule) => rule.Prefix === "uploads/")).toEqual([
      { Id: "expire-uploads", Status: "Enabled", Prefix: "uploads/", ExpirationInDays: 3 },
    ]);
    for (const fn of functions()) expect(fn.env.REELAY_UPLOAD_RETENTION_DAYS, fn.name).toBe("3");
  });

  it("expires job records by their own TTL attribute", () => {
    const tables = Object.values(resourcesOf(synth.template, "AWS::DynamoDB::Table"));
    expect(tables).toHaveLength(1);
    expect(tables[0]!.Properties!.TimeToLiveSpecification).toEqual({
      AttributeName: RECORD_TTL_ATTRIBUTE,
      Enabled: true,
    });
  });

  it("gives every function REELAY_RETENTION_DAYS and REELAY_OUTPUT_BUCKETS, which its loadConfig reads back the same", () => {
    expect(functions()).not.toHaveLength(0);
    for (const { name, env } of functions()) {
      expect(env.REELAY_RETENTION_DAYS, name).toBe("14");
      const config = loadConfig({
        REELAY_RETENTION_DAYS: env.REELAY_RETENTION_DAYS,
        REELAY_OUTPUT_BUCKETS: env.REELAY_OUTPUT_BUCKETS,
      });
      expect(config.retentionDays, name).toBe(14);
      expect(config.outputBuckets, name).toEqual(["customer-renders", "archive.example-bucket"]);
    }
  });

  it("lets only the Download step write the listed buckets, and tag what it writes to outputs/", () => {
    const targets = ["customer-renders", "archive.example-bucket"].map(
      (name) => `arn:aws:s3:::${name}/*`,
    );
    for (const { name, role } of functions()) {
      const writes = resourcesFor(role, "s3:PutObject").filter((r) => targets.includes(r));
      if (name === "DownloadFunction") {
        expect(writes.sort(), name).toEqual([...targets].sort());
        expect(resourcesFor(role, "s3:GetObject"), name).toContain("Bucket/outputs/*");
        expect(resourcesFor(role, "s3:PutObjectTagging"), name).toContain("Bucket/outputs/*");
      } else expect(writes, name).toEqual([]);
    }
  });
});
