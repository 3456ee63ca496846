/**
 * The resume mark on real dynalite: it moves up only past jobs done with (terminal, event sent),
 * stops at the oldest one that is not, stays a minute behind unless the stack is stopping, and the
 * start's leftovers read from it still find every unfinished job and every owed event.
 */
import { expect, it } from "vitest";
import { failedJob, queuedJob, standinsPerTest } from "./fixtures/jobs.ts";
import { housekeep } from "../src/housekeeping.ts";
import { silentLogger } from "../src/log.ts";
import { leftoverJobs } from "../src/resume.ts";
import { advanceResumeMark, readResumeMark } from "../src/resume-mark.ts";

const setUp = standinsPerTest("resume-mark");

it("the mark stops at the oldest job not done with, and the leftovers read from it find every unfinished job and owed event", async () => {
  const { jobs, dataDir: dir } = await setUp();
  expect(await readResumeMark(dir)).toBeUndefined();
  await failedJob(jobs, await queuedJob(jobs, "done"), { announced: true });
  const owed = await failedJob(jobs, await queuedJob(jobs, "event owed"), { announced: false });
  const running = await queuedJob(jobs, "still queued");
  await failedJob(jobs, await queuedJob(jobs, "done after"), { announced: true });
  const later = new Date(Date.now() + 10 * 60_000);

  expect(await advanceResumeMark(jobs, dir, later)).toBe(owed.createdAt);
  expect(await readResumeMark(dir)).toBe(owed.createdAt);
  const leftovers = await leftoverJobs(jobs, await readResumeMark(dir));
  expect(leftovers.unfinished.map((job) => job.id)).toEqual([running.id]);
  expect(leftovers.unannounced.map((job) => job.id)).toEqual([owed.id]);

  // The owed event is sent: the mark moves up to the queued job, and no further.
  await jobs.update(owed.id, { eventEmittedAt: new Date().toISOString() });
  expect(await advanceResumeMark(jobs, dir, later)).toBe(running.createdAt);
  expect((await leftoverJobs(jobs, await readResumeMark(dir))).unfinished).toHaveLength(1);

  // Once every job is done with, the mark is a minute behind the time it was taken...
  await failedJob(jobs, running, { announced: true });
  const mark = await advanceResumeMark(jobs, dir, later);
  expect(mark).toBe(new Date(later.getTime() - 60_000).toISOString());
  // ...and never goes back, even when asked at an earlier time.
  expect(await advanceResumeMark(jobs, dir, new Date(0))).toBe(mark);
  // A stopping stack (no job can be in the making) takes it up to the time itself.
  expect(await advanceResumeMark(jobs, dir, later, true)).toBe(later.toISOString());
  expect(await leftoverJobs(jobs, await readResumeMark(dir))).toEqual({
    unfinished: [],
    unannounced: [],
  });
}, 60_000);

it("a job made within the minute before the mark was taken is still read by the next start", async () => {
  const { jobs, dataDir: dir } = await setUp();
  const taken = new Date();
  // Stamped just before the mark was taken (a create in flight), written after it.
  const inFlight = await queuedJob(jobs, "stamped before the mark, written after");
  await advanceResumeMark(jobs, dir, taken);
  const leftovers = await leftoverJobs(jobs, await readResumeMark(dir));
  expect(leftovers.unfinished.map((job) => job.id)).toEqual([inFlight.id]);
}, 60_000);

it("a housekeeping pass moves the mark and, with REELAY_RETENTION_DAYS, prunes", async () => {
  const { jobs, standins: s, dataDir: dir } = await setUp();
  const old = await failedJob(jobs, await queuedJob(jobs, "old"), { announced: true });
  const at = new Date(Date.now() + 3 * 86_400_000);
  const now = () => at;
  const more = await housekeep(
    {
      jobs,
      dataDir: dir,
      now,
      retention: { s3: s.s3, bucket: s.bucket, retentionDays: 2 },
    },
    silentLogger,
  );
  expect(more).toBe(false);
  expect(await jobs.get(old.id)).toBeUndefined();
  expect(await readResumeMark(dir)).toBe(new Date(at.getTime() - 60_000).toISOString());
}, 60_000);
