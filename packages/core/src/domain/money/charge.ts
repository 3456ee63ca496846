/**
 * Whether a job that ended was paid for, and what it cost. Generation is billed per task: nothing
 * is charged when no upstream task was made; a task that succeeded, or was cancelled while the
 * upstream was generating, is charged. A failed task is `unknown` where the contract cannot tell
 * (docs/contract.md §8 says nothing of failed tasks), and is counted at its estimate, so a budget never counts
 * less than may have been spent.
 */
import { isTerminal, type Job } from "../jobs/types.ts";
import { failureClassOf } from "./classes.ts";
import { estimateOf } from "./estimate.ts";
import type { Estimate } from "./types.ts";

export type Charged = true | false | "unknown";

export function chargedOf(job: Job): Charged | null {
  if (!isTerminal(job.status)) return null;
  if (job.upstreamTaskId === undefined) return false;
  if (job.status === "succeeded" || job.status === "cancelled") return true;
  // The upstream finished the task and only reelay's copy failed: it was generated.
  if (job.error !== undefined && failureClassOf(job.error) === "output_unavailable") return true;
  // ... or the copy was made and its file is broken or not what was asked: it was generated too.
  if (job.error?.code === "output_invalid" || job.error?.code === "output_mismatch") return true;
  return "unknown";
}

/** The job's estimate; a record made before estimates existed gets one from its request, unpriced. */
export function estimateOfJob(job: Job): Estimate {
  return job.estimate ?? estimateOf(job, undefined);
}

/** Millionths of the estimate's currency once the job ended: 0 when nothing was charged; null while running or unpriced. */
export function costMicrosOf(job: Job): number | null {
  const charged = chargedOf(job);
  if (charged === null) return null;
  if (charged === false) return 0;
  return estimateOfJob(job).costMicros;
}
