/**
 * REELAY_RETENTION_DAYS on the local stack: a finished job older than the horizon (made and
 * finished before it, its terminal event sent) loses its objects under `outputs/<id>/` and
 * `uploads/<id>/` in the local bucket, then its record, which is also what answered a repeat of its
 * X-Idempotency-Key (the job id is derived from the key): after that a repeat makes a new job.
 * The record goes last, so a prune cut short is finished by the next one. Jobs still in progress,
 * or owed their event, are never touched, however old.
 */
import { DeleteObjectsCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import type { JobStore } from "@reelay/core/adapters";
import { isTerminal, type Job } from "@reelay/core/domain";

const DAY_MS = 86_400_000;
/** The listing key of the oldest job sorts after this. */
const EARLIEST = "0";

export interface RetentionDeps {
  jobs: JobStore;
  s3: S3Client;
  bucket: string;
  retentionDays: number;
  now: () => Date;
}

/** A finished job whose time is up: made and ended before the horizon, its event sent. */
function isPastRetention(
  job: Pick<Job, "status" | "createdAt" | "updatedAt" | "finishedAt" | "eventEmittedAt">,
  horizon: string,
): boolean {
  return (
    isTerminal(job.status) &&
    job.eventEmittedAt !== undefined &&
    job.createdAt < horizon &&
    (job.finishedAt ?? job.updatedAt) < horizon
  );
}

/** Deletes every object under `prefix`, a listing page (up to 1,000 keys) at a time. */
async function deletePrefix(s3: S3Client, bucket: string, prefix: string): Promise<void> {
  for (;;) {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    const keys = (page.Contents ?? []).flatMap((object) =>
      object.Key === undefined ? [] : [{ Key: object.Key }],
    );
    if (keys.length === 0) return;
    await s3.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }),
    );
    if (page.IsTruncated !== true) return;
  }
}

/**
 * Prunes up to `max` jobs past retention, oldest first; returns their ids. Fewer than `max` means
 * none is left for now.
 */
export async function pruneFinishedJobs(deps: RetentionDeps, max: number): Promise<string[]> {
  const horizon = new Date(deps.now().getTime() - deps.retentionDays * DAY_MS).toISOString();
  const pruned: string[] = [];
  for await (const job of deps.jobs.createdBetween({
    from: EARLIEST,
    to: horizon,
    max: Number.MAX_SAFE_INTEGER,
  })) {
    if (!isPastRetention(job, horizon)) continue;
    await deletePrefix(deps.s3, deps.bucket, `outputs/${job.id}/`);
    await deletePrefix(deps.s3, deps.bucket, `uploads/${job.id}/`);
    if (await deps.jobs.removeFinished(job.id)) pruned.push(job.id);
    if (pruned.length >= max) break;
  }
  return pruned;
}
