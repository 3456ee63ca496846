/**
 * REELAY_RETENTION_DAYS on real dynalite and s3rver: a prune removes the finished jobs past the
 * horizon (record, outputs/<id>/, uploads/<id>/) and nothing else: not a job still in progress or
 * owed its event however old, not one that ended after the horizon, not a newer job or its objects.
 */
import { ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import { expect, it } from "vitest";
import type { Job } from "@reelay/core/domain";
import type { Standins } from "../src/aws-standins.ts";
import { failedJob, queuedJob, standinsPerTest } from "./fixtures/jobs.ts";
import { pruneFinishedJobs } from "../src/retention.ts";

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
