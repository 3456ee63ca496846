/** The job record: one per request, the durable truth about where a generation stands. */
import type { Issue } from "../errors.ts";
import type { Estimate, Reservation } from "../money/types.ts";
import type { Media } from "../media/types.ts";
import type { Adjustment } from "../validate/fit.ts";
import type { KeptJobOptions } from "./job-options.ts";
import type { JobRequest } from "./request.ts";

export type JobKind = "video" | "image";

export const JOB_STATUSES = [
  "queued",
  "running",
  "downloading",
  "succeeded",
  "failed",
  "cancelled",
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Only names a client of the service interface already treats as terminal (docs/contract.md §3). */
export const TERMINAL_STATUSES = ["succeeded", "failed", "cancelled"] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export function isTerminal(status: string): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

export interface JobSource {
  type: "api" | "drop" | "cli";
  bucket?: string;
  key?: string;
  line?: number;
  apiKeyId?: string;
  /** The project of the key that made it (domain/keys/projects.ts); absent: its key's own. */
  project?: string;
}

export interface JobOutput {
  bucket: string;
  key: string;
  bytes: number;
  sha256: string;
  contentType: string;
  sourceUrlHost?: string;
  /** Read from the stored bytes (domain/media/probe.ts); absent on outputs stored before verification. */
  media?: Media;
  /** The copy in the caller's own bucket (output.s3_prefix), when it was delivered there. */
  delivered?: { bucket: string; key: string };
}

/** A still image made from a video's frames (usecases/thumbnails), stored beside it. */
interface JobPreview {
  key: string;
  bytes: number;
  contentType: string;
  width: number;
  height: number;
}

/** Frames in a grid, left to right then top to bottom, one every `intervalS` from the start. */
export interface SpriteGrid {
  columns: number;
  rows: number;
  frames: number;
  frameWidth: number;
  frameHeight: number;
  intervalS: number;
}

/** A video's poster frame and spritesheet: the content route's `thumbnail` and `spritesheet`. */
export interface JobPreviews {
  thumbnail: JobPreview;
  spritesheet: JobPreview & SpriteGrid;
}

export interface JobError {
  code: string;
  message: string;
  /** The request field the failure names, when the upstream named one (e.g. `duration_sec`). */
  path?: string;
}

interface JobHistoryEntry {
  status: string;
  at: string;
  note?: string;
}

/** One upstream task of a job that failed there and was tried again on another account. */
export interface UpstreamAttempt {
  account: string;
  taskId?: string;
  outcome: "failed";
  error: JobError;
  /** Whether that task was paid for (a failed task: "unknown", counted at its estimate). */
  charged: true | false | "unknown";
  /** What it cost, in millionths of the price table's currency; null when unpriced. */
  costMicros: number | null;
  endedAt: string;
}

/** Its options (priority, queue timeout, webhook, retention, output target) are its own fields. */
export interface Job extends KeptJobOptions {
  id: string;
  kind: JobKind;
  status: JobStatus;
  /** The model run (an alias resolved, or a sunset model's successor). */
  model: string;
  /** The name the request gave when it is not `model` (an alias, or a sunset model); absent: `model`. */
  requestedModel?: string;
  mode: string;
  /** The normalized request, as sent upstream (read it through ./request.ts). */
  request: JobRequest;
  warnings: Issue[];
  /** What fit moved to make the request valid (`request` is the fitted one); absent = nothing. */
  adjustments?: Adjustment[];
  source: JobSource;
  /** Sent upstream as X-Idempotency-Key: the job id unless the caller gave one. */
  idempotencyKey: string;
  /** sha256 of the normalized request, so a repeated idempotency key with another payload is refused. */
  requestHash?: string;
  /**
   * sha256 of the model, the normalized request and its materials (./fingerprint.ts): jobs with
   * the same one asked the upstream for the same thing. Absent on records made before it.
   */
  fingerprint?: string;
  /**
   * reuse: the job whose output this one copies instead of making an upstream task, a succeeded
   * one or one still in progress that this one waits for (usecases/reuse). Its estimate is that
   * job's; it has no upstream task, so it is not charged.
   */
  reusedFrom?: string;
  upstreamTaskId?: string;
  /**
   * The upstream account the job's slot and task are on (REELAY_UPSTREAMS; `default` or absent in
   * the one-account form). Set when the job is admitted, before any create is sent; every poll and
   * download asks this account. A job back in the queue keeps it while a create sent there may
   * have been accepted (see refusedSends): it is then admitted only there again.
   */
  upstreamAccount?: string;
  /** Upstream create attempts (each a request sent, the client's own retries not counted). */
  attempts: number;
  /**
   * Creates the upstream certainly did not accept (a 429, a refused connection, a 401/403 or a 5xx
   * with no task). While attempts exceed it, a create may have been accepted on upstreamAccount.
   */
  refusedSends?: number;
  /** Earlier tries on other accounts whose task failed (REELAY_FALLBACK_ATTEMPTS), oldest first. */
  fallbacks?: UpstreamAttempt[];
  polls: number;
  createdAt: string;
  /** The reelay release that made the record (domain/version.ts); absent on records made before 0.1.0. */
  createdByVersion?: string;
  updatedAt: string;
  submittedAt?: string;
  upstreamDoneAt?: string;
  finishedAt?: string;
  deadlineAt?: string;
  outputs?: JobOutput[];
  /** The first output's media (for a video its only one), as read from the stored bytes. */
  media?: Media;
  /** A succeeded video's poster frame and spritesheet; absent for images and undecodable videos. */
  previews?: JobPreviews;
  error?: JobError;
  /** The last error a pipeline step threw, so RecordFailure can name it even when the runtime drops the code. */
  lastError?: JobError & { step: string };
  history: JobHistoryEntry[];
  eventEmittedAt?: string;
  /** ISO time the job was given an upstream slot; absent while it waits in the queue. */
  admittedAt?: string;
  /** Times the job was given a slot (a create answered 429 puts it back in the queue). */
  admissions?: number;
  /** Counted in its key's waiting jobs (max_queued) until its first queue entry leaves the queue. */
  queueCounted?: true;
  /** Counted in its end user's waiting jobs (user_limits.max_queued) likewise. */
  userQueueCounted?: true;
  /** The batch the job belongs to, and its line there. */
  batchId?: string;
  batchLine?: number;
  /** Usage and cost as the job was made (domain/money/estimate.ts); absent on records older than estimates. */
  estimate?: Estimate;
  /**
   * What the job holds of its key's and the deployment's budgets until it ends (adapters/dynamodb/budget-ledger.ts);
   * absent until reserved (at create through the API, at admission for batches and drops).
   */
  reservations?: Reservation[];
  /** The failed or cancelled job this one retries, and the newest retry of this one. */
  retryOf?: string;
  retriedBy?: string;
  /**
   * The W3C traceparent of the span that made the job (usecases/tracing.ts): each later span of the
   * job is its child, so the job is one trace. Absent when nothing was tracing then.
   */
  traceparent?: string;
  /** ISO time its outputs expire: set with the outputs, retentionDays after they were stored. */
  expiresAt?: string;
  /** Epoch seconds its record goes (the table's TTL attribute): RECORD_KEPT_DAYS after expiresAt. */
  recordTtl?: number;
  /** ISO time the local housekeeping deleted its expired objects. */
  outputsRemovedAt?: string;
}
