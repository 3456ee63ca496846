/**
 * The jobs table keeps a job's metadata and lists by it: a filter of several pairs must match all,
 * a key that is no identifier (dots, spaces, a DynamoDB reserved word) is matched as written, and
 * a job stored before metadata (no attribute) reads back without it and matches no filter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildJob } from "../../../src/usecases/jobs/create-job.ts";
import { newJobId } from "../../../src/domain/jobs/ids.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import type { Job } from "../../../src/domain/jobs/types.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";

let aws: LocalAws;
let store: JobStore;
const ids: Record<"order42" | "order43" | "odd" | "older", string> = {
  order42: "",
  order43: "",
  odd: "",
  older: "",
};

beforeAll(async () => {
  aws = await startLocalAws({ tableName: "list-metadata-test" });
  store = new JobStore(aws.ddb, aws.tableName);
  const base = buildJob({
    validation: validate({ model: "gamma-3.1", prompt: "a paper boat" }),
    source: { type: "api" },
  });
  const made: [keyof typeof ids, Job["metadata"]][] = [
    ["older", undefined],
    ["order42", { order: "42", customer: "c_1" }],
    ["order43", { order: "43", customer: "c_1" }],
    ["odd", { "a.b c": "x y", status: "42" }],
  ];
  for (const [i, [name, metadata]] of made.entries()) {
    const job: Job = {
      ...base,
      id: newJobId("video"),
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      ...(metadata === undefined ? {} : { metadata }),
    };
    ids[name] = job.id;
    await store.create(job);
  }
});
afterAll(() => aws.stop());

const listed = async (metadata: Record<string, string>) =>
  (await store.list({ metadata, limit: 100 })).jobs.map((job) => job.id);

describe("JobStore and metadata", () => {
  it("reads a job's metadata back as stored, and none for a job stored without it", async () => {
    expect((await store.get(ids.order42))?.metadata).toEqual({ order: "42", customer: "c_1" });
    const older = await store.get(ids.older);
    expect(older).toBeDefined();
    expect(older?.metadata).toBeUndefined();
  });

  it("lists the jobs whose metadata holds every pair of the filter, newest first", async () => {
    expect(await listed({ order: "42" })).toEqual([ids.order42]);
    expect(await listed({ customer: "c_1" })).toEqual([ids.order43, ids.order42]);
    expect(await listed({ customer: "c_1", order: "43" })).toEqual([ids.order43]);
    expect(await listed({ customer: "c_1", order: "44" })).toEqual([]);
  });

  it("matches a key with dots and spaces, or a reserved word, as written, not as a path", async () => {
    expect(await listed({ "a.b c": "x y" })).toEqual([ids.odd]);
    expect(await listed({ status: "42" })).toEqual([ids.odd]);
    expect(await listed({ a: "x y" })).toEqual([]);
  });

  it("combines with the other filters", async () => {
    expect((await store.list({ metadata: { order: "42" }, status: "queued" })).jobs).toHaveLength(
      1,
    );
    expect((await store.list({ metadata: { order: "42" }, status: "failed" })).jobs).toEqual([]);
  });
});
