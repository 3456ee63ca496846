/** The one event that marks the end of every job (bus "reelay", source "reelay"). */
import { type ClassifiedError, classifiedError, type MoneyView, moneyView } from "../money/view.ts";
import { ReelayError } from "../errors.ts";
import type { Issue } from "../errors.ts";
import type { Job, JobKind, JobOutput, TerminalStatus } from "../jobs/types.ts";
import type { Media } from "../media/types.ts";
import { isTerminal } from "../jobs/types.ts";
import { VERSION } from "../version.ts";

export const EVENT_SOURCE = "reelay";

export const DETAIL_TYPES = {
  succeeded: "Generation Succeeded",
  failed: "Generation Failed",
  cancelled: "Generation Cancelled",
} as const satisfies Record<TerminalStatus, string>;
type DetailType = (typeof DETAIL_TYPES)[TerminalStatus];

interface EventOutput {
  bucket: string;
  key: string;
  bytes: number;
  sha256: string;
  contentType: string;
  /** The copy in the caller's own bucket (output.s3_prefix), when it was delivered there. */
  delivered?: { bucket: string; key: string };
}

export interface TerminalEventDetail {
  jobId: string;
  kind: JobKind;
  model: string;
  /** The name the request gave: an alias or a sunset model's, else the model itself (absent on events announced before it). */
  requested_model?: string;
  status: TerminalStatus;
  /** The first (for video the only) output; null unless succeeded. */
  output: EventOutput | null;
  outputs: EventOutput[];
  /** What the stored (first) output is, read from its own structure; null when none was read. */
  media: Media | null;
  /** The job's warnings, an `output_mismatch` among them when the output is not what was asked. */
  warnings: Issue[];
  /** With its failure class and whether the same request may succeed later. */
  error: ClassifiedError | null;
  /** What the job asked for, what it was estimated to cost, what it cost and whether it was charged. */
  usage: MoneyView["usage"];
  estimate: MoneyView["estimate"];
  cost: number | null;
  charged: MoneyView["charged"];
  timings: {
    createdAt: string;
    submittedAt: string | null;
    upstreamDoneAt: string | null;
    finishedAt: string;
    totalMs: number;
  };
  upstreamTaskId: string | null;
  /** When the outputs expire (retention_days); null when they are kept for good or there are none. */
  expiresAt: string | null;
  /** The job whose output this one copied (reuse); absent when it made its own. */
  reused_from?: string;
  /** The end user the job was made for (user / X-Reelay-User); absent when none was named. */
  user?: string;
  /** The reelay release that announced the end (domain/version.ts). */
  version: string;
  /** The release that made the job; null for a record made before releases were recorded. */
  createdByVersion: string | null;
  /** The caller's own string pairs given with the job (metadata / X-Reelay-Metadata); {} when none. */
  metadata: Record<string, string>;
}

export interface TerminalEvent {
  /** Stable per job, so a consumer can drop a repeat. */
  id: string;
  time: string;
  source: typeof EVENT_SOURCE;
  "detail-type": DetailType;
  detail: TerminalEventDetail;
}

export const BATCH_COMPLETED = "Batch Completed";

interface BatchCompletedDetail {
  batchId: string;
  total: number;
  /** By status, plus `rejected` lines; sums to `total`. */
  counts: Record<string, number>;
  /** outputs/batches/<id>/results.jsonl: one line per request line. */
  results: { bucket: string; key: string };
  createdAt: string;
  finishedAt: string;
  /** The batch's own metadata (each line's job has its own in its event); {} when none. */
  metadata: Record<string, string>;
}

/** Once per batch, when its last job ends. */
export interface BatchCompletedEvent {
  /** `<batchId>.completed`: stable, so a consumer can drop a repeat. */
  id: string;
  time: string;
  source: typeof EVENT_SOURCE;
  "detail-type": typeof BATCH_COMPLETED;
  detail: BatchCompletedDetail;
}

/** Everything reelay announces: a job's end, or a batch's. */
export type ReelayEvent = TerminalEvent | BatchCompletedEvent;

export function isBatchEvent(event: ReelayEvent): event is BatchCompletedEvent {
  return event["detail-type"] === BATCH_COMPLETED;
}

function outputOf(output: JobOutput): EventOutput {
  return {
    bucket: output.bucket,
    key: output.key,
    bytes: output.bytes,
    sha256: output.sha256,
    contentType: output.contentType,
    ...(output.delivered === undefined ? {} : { delivered: output.delivered }),
  };
}

/** The terminal event for a job already in a terminal status. */
export function buildTerminalEvent(job: Job): TerminalEvent {
  const status = job.status;
  if (!isTerminal(status)) {
    throw new ReelayError(
      "job_not_terminal",
      `Job ${job.id} is ${status}; only a terminal job has a terminal event.`,
    );
  }
  const finishedAt = job.finishedAt ?? job.updatedAt;
  const outputs = status === "succeeded" ? (job.outputs ?? []).map(outputOf) : [];
  return {
    id: `${job.id}.${status}`,
    time: finishedAt,
    source: EVENT_SOURCE,
    "detail-type": DETAIL_TYPES[status],
    detail: {
      jobId: job.id,
      kind: job.kind,
      model: job.model,
      requested_model: job.requestedModel ?? job.model,
      status,
      output: outputs[0] ?? null,
      outputs,
      media: job.media ?? null,
      warnings: job.warnings,
      error: status === "succeeded" || job.error === undefined ? null : classifiedError(job.error),
      ...moneyView(job),
      timings: {
        createdAt: job.createdAt,
        submittedAt: job.submittedAt ?? null,
        upstreamDoneAt: job.upstreamDoneAt ?? null,
        finishedAt,
        totalMs: Math.max(0, Date.parse(finishedAt) - Date.parse(job.createdAt)),
      },
      upstreamTaskId: job.upstreamTaskId ?? null,
      expiresAt: status === "succeeded" ? (job.expiresAt ?? null) : null,
      ...(job.reusedFrom === undefined ? {} : { reused_from: job.reusedFrom }),
      ...(job.user === undefined ? {} : { user: job.user }),
      version: VERSION,
      createdByVersion: job.createdByVersion ?? null,
      metadata: job.metadata ?? {},
    },
  };
}
