/**
 * Retention on the local stack, what S3 lifecycle rules and DynamoDB's TTL do on AWS
 * (domain/jobs/retention.ts), run by the housekeeping:
 *
 * - outputs past their expires_at (retention_days, default REELAY_RETENTION_DAYS): the objects under
 *   `outputs/<id>/` and `uploads/<id>/` are deleted and the record marked outputsRemovedAt; the
 *   record stays and answers outputs_expired.
 * - records past their own expiry (recordTtl, RECORD_KEPT_DAYS after the outputs'): the record goes
 *   with whatever objects are left. It also answered a repeat of its X-Idempotency-Key (the job id
 *   is derived from the key): after that a repeat makes a new job.
 * - a finished job with no expiry of its own (failed or cancelled, so no outputs; or recorded before
 *   expiries were): with REELAY_RETENTION_DAYS, once it was made and ended that long ago, its
 *   objects and then its record go.
 *
 * - uploads (`uploads/upl_<ulid>`) made REELAY_UPLOAD_RETENTION_DAYS ago, as the lifecycle rule
 *   on `uploads/` removes them on AWS.
 *
 * A record goes last, and only once its terminal event was sent, so a prune cut short is finished
 * by the next one and a job owed its event is never touched, however old.
 */
import { DeleteObjectsCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import type { JobStore } from "@reelay/core/adapters";
import { isTerminal, type Job, UPLOADS_PREFIX } from "@reelay/core/domain";

const DAY_MS = 86_400_000;
/** The listing key of the oldest job sorts after this. */
const EARLIEST = "0";

export interface RetentionDeps {
  jobs: JobStore;
  s3: S3Client;
  bucket: string;
  /** REELAY_RETENTION_DAYS: the horizon of finished jobs with no expiry of their own; absent = none. */
  retentionDays?: number | undefined;
  /** REELAY_UPLOAD_RETENTION_DAYS: uploads older than this go; absent = none do. */
  uploadRetentionDays?: number | undefined;
  now: () => Date;
}

/** A finished job with no expiry of its own whose time is up: made and ended before the horizon, its event sent. */
function isPastRetention(
  job: Pick<
    Job,
    "status" | "createdAt" | "updatedAt" | "finishedAt" | "eventEmittedAt" | "recordTtl"
  >,
  horizon: string,
): boolean {
  return (
    isTerminal(job.status) &&
    job.recordTtl === undefined &&
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

async function deleteObjectsOf(deps: RetentionDeps, id: string): Promise<void> {
  await deletePrefix(deps.s3, deps.bucket, `outputs/${id}/`);
  await deletePrefix(deps.s3, deps.bucket, `uploads/${id}/`);
}

/** What one pass over the jobs due removed, by id. */
export interface Expired {
  /** Jobs whose expired outputs were deleted; their records stay, marked outputsRemovedAt. */
  outputs: string[];
  /** Jobs whose record's own expiry came: the record went, with anything left of its objects. */
  records: string[];
}

/**
 * Up to `max` jobs due, oldest first, in one read of the listing: a record whose time came goes
 * (once its terminal event was sent); else outputs past expires_at lose their objects. Fewer than
 * `max` means none is left for now.
 */
export async function removeExpired(deps: RetentionDeps, max: number): Promise<Expired> {
  const now = deps.now();
  const done: Expired = { outputs: [], records: [] };
  for await (const job of deps.jobs.retentionDue(now)) {
    if (job.recordTtl !== undefined && job.recordTtl * 1000 <= now.getTime()) {
      if (job.eventEmittedAt === undefined) continue;
      await deleteObjectsOf(deps, job.id);
      if (await deps.jobs.removeFinished(job.id)) done.records.push(job.id);
    } else {
      await deleteObjectsOf(deps, job.id);
      await deps.jobs.update(job.id, { outputsRemovedAt: now.toISOString() });
      done.outputs.push(job.id);
    }
    if (done.outputs.length + done.records.length >= max) break;
  }
  return done;
}

/**
 * Prunes up to `max` finished jobs with no expiry of their own past REELAY_RETENTION_DAYS, oldest
 * first; returns their ids. Fewer than `max` means none is left for now.
 */
export async function pruneFinishedJobs(deps: RetentionDeps, max: number): Promise<string[]> {
  if (deps.retentionDays === undefined) return [];
  const horizon = new Date(deps.now().getTime() - deps.retentionDays * DAY_MS).toISOString();
  const pruned: string[] = [];
  for await (const job of deps.jobs.createdBetween({
    from: EARLIEST,
    to: horizon,
    max: Number.MAX_SAFE_INTEGER,
  })) {
    if (!isPastRetention(job, horizon)) continue;
    await deleteObjectsOf(deps, job.id);
    if (await deps.jobs.removeFinished(job.id)) pruned.push(job.id);
    if (pruned.length >= max) break;
  }
  return pruned;
}

/**
 * Deletes up to `max` uploads made more than REELAY_UPLOAD_RETENTION_DAYS ago (by the object's own
 * time, as a lifecycle rule counts); returns their keys. Fewer than `max` means none is left for now.
 */
export async function removeExpiredUploads(deps: RetentionDeps, max: number): Promise<string[]> {
  if (deps.uploadRetentionDays === undefined) return [];
  const horizon = deps.now().getTime() - deps.uploadRetentionDays * DAY_MS;
  const removed: string[] = [];
  let token: string | undefined;
  do {
    const page = await deps.s3.send(
      new ListObjectsV2Command({
        Bucket: deps.bucket,
        Prefix: UPLOADS_PREFIX,
        ...(token === undefined ? {} : { ContinuationToken: token }),
      }),
    );
    const due = (page.Contents ?? []).flatMap((object) =>
      object.Key !== undefined && (object.LastModified?.getTime() ?? Infinity) <= horizon
        ? [object.Key]
        : [],
    );
    const batch = due.slice(0, max - removed.length);
    if (batch.length > 0) {
      await deps.s3.send(
        new DeleteObjectsCommand({
          Bucket: deps.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      removed.push(...batch);
    }
    token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
  } while (token !== undefined && removed.length < max);
  return removed;
}
