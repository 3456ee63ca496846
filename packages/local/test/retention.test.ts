/**
 * Retention on real dynalite and s3rver. Expired outputs: the objects of jobs past expires_at go,
 * their records stay marked. Expired records: a record past its recordTtl goes, once announced.
 * REELAY_RETENTION_DAYS: a prune removes the finished jobs with no expiry of their own past the
 * horizon (record, outputs/<id>/, uploads/<id>/) and nothing else: not a job still in progress or
 * owed its event however old, not one that ended after the horizon, not a newer job or its objects.
 * REELAY_UPLOAD_RETENTION_DAYS: the sweep removes uploads made that long ago, as the lifecycle rule.
 */
import { ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import { expect, it } from "vitest";
import type { Job } from "@reelay/core/domain";
import type { Standins } from "../src/aws-standins.ts";
import { failedJob, queuedJob, standinsPerTest } from "./fixtures/jobs.ts";
import { pruneFinishedJobs, removeExpired, removeExpiredUploads } from "../src/retention-sweep.ts";

const DAY_MS = 86_400_000;

const setUp = standinsPerTest("retention");

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function keys(s: Standins): Promise<string[]> {
  const page = await s.s3.send(new ListObjectsV2Command({ Bucket: s.bucket }));
  return (page.Contents ?? []).map((object) => object.Key ?? "").sort();
}

it("retention prunes exactly the finished jobs past the horizon, with their outputs and uploads, and nothing else", async () => {
  const { standins: s, jobs } = await setUp();
  const put = (key: string) =>
    s.s3.send(new PutObjectCommand({ Bucket: s.bucket, Key: key, Body: "bytes" }));

  // Before the horizon.
  const oldDone = await failedJob(jobs, await queuedJob(jobs, "old, done"), { announced: true });
  const oldDoneToo = await failedJob(jobs, await queuedJob(jobs, "old, done too"), {
    announced: true,
  });
  const oldOwed = await failedJob(jobs, await queuedJob(jobs, "old, event owed"), {
    announced: false,
  });
  const oldRunning = await queuedJob(jobs, "old, still queued");
  const oldEndsLater = await queuedJob(jobs, "old, ends after the horizon");
  await pause(20);
  const horizon = new Date();
  await pause(20);
  // After it.
  const lateEnd = await failedJob(jobs, oldEndsLater, { announced: true });
  const recent = await failedJob(jobs, await queuedJob(jobs, "recent, done"), { announced: true });
  for (const job of [oldDone, oldOwed, oldRunning, recent]) {
    await put(`outputs/${job.id}/video.mp4`);
    await put(`outputs/${job.id}/job.json`);
  }
  await put(`uploads/${oldDone.id}/reference.png`);
  await put(`uploads/${recent.id}/reference.png`);
  await put("outputs/batches/bat_01/results.jsonl");
  const before = await keys(s);

  const deps = {
    jobs,
    s3: s.s3,
    bucket: s.bucket,
    retentionDays: 1,
    now: () => new Date(horizon.getTime() + DAY_MS),
  };
  const pruned = await pruneFinishedJobs(deps, 100);

  expect(pruned.sort()).toEqual([oldDone.id, oldDoneToo.id].sort());
  for (const job of [oldDone, oldDoneToo]) expect(await jobs.get(job.id)).toBeUndefined();
  for (const job of [oldOwed, oldRunning, lateEnd, recent])
    expect((await jobs.get(job.id))?.id).toBe(job.id);
  expect((await jobs.get(oldRunning.id))?.status).toBe("queued");
  expect((await jobs.get(oldOwed.id))?.eventEmittedAt).toBeUndefined();
  expect((await jobs.get(lateEnd.id))?.status).toBe("failed");
  expect((await jobs.get(recent.id))?.status).toBe("failed");
  expect(await keys(s)).toEqual(
    before.filter((key) => !key.includes(`/${oldDone.id}/`) && !key.includes(`/${oldDoneToo.id}/`)),
  );
  expect(before.filter((key) => key.includes(`/${oldDone.id}/`))).toHaveLength(3);

  // Nothing is left past the horizon: a second prune removes nothing.
  expect(await pruneFinishedJobs(deps, 100)).toEqual([]);
}, 60_000);

it("a prune stops after its batch of jobs and the next one takes the rest, oldest first", async () => {
  const { standins: s, jobs } = await setUp();
  const made: Job[] = [];
  for (let i = 0; i < 5; i++) {
    made.push(await failedJob(jobs, await queuedJob(jobs, `job ${i}`), { announced: true }));
    await pause(2);
  }
  const deps = {
    jobs,
    s3: s.s3,
    bucket: s.bucket,
    retentionDays: 1,
    now: () => new Date(Date.now() + 2 * DAY_MS),
  };
  expect(await pruneFinishedJobs(deps, 2)).toEqual(made.slice(0, 2).map((job) => job.id));
  expect(await pruneFinishedJobs(deps, 10)).toEqual(made.slice(2).map((job) => job.id));
  expect((await jobs.list({ limit: 10 })).jobs).toEqual([]);
}, 60_000);

it("expired outputs lose their objects and keep their record, marked; outputs not yet expired and jobs kept for good are untouched", async () => {
  const { standins: s, jobs } = await setUp();
  const now = new Date();
  const put = (key: string) =>
    s.s3.send(new PutObjectCommand({ Bucket: s.bucket, Key: key, Body: "bytes" }));
  const done = async (name: string, expiry: Partial<Job>) => {
    const job = await failedJob(jobs, await queuedJob(jobs, name), { announced: true });
    await put(`outputs/${job.id}/video.mp4`);
    await put(`outputs/${job.id}/job.json`);
    return jobs.update(job.id, expiry);
  };
  const expired = await done("expired", {
    expiresAt: new Date(now.getTime() - 1000).toISOString(),
    recordTtl: Math.ceil((now.getTime() + 30 * DAY_MS) / 1000),
  });
  const later = await done("expires later", {
    expiresAt: new Date(now.getTime() + 60_000).toISOString(),
  });
  const forGood = await done("kept for good", {});
  const deps = { jobs, s3: s.s3, bucket: s.bucket, now: () => now };

  expect(await removeExpired(deps, 100)).toEqual({ outputs: [expired.id], records: [] });
  const after = await keys(s);
  expect(after.filter((key) => key.includes(expired.id))).toEqual([]);
  for (const job of [later, forGood])
    expect(after.filter((key) => key.includes(job.id))).toHaveLength(2);
  const record = await jobs.get(expired.id);
  expect(record?.outputsRemovedAt).toBe(now.toISOString());
  expect(record?.expiresAt).toBe(expired.expiresAt);
  // Done once: the next pass finds nothing, and the old prune does not take it.
  expect(await removeExpired(deps, 100)).toEqual({ outputs: [], records: [] });
  expect(
    await pruneFinishedJobs(
      { ...deps, retentionDays: 1, now: () => new Date(Date.now() + 2 * DAY_MS) },
      100,
    ),
  ).not.toContain(expired.id);
}, 60_000);

it("a record past its own expiry goes with what is left of its objects, once its event was sent", async () => {
  const { standins: s, jobs } = await setUp();
  const now = new Date();
  const past = Math.floor(now.getTime() / 1000) - 1;
  const gone = await failedJob(jobs, await queuedJob(jobs, "record due"), { announced: true });
  await jobs.update(gone.id, {
    expiresAt: new Date(now.getTime() - DAY_MS).toISOString(),
    recordTtl: past,
  });
  await s.s3.send(
    new PutObjectCommand({ Bucket: s.bucket, Key: `uploads/${gone.id}/ref.png`, Body: "bytes" }),
  );
  const owed = await failedJob(jobs, await queuedJob(jobs, "record due, event owed"), {
    announced: false,
  });
  await jobs.update(owed.id, { recordTtl: past });
  const kept = await failedJob(jobs, await queuedJob(jobs, "record not due"), { announced: true });
  await jobs.update(kept.id, { recordTtl: past + 3600 });
  const deps = { jobs, s3: s.s3, bucket: s.bucket, now: () => now };

  expect(await removeExpired(deps, 100)).toEqual({ outputs: [], records: [gone.id] });
  expect(await jobs.get(gone.id)).toBeUndefined();
  expect(await keys(s)).toEqual([]);
  expect((await jobs.get(owed.id))?.id).toBe(owed.id);
  expect((await jobs.get(kept.id))?.id).toBe(kept.id);
}, 60_000);

it("the upload sweep deletes the uploads made REELAY_UPLOAD_RETENTION_DAYS ago and keeps newer ones and an image edit's references", async () => {
  const { standins: s, jobs } = await setUp();
  const put = (key: string) =>
    s.s3.send(new PutObjectCommand({ Bucket: s.bucket, Key: key, Body: "bytes" }));
  await put("uploads/upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAA");
  await put("uploads/upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAB");
  await put("uploads/vidtsk_01JD5Z8K4Q2W7R3T9Y6V1A0PAC/ref-1.png");
  // S3 keeps object times in whole seconds: the horizon is a second past the puts.
  const made = Date.now() + 1000;
  const deps = { jobs, s3: s.s3, bucket: s.bucket, uploadRetentionDays: 7 };

  const early = await removeExpiredUploads(
    { ...deps, now: () => new Date(made + 6 * DAY_MS) },
    100,
  );
  expect(early).toEqual([]);
  const oneOfTwo = await removeExpiredUploads(
    { ...deps, now: () => new Date(made + 7 * DAY_MS) },
    1,
  );
  expect(oneOfTwo).toHaveLength(1);
  const rest = await removeExpiredUploads({ ...deps, now: () => new Date(made + 7 * DAY_MS) }, 100);
  expect([...oneOfTwo, ...rest].sort()).toEqual([
    "uploads/upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAA",
    "uploads/upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAB",
  ]);
  expect(await keys(s)).toEqual(["uploads/vidtsk_01JD5Z8K4Q2W7R3T9Y6V1A0PAC/ref-1.png"]);
});
