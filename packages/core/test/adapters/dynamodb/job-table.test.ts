import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildJob, createJob } from "../../../src/usecases/jobs/create-job.ts";
import { isJobId, jobIdFrom, newJobId } from "../../../src/domain/jobs/ids.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import { durationOf } from "../../../src/domain/jobs/request.ts";
import type { Job } from "../../../src/domain/jobs/types.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";
import { caught } from "../upstream/rejection.ts";

let aws: LocalAws;
let store: JobStore;

beforeAll(async () => {
  aws = await startLocalAws();
  store = new JobStore(aws.ddb, aws.tableName);
});
afterAll(() => aws.stop());

function job(overrides: Partial<Job> = {}): Job {
  const validation = validate({ model: "gamma-3.1", prompt: "a paper boat in the rain" });
  return { ...buildJob({ validation, source: { type: "api" } }), ...overrides };
}

describe("job ids", () => {
  it("newJobId gives vidtsk_/imgtsk_ plus a 26-character ulid", () => {
    expect(newJobId("video")).toMatch(/^vidtsk_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newJobId("image")).toMatch(/^imgtsk_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it("jobIdFrom is the same id for the same parts and a different one for other parts", () => {
    const a = jobIdFrom("video", ["bucket", "inbox/a.jsonl", "etag", 1]);
    expect(jobIdFrom("video", ["bucket", "inbox/a.jsonl", "etag", 1])).toBe(a);
    expect(jobIdFrom("video", ["bucket", "inbox/a.jsonl", "etag", 2])).not.toBe(a);
    expect(isJobId(a)).toBe(true);
  });
});

describe("createJob", () => {
  it("records a queued job with the normalized request, the job id as idempotency key and one history entry", async () => {
    const validation = validate({ model: "gamma-3.1", prompt: "a lighthouse" });
    const { job: made, created } = await createJob(store, { validation, source: { type: "cli" } });
    expect(created).toBe(true);
    const stored = await store.get(made.id);
    expect(stored).toMatchObject({
      status: "queued",
      kind: "video",
      model: "gamma-3.1",
      idempotencyKey: made.id,
      attempts: 0,
      polls: 0,
    });
    expect(durationOf(stored!.request)).toBe(8);
    expect(stored?.history).toEqual([{ status: "queued", at: made.createdAt }]);
  });

  it("with a derived id, the same input twice gives the first job and created=false", async () => {
    const validation = validate({ model: "gamma-3.1", prompt: "twice" });
    const jobId = jobIdFrom("video", ["b", "inbox/twice.txt", "etag1", 0]);
    const first = await createJob(store, { validation, source: { type: "drop" }, jobId });
    const second = await createJob(store, {
      validation,
      source: { type: "drop" },
      jobId,
      idempotencyKey: "other",
    });
    expect(second.created).toBe(false);
    expect(second.job.idempotencyKey).toBe(first.job.idempotencyKey);
  });

  it("refuses an invalid validation result with invalid_request", () => {
    const validation = validate({ model: "gamma-3.1", prompt: "x", duration_sec: 5 });
    expect(validation.valid).toBe(false);
    expect(() => buildJob({ validation, source: { type: "api" } })).toThrow(
      expect.objectContaining({ code: "invalid_request" }),
    );
  });
});

describe("JobStore conditional writes", () => {
  it("create refuses an id that exists with job_exists", async () => {
    const j = await store.create(job());
    expect((await caught(store.create(j))).code).toBe("job_exists");
  });

  it("transition moves from an allowed status, sets fields and appends history", async () => {
    const j = await store.create(job());
    const moved = await store.transition(j.id, {
      from: ["queued"],
      to: "running",
      set: { upstreamTaskId: "vidtsk_up" },
      note: "submitted",
    });
    expect(moved.status).toBe("running");
    expect(moved.upstreamTaskId).toBe("vidtsk_up");
    expect(moved.history.map((h) => h.status)).toEqual(["queued", "running"]);
    expect(moved.history[1]?.note).toBe("submitted");
  });

  it("transition from a status the job is not in fails with job_conflict naming the current status", async () => {
    const j = await store.create(job());
    const error = await caught(store.transition(j.id, { from: ["downloading"], to: "succeeded" }));
    expect(error.code).toBe("job_conflict");
    expect(error.details?.status).toBe("queued");
    expect((await store.get(j.id))?.status).toBe("queued");
  });

  it("a late step cannot move a terminal job: the status and history stay as they were", async () => {
    const j = await store.create(job());
    await store.transition(j.id, {
      from: ["queued"],
      to: "failed",
      set: { error: { code: "timeout", message: "late" } },
    });
    const late = await caught(
      store.transition(j.id, { from: ["queued", "running", "downloading"], to: "running" }),
    );
    expect(late.code).toBe("job_conflict");
    expect(late.details?.status).toBe("failed");
    const after = await store.get(j.id);
    expect(after?.status).toBe("failed");
    expect(after?.history.map((h) => h.status)).toEqual(["queued", "failed"]);
  });

  it("a transition that needs a non-empty list refuses a job without it or with it empty (job_conflict), and moves one that has it", async () => {
    const output = {
      bucket: "b",
      key: "outputs/x/video.mp4",
      bytes: 1,
      sha256: "0".repeat(64),
      contentType: "video/mp4",
      sourceUrlHost: "example.com",
    };
    const succeed = {
      from: ["downloading"] as const,
      to: "succeeded" as const,
      nonEmpty: "outputs" as const,
    };
    const none = await store.create(job({ status: "downloading" }));
    const empty = await store.create(job({ status: "downloading", outputs: [] }));
    for (const j of [none, empty]) {
      const error = await caught(store.transition(j.id, succeed));
      expect(error.code).toBe("job_conflict");
      expect((await store.get(j.id))?.status).toBe("downloading");
    }
    const stored = await store.create(job({ status: "downloading", outputs: [output] }));
    expect((await store.transition(stored.id, succeed)).status).toBe("succeeded");
  });

  it("a transition that names a terminal status as its only source is refused before any write", async () => {
    const j = await store.create(job());
    expect(
      (await caught(store.transition(j.id, { from: ["succeeded"], to: "running" }))).code,
    ).toBe("invalid_transition");
  });

  it("two concurrent terminal transitions: exactly one wins, the other gets job_conflict", async () => {
    const j = await store.create(job({ status: "downloading" }));
    const results = await Promise.allSettled([
      store.transition(j.id, { from: ["downloading"], to: "succeeded" }),
      store.transition(j.id, { from: ["queued", "running", "downloading"], to: "failed" }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0]!.reason as { code?: string }).code).toBe("job_conflict");
    const winner = (won[0] as PromiseFulfilledResult<Job>).value.status;
    expect((await store.get(j.id))?.status).toBe(winner);
    expect((await store.get(j.id))?.history).toHaveLength(2);
  });

  it("update with unlessTerminal increments counters on a live job and refuses a terminal one", async () => {
    const j = await store.create(job());
    await store.update(j.id, {}, { unlessTerminal: true, increment: { polls: 1 } });
    const twice = await store.update(j.id, {}, { unlessTerminal: true, increment: { polls: 1 } });
    expect(twice.polls).toBe(2);
    await store.transition(j.id, { from: ["queued"], to: "cancelled" });
    expect(
      (await caught(store.update(j.id, {}, { unlessTerminal: true, increment: { polls: 1 } })))
        .code,
    ).toBe("job_conflict");
    expect((await store.get(j.id))?.polls).toBe(2);
  });

  it("update with unlessSet writes a field once and refuses the second write", async () => {
    const j = await store.create(job());
    await store.update(
      j.id,
      { eventEmittedAt: "2026-01-01T00:00:00.000Z" },
      { unlessSet: "eventEmittedAt" },
    );
    const second = await caught(
      store.update(
        j.id,
        { eventEmittedAt: "2027-01-01T00:00:00.000Z" },
        { unlessSet: "eventEmittedAt" },
      ),
    );
    expect(second.code).toBe("job_conflict");
    expect((await store.get(j.id))?.eventEmittedAt).toBe("2026-01-01T00:00:00.000Z");
  });

  it("update may not write status, and a missing job is job_not_found", async () => {
    const j = await store.create(job());
    expect((await caught(store.update(j.id, { status: "succeeded" }))).code).toBe(
      "invalid_job_patch",
    );
    expect((await caught(store.update("vidtsk_nope", { polls: 1 }))).code).toBe("job_not_found");
  });
});

describe("JobStore.list", () => {
  /** A table of its own holding `count` queued jobs created one second apart; ids oldest first. */
  async function listingOf(
    name: string,
    count: number,
  ): Promise<{ listing: JobStore; ids: string[]; stop: () => Promise<void> }> {
    const local = await startLocalAws({ tableName: name });
    const listing = new JobStore(local.ddb, local.tableName);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      ids.push((await listing.create(job({ id: newJobId("video"), createdAt }))).id);
    }
    return { listing, ids, stop: () => local.stop() };
  }

  it("lists newest first across pages joined by the cursor, each job exactly once", async () => {
    const { listing, ids, stop } = await listingOf("list-test", 7);
    try {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await listing.list({ limit: 3, ...(cursor === undefined ? {} : { cursor }) });
        expect(page.jobs.length).toBeLessThanOrEqual(3);
        seen.push(...page.jobs.map((j) => j.id));
        cursor = page.cursor;
        pages += 1;
      } while (cursor !== undefined && pages < 10);
      expect(seen).toEqual([...ids].reverse());
      expect(pages).toBe(3);
    } finally {
      await stop();
    }
  });

  it("filters by status and still fills the page", async () => {
    const { listing, ids, stop } = await listingOf("filter-test", 6);
    try {
      const failed = ids.filter((_, i) => i % 2 === 0);
      for (const id of failed) await listing.transition(id, { from: ["queued"], to: "failed" });
      const page = await listing.list({ status: "failed", limit: 2 });
      expect(page.jobs.map((j) => j.id)).toEqual([failed[2], failed[1]]);
      const rest = await listing.list({
        status: "failed",
        limit: 2,
        ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
      });
      expect(rest.jobs.map((j) => j.id)).toEqual([failed[0]]);
      expect(rest.cursor).toBeUndefined();
    } finally {
      await stop();
    }
  });

  it("a cursor that was not issued is invalid_cursor", async () => {
    expect((await caught(store.list({ cursor: "not-a-cursor" }))).code).toBe("invalid_cursor");
  });
});

// Found by the API fuzz (test/fuzz): ids from URLs reached DynamoDB, which refuses an empty key or
// one over 2048 bytes with a ValidationException, and the API answered that as a 503.
describe("ids that cannot be job ids", () => {
  const notIds = ["", "x".repeat(3_000), "é".repeat(1_100), "vidtsk_nope", "\u0000"];

  it("get finds no job for them", async () => {
    for (const id of notIds) expect(await store.get(id)).toBeUndefined();
  });

  it("transition and update answer job_not_found (404) for them", async () => {
    for (const id of notIds) {
      expect(
        await caught(store.transition(id, { from: ["queued"], to: "cancelled" })),
      ).toMatchObject({ code: "job_not_found", status: 404 });
      expect(await caught(store.update(id, { polls: 1 }))).toMatchObject({
        code: "job_not_found",
        status: 404,
      });
    }
  });
});
