/** Generation-time samples as items of the jobs table, on dynalite (the real DynamoDB API). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GenerationStatsStore, generationStatsKey } from "../../src/jobs/generation-stats.ts";
import { JobStore } from "../../src/jobs/store.ts";
import { bucketOf } from "../../src/polling/history.ts";
import { startLocalAws, type LocalAws } from "../support/local-aws.ts";

let aws: LocalAws;
let stats: GenerationStatsStore;

beforeAll(async () => {
  aws = await startLocalAws();
  stats = new GenerationStatsStore(aws.ddb, aws.tableName);
});
afterAll(async () => {
  await aws?.stop();
});

describe("generationStatsKey", () => {
  it("files a job under its model and requested duration, or 'default' without one", () => {
    expect(generationStatsKey({ model: "gamma-3.1", request: { duration_sec: 8 } })).toBe("stats#gamma-3.1#8");
    expect(generationStatsKey({ model: "deltaq2-image", request: {} })).toBe("stats#deltaq2-image#default");
  });
});

describe("GenerationStatsStore", () => {
  it("has no history for a key nothing was recorded under", async () => {
    expect(await stats.history("stats#never-used#5")).toBeUndefined();
  });

  it("keeps every sample when 200 finishers record at once (atomic ADDs, no read-modify-write)", async () => {
    const key = "stats#gamma-3.1#8";
    const samples = Array.from({ length: 200 }, (_, i) => 60_000 + (i % 40) * 1_000);
    await Promise.all(samples.map((ms) => stats.record(key, ms)));
    const history = (await stats.history(key))!;
    expect(history.samples).toBe(200);
    const expected: Record<number, number> = {};
    for (const ms of samples) expected[bucketOf(ms)] = (expected[bucketOf(ms)] ?? 0) + 1;
    expect(history.buckets).toEqual(expected);
  });

  it("never shows up in the job listing", async () => {
    await stats.record("stats#os-2#4", 30_000);
    const page = await new JobStore(aws.ddb, aws.tableName).list({ limit: 100 });
    expect(page.jobs.filter((job) => String(job.id).startsWith("stats#"))).toEqual([]);
  });
});
