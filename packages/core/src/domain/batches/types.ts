/** A batch: many requests sent together (POST /v1/batches or a multi-line drop), one job per valid line. */
import type { Issue } from "../errors.ts";
import type { JobOptions } from "../jobs/job-options.ts";
import type { JobSource, JobStatus } from "../jobs/types.ts";

export const BATCH_ID_PREFIX = "bat";
/** Lines a batch may hold (a JSONL body or file). */
export const MAX_BATCH_LINES = 10_000;

/**
 * Its options are each of its jobs' (a webhook also gets its Batch Completed), kept as its own
 * fields like a job's.
 */
export interface Batch extends JobOptions {
  /** `bat_<ulid>`. */
  id: string;
  /** Request lines, valid or not: `counts` always sums to this. */
  total: number;
  /** Lines that made a job. */
  jobs: number;
  /** Lines refused by validation (no job, nothing spent). */
  rejected: number;
  source: JobSource;
  createdAt: string;
  updatedAt: string;
  /** Jobs of the batch that reached a terminal status, as counted when each ended (the sweep recounts). */
  ended: number;
  /** Set once every job is terminal; the Batch Completed event and results file follow it. */
  finishedAt?: string;
  /** Set once the Batch Completed event went out. */
  announcedAt?: string;
  cancelledAt?: string;
  /** The batch whose retryable failures this one retries (POST /v1/batches/{id}/retry). */
  retryOf?: string;
}

/** One request line of a batch: the job it made, or why it made none. */
export interface BatchLine {
  /** 1-based line (JSONL) or index + 1 (a JSON `requests` array). */
  line: number;
  jobId?: string;
  errors?: Issue[];
}

export const BATCH_COUNT_KEYS = [
  "queued",
  "running",
  "downloading",
  "succeeded",
  "failed",
  "cancelled",
  "rejected",
] as const;
export type BatchCounts = Record<JobStatus | "rejected", number>;
