/**
 * What a log line about a job carries, the same on both platforms (the local stack's JSON lines,
 * Powertools Logger's keys on AWS): job, batch, step, the API key's id (never the key), model,
 * upstream task, each where known.
 */
import type { Job } from "./types.ts";

/** What a line is about. */
export interface LogContext {
  jobId?: string;
  batchId?: string;
  step?: string;
  keyId?: string;
  model?: string;
  upstreamTaskId?: string;
  /** The error code a job ended with. */
  errorCode?: string;
}

/** The context of a line about this job: what its record says, where it says it. */
export function jobContext(
  job: Pick<Job, "id"> & Partial<Pick<Job, "model" | "source" | "batchId" | "upstreamTaskId">>,
): LogContext {
  const context: LogContext = { jobId: job.id };
  if (job.batchId !== undefined) context.batchId = job.batchId;
  if (job.source?.apiKeyId !== undefined) context.keyId = job.source.apiKeyId;
  if (job.model !== undefined) context.model = job.model;
  if (job.upstreamTaskId !== undefined) context.upstreamTaskId = job.upstreamTaskId;
  return context;
}
