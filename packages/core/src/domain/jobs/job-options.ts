/**
 * What a caller chooses for a job besides its request: one value from the request to the record.
 * The API reads it (packages/api/src/job-options.ts: a body's fields or the X-Reelay-* headers),
 * a batch keeps it for each of its lines, and the job record keeps it as its own fields (the stored
 * item and the job's view read them there), all but `reuseMaxAgeS` and `fit`, whose outcomes the
 * record keeps instead (`reusedFrom`, `adjustments`).
 */
import type { Priority } from "../admission/settings.ts";
import type { FitMode } from "../validate/fit.ts";
import type { Metadata } from "./metadata.ts";

/** A job's own webhook (webhook_url / X-Reelay-Webhook): where its events go, and which. */
export interface JobWebhook {
  url: string;
  /** Detail-types it receives; absent = every one of the job's (and its batch's) events. */
  events?: string[];
}

/** Where a job's outputs are copied besides reelay's bucket (output.s3_prefix, domain/jobs/delivery.ts). */
export interface OutputTarget {
  bucket: string;
  /** Ends with `/`, or is empty (the bucket's root). */
  prefix: string;
}

export interface JobOptions {
  /** Admission order among the caller's own jobs; absent = normal. */
  priority?: Priority;
  /**
   * How long the job may wait for a slot (queue_timeout_s / X-Reelay-Queue-Timeout), at most
   * REELAY_QUEUE_TIMEOUT_S; absent: REELAY_QUEUE_TIMEOUT_S.
   */
  queueTimeoutS?: number;
  /** reuse / X-Reelay-Reuse: the oldest succeeded job (seconds since it finished) whose output may serve; absent = no reuse. */
  reuseMaxAgeS?: number;
  /** Its own webhook, signed with the webhook secret of the key that made it. */
  webhook?: JobWebhook;
  /**
   * Days its outputs are kept once stored (retention_days, else REELAY_RETENTION_DAYS as it was when
   * the job was made; domain/jobs/retention.ts); absent = kept for good.
   */
  retentionDays?: number;
  /** Where its outputs are copied besides reelay's bucket (output.s3_prefix). */
  outputTarget?: OutputTarget;
  /** fit / X-Reelay-Fit: refused values move to the nearest allowed (domain/validate/fit.ts); absent = refused. */
  fit?: FitMode;
  /** The caller's own string pairs (metadata / X-Reelay-Metadata, ./metadata.ts), shown back as given. */
  metadata?: Metadata;
  /**
   * The app's own opaque id for its end user (user / X-Reelay-User): the key's user_limits hold per
   * (key, user), and usage and listings group and filter by it; absent = no end user.
   */
  user?: string;
}

/** Every option's name (a Record, so one left out fails to compile): the fields `optionsOf` picks. */
const JOB_OPTION_NAMES = Object.keys({
  priority: true,
  queueTimeoutS: true,
  reuseMaxAgeS: true,
  webhook: true,
  retentionDays: true,
  outputTarget: true,
  fit: true,
  metadata: true,
  user: true,
} satisfies Record<keyof JobOptions, true>) as (keyof JobOptions)[];

/** The options a job record keeps as its own fields. */
export type KeptJobOptions = Omit<JobOptions, "reuseMaxAgeS" | "fit">;

/** Options as a reader or a default spells them, where an absent one may be `undefined`. */
type SpelledOptions = { [Name in keyof JobOptions]?: JobOptions[Name] | undefined };

/** The options given, each absent one left out rather than `undefined` (records store what is there). */
export function givenOptions(options: SpelledOptions): JobOptions {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as JobOptions;
}

/** The options of a record that keeps them (a job, a batch), and nothing else of it. */
export function optionsOf(record: JobOptions): JobOptions {
  return givenOptions(Object.fromEntries(JOB_OPTION_NAMES.map((name) => [name, record[name]])));
}

/** What a job record keeps of its options. */
export function keptOptions(options: JobOptions): KeptJobOptions {
  const { reuseMaxAgeS: _outcomeKept, fit: _fitOutcomeKept, ...kept } = givenOptions(options);
  return kept;
}

/**
 * What a retry (of a job, or of a batch's failures) keeps of the first one's options: its events go
 * where the first one's went, in the same order among the caller's jobs, its outputs kept as long
 * and delivered to the same place, with the same metadata, for the same end user. The wait for a slot and reuse are the
 * retry's own (absent); fit is not asked again, since the request retried is the fitted one.
 */
export function retriedOptions(options: JobOptions): JobOptions {
  const { priority, webhook, retentionDays, outputTarget, metadata, user } = options;
  return givenOptions({ priority, webhook, retentionDays, outputTarget, metadata, user });
}
