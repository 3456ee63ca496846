/** Generation-time samples as items of the jobs table, on dynalite (the real DynamoDB API). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CachedGenerationStats,
  GenerationStatsStore,
} from "../../../src/adapters/dynamodb/generation-stats-table.ts";
import { generationStatsKey } from "../../../src/domain/polling/generation-key.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import { bucketOf } from "../../../src/domain/polling/history.ts";
import { GENERATION_STATS_KEY_PREFIX } from "../../../src/adapters/dynamodb/item-keys.ts";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";

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
    expect(
      generationStatsKey({ model: "gamma-3.1", request: { model: "gamma-3.1", duration_sec: 8 } }),
    ).toBe("gamma-3.1#8");
    expect(
      generationStatsKey({
        model: "deltaq2-image",
        request: { model: "deltaq2-image", messages: [], modalities: ["image"] },
      }),
    ).toBe("deltaq2-image#default");
  });
});

describe("GenerationStatsStore", () => {
  it("has no history for a key nothing was recorded under", async () => {
    expect(await stats.history("never-used#5")).toBeUndefined();
  });

  it("keeps a group's samples in the item stats#<model>#<duration>, the key items on AWS have", async () => {
    await stats.record("kept-key#6", 45_000);
    const answer = await aws.ddb.send(
      new GetCommand({ TableName: aws.tableName, Key: { pk: "stats#kept-key#6" } }),
    );
    expect(answer.Item?.n).toBe(1);
  });

  it("keeps every sample when 200 finishers record at once (atomic ADDs, no read-modify-write)", async () => {
    const key = "gamma-3.1#8";
    const samples = Array.from({ length: 200 }, (_, i) => 60_000 + (i % 40) * 1_000);
    await Promise.all(samples.map((ms) => stats.record(key, ms)));
    const history = (await stats.history(key))!;
    expect(history.samples).toBe(200);
    const expected: Record<number, number> = {};
    for (const ms of samples) expected[bucketOf(ms)] = (expected[bucketOf(ms)] ?? 0) + 1;
    expect(history.buckets).toEqual(expected);
  });

  it("never shows up in the job listing", async () => {
    await stats.record("os-2#4", 30_000);
    const page = await new JobStore(aws.ddb, aws.tableName).list({ limit: 100 });
    expect(
      page.jobs.filter((job) => String(job.id).startsWith(GENERATION_STATS_KEY_PREFIX)),
    ).toEqual([]);
  });
});

/** The real store on dynalite, its reads counted (a spy, not a stand-in). */
function countedStore(): {
  store: Pick<GenerationStatsStore, "history" | "record">;
  reads: () => number;
} {
  let reads = 0;
  return {
    store: {
      history: (key) => {
        reads++;
        return stats.history(key);
      },
      record: (key, ms) => stats.record(key, ms),
    },
    reads: () => reads,
  };
}

describe("CachedGenerationStats", () => {
  it("answers repeated reads of a key from one read until its time is up, then reads again", async () => {
    const key = "cache-ttl#4";
    await stats.record(key, 20_000);
    let now = 1_000_000;
    const { store, reads } = countedStore();
    const cached = new CachedGenerationStats(store, { ttlMs: 5_000, clock: () => now });
    const first = await Promise.all([cached.history(key), cached.history(key)]);
    expect(await cached.history(key)).toEqual(first[0]);
    expect(first[0]?.samples).toBe(1);
    expect(reads()).toBe(1);
    // A sample from elsewhere (another process) shows once the held read is older than the ttl.
    await stats.record(key, 20_000);
    now += 4_999;
    expect((await cached.history(key))?.samples).toBe(1);
    now += 1;
    expect((await cached.history(key))?.samples).toBe(2);
    expect(reads()).toBe(2);
  });

  it("counts a sample this process records at once, exactly once, without reading again", async () => {
    const key = "cache-own#4";
    const { store, reads } = countedStore();
    const cached = new CachedGenerationStats(store, { ttlMs: 60_000 });
    expect(await cached.history(key)).toBeUndefined();
    await Promise.all([
      cached.record(key, 20_000),
      cached.record(key, 20_000),
      cached.record(key, 90_000),
    ]);
    const held = await cached.history(key);
    expect(reads()).toBe(1);
    expect(held).toEqual(await stats.history(key));
    expect(held?.samples).toBe(3);
  });

  it("does not keep a read that overlapped a write of its key (it may or may not hold the sample)", async () => {
    const key = "cache-overlap#4";
    const { store, reads } = countedStore();
    const cached = new CachedGenerationStats(store, { ttlMs: 60_000 });
    const recording = cached.record(key, 20_000);
    const during = cached.history(key);
    await Promise.all([recording, during]);
    const after = await cached.history(key);
    expect(after?.samples).toBe(1);
    expect(reads()).toBe(2);
    // That second read, after the write, is kept.
    expect((await cached.history(key))?.samples).toBe(1);
    expect(reads()).toBe(2);
  });
});
