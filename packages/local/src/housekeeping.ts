/**
 * The local stack's periodic sweep for a stack that lives for months: once a minute (and once more
 * at a clean stop) it moves the resume mark up (resume-mark.ts), so the next start reads only the
 * jobs made since; it deletes the objects of jobs whose outputs expired and the records whose own
 * time came, and with REELAY_RETENTION_DAYS prunes finished jobs with no expiry of their own past
 * it (retention.ts), and removes uploads past REELAY_UPLOAD_RETENTION_DAYS, a bounded number per
 * pass, going on at once while more are due.
 */
import type { JobStore } from "@reelay/core/adapters";
import type { Logger } from "./log.ts";
import { wakeablePause } from "./wakeable-pause.ts";
import { advanceResumeMark } from "./resume-mark.ts";
import {
  pruneFinishedJobs,
  removeExpired,
  removeExpiredUploads,
  type RetentionDeps,
} from "./retention-sweep.ts";

/** Between passes: an expired job's objects are gone within a minute of its expires_at. */
const INTERVAL_MS = 60_000;
/** Jobs pruned per pass, so one pass never holds the database for long. */
const PRUNE_BATCH = 200;

export interface HousekeepingDeps {
  jobs: JobStore;
  dataDir: string;
  now: () => Date;
  /** The bucket, and REELAY_RETENTION_DAYS when set; absent = no retention at all (tests of the mark). */
  retention?: Omit<RetentionDeps, "jobs" | "now">;
  /** Tests: the pause between passes at this fraction of its minute. Default 1. */
  waitScale?: number;
}

export interface Housekeeping {
  /**
   * Ends the loop after the pass in progress, then moves the resume mark once more, up to now:
   * called once the API and the drops are closed, so no job is being made.
   */
  stop(): Promise<void>;
}

/** One pass: the resume mark, then up to PRUNE_BATCH jobs pruned; true when more are due now. */
export async function housekeep(deps: HousekeepingDeps, log: Logger): Promise<boolean> {
  await advanceResumeMark(deps.jobs, deps.dataDir, deps.now());
  if (deps.retention === undefined) return false;
  const retention = { ...deps.retention, jobs: deps.jobs, now: deps.now };
  const expired = await removeExpired(retention, PRUNE_BATCH);
  if (expired.outputs.length > 0)
    log.info(`removed the expired outputs of ${expired.outputs.length} job(s)`);
  if (expired.records.length > 0)
    log.info(`removed ${expired.records.length} expired job record(s)`);
  const pruned = await pruneFinishedJobs(retention, PRUNE_BATCH);
  if (pruned.length > 0)
    log.info(
      `pruned ${pruned.length} finished job(s) past REELAY_RETENTION_DAYS=${deps.retention.retentionDays}`,
    );
  const uploads = await removeExpiredUploads(retention, PRUNE_BATCH);
  if (uploads.length > 0) log.info(`removed ${uploads.length} expired upload(s)`);
  const removed = expired.outputs.length + expired.records.length;
  return removed >= PRUNE_BATCH || pruned.length >= PRUNE_BATCH || uploads.length >= PRUNE_BATCH;
}

export function startHousekeeping(deps: HousekeepingDeps, log: Logger): Housekeeping {
  let stopped = false;
  const between = wakeablePause();
  const pass = () =>
    housekeep(deps, log).catch((error: unknown) => {
      log.error("housekeeping (resume mark, retention) failed", error);
      return false;
    });
  const interval = INTERVAL_MS * (deps.waitScale ?? 1);
  const loop = async () => {
    // The first pass waits: the start itself has just read what the mark covers.
    await between.pause(interval);
    while (!stopped) {
      const more = await pass();
      if (!stopped) await between.pause(more ? 0 : interval);
    }
  };
  const running = loop();
  return {
    stop: async () => {
      stopped = true;
      between.wake();
      await running;
      await advanceResumeMark(deps.jobs, deps.dataDir, deps.now(), true).catch((error: unknown) =>
        log.error("moving the resume mark at stop failed", error),
      );
    },
  };
}
