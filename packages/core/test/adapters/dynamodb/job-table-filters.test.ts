import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildJob } from "../../../src/usecases/jobs/create-job.ts";
import { newJobId } from "../../../src/domain/jobs/ids.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import type { ListFilters } from "../../../src/domain/jobs/job-queries.ts";
import type { Job, JobKind, JobSource, JobStatus } from "../../../src/domain/jobs/types.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";

const MODELS = ["gamma-3.1", "kappa-omni-flash-preview"] as const;
const KINDS: JobKind[] = ["video", "image"];
const SOURCES: JobSource["type"][] = ["api", "drop", "cli"];
const STATUSES: JobStatus[] = ["queued", "failed"];

let aws: LocalAws;
let store: JobStore;
/** Newest first, as the listing orders them. */
let all: Job[] = [];

beforeAll(async () => {
  aws = await startLocalAws({ tableName: "list-filters-test" });
  store = new JobStore(aws.ddb, aws.tableName);
  const base = buildJob({
    validation: validate({ model: "gamma-3.1", prompt: "a paper boat" }),
    source: { type: "api" },
  });
  // 24 jobs covering every combination, one second apart, so the expected order is known.
  for (let i = 0; i < 24; i += 1) {
    const kind = KINDS[i % 2] ?? "video";
    const job: Job = {
      ...base,
      id: newJobId(kind),
      kind,
      model: MODELS[Math.floor(i / 2) % 2] ?? "gamma-3.1",
      source: { type: SOURCES[i % 3] ?? "api" },
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    };
    await store.create(job);
    if (i % 4 === 1) await store.transition(job.id, { from: ["queued"], to: "failed" });
  }
  all = (await store.list({ limit: 100 })).jobs;
});
afterAll(() => aws.stop());

function matches(job: Job, filters: ListFilters): boolean {
  return (
    (filters.status === undefined || job.status === filters.status) &&
    (filters.model === undefined || job.model === filters.model) &&
    (filters.kind === undefined || job.kind === filters.kind) &&
    (filters.source === undefined || job.source.type === filters.source)
  );
}

async function walk(
  filters: ListFilters,
  limit: number,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await store.list({
      ...filters,
      limit,
      ...(cursor === undefined ? {} : { cursor }),
    });
    expect(page.jobs.length).toBeLessThanOrEqual(limit);
    // Every page but the last is full: filters never leave a short page with a cursor.
    if (page.cursor !== undefined) expect(page.jobs.length).toBe(limit);
    ids.push(...page.jobs.map((job) => job.id));
    cursor = page.cursor;
    pages += 1;
  } while (cursor !== undefined && pages < 50);
  return { ids, pages };
}

describe("JobStore.list with filters", () => {
  it("the fixture holds every status, model, kind and source", () => {
    expect(all).toHaveLength(24);
    for (const status of STATUSES) expect(all.some((job) => job.status === status)).toBe(true);
    for (const source of SOURCES) expect(all.some((job) => job.source.type === source)).toBe(true);
  });

  it("any combination of status, model, kind and source, walked page by page with the cursor, gives exactly the matching jobs newest first", async () => {
    const filters = fc.record(
      {
        status: fc.constantFrom(...STATUSES),
        model: fc.constantFrom(...MODELS),
        kind: fc.constantFrom(...KINDS),
        source: fc.constantFrom(...SOURCES),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(filters, fc.integer({ min: 1, max: 5 }), async (chosen, limit) => {
        const expected = all.filter((job) => matches(job, chosen)).map((job) => job.id);
        const { ids } = await walk(chosen, limit);
        expect(ids).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });

  it("a filter nothing matches answers an empty page without a cursor", async () => {
    const page = await store.list({ model: "no-such-model" });
    expect(page).toEqual({ jobs: [] });
  });
});
