/**
 * How long a job's outputs are kept (`retention_days`, default REELAY_RETENTION_DAYS; unset = for
 * good) and how long its record outlives them.
 *
 *   outputs stored ──retention_days──> expires_at: no more links, the view says outputs_expired
 *                                       (local: the housekeeping deletes the objects within a minute;
 *                                        AWS: S3 lifecycle by the object's tag, within a day of it)
 *                  ──+ RECORD_KEPT_DAYS──> recordTtl: the record itself goes (DynamoDB TTL; local: the housekeeping)
 *
 * The record outlives its objects so that an expired job still answers what it was, and that its
 * outputs expired, rather than a 404 that reads like a job never made.
 */
import type { Job } from "./types.ts";

const DAY_MS = 86_400_000;

/** The longest retention a job may ask for (ten years); S3's lifecycle rules go up to it. */
export const MAX_RETENTION_DAYS = 3650;

/** Days a job's record is kept after its outputs expired. */
export const RECORD_KEPT_DAYS = 30;

/** The object tag S3's lifecycle rules expire by: `reelay-retention=<days>`. */
export const RETENTION_TAG = "reelay-retention";

/**
 * The day counts S3 lifecycle rules exist for (one rule each: S3 expires in whole days). An object
 * is tagged with the smallest one that is not shorter than its retention, so it goes at most a
 * day late within a month, later beyond; its links stop at expires_at all the same.
 */
export const RETENTION_TAG_DAYS: readonly number[] = [
  ...Array.from({ length: 30 }, (_, i) => i + 1),
  45,
  60,
  90,
  180,
  365,
  730,
  1095,
  1825,
  MAX_RETENTION_DAYS,
];

/** The tag value for a retention: the first lifecycle rule's day count that keeps it whole. */
export function retentionTagDays(retentionDays: number): number {
  const whole = Math.ceil(retentionDays);
  return RETENTION_TAG_DAYS.find((days) => days >= whole) ?? MAX_RETENTION_DAYS;
}

/** The object tags an output of `job` is written with; none when it is kept for good. */
export function retentionTags(job: Pick<Job, "retentionDays">): Record<string, string> | undefined {
  return job.retentionDays === undefined
    ? undefined
    : { [RETENTION_TAG]: String(retentionTagDays(job.retentionDays)) };
}

/** expires_at and the record's own expiry for outputs stored at `storedAt`; nothing when kept for good. */
export function expiryOf(
  job: Pick<Job, "retentionDays">,
  storedAt: Date,
): Pick<Job, "expiresAt" | "recordTtl"> {
  if (job.retentionDays === undefined) return {};
  const expires = storedAt.getTime() + job.retentionDays * DAY_MS;
  return {
    expiresAt: new Date(expires).toISOString(),
    recordTtl: Math.ceil((expires + RECORD_KEPT_DAYS * DAY_MS) / 1000),
  };
}

/** Whether the job's outputs are past their time (whether or not the objects are gone yet). */
export function outputsExpired(job: Pick<Job, "expiresAt">, now: Date): boolean {
  return job.expiresAt !== undefined && Date.parse(job.expiresAt) <= now.getTime();
}

/**
 * Seconds a link to the job's outputs may live from `now`: the link TTL, cut to expires_at so a link
 * never outlives its object; 0 when the outputs have expired.
 */
export function linkTtlS(job: Pick<Job, "expiresAt">, ttlS: number, now: Date): number {
  if (job.expiresAt === undefined) return ttlS;
  const left = Math.floor((Date.parse(job.expiresAt) - now.getTime()) / 1000);
  return Math.max(0, Math.min(ttlS, left));
}
