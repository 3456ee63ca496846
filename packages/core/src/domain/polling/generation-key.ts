import { durationOf } from "../jobs/request.ts";
import type { Job } from "../jobs/types.ts";
export const GENERATION_STATS_KEY_PREFIX = "stats#";

/** The item a job's generation time is filed under: its model and requested duration. */
export function generationStatsKey(job: Pick<Job, "model" | "request">): string {
  return `${GENERATION_STATS_KEY_PREFIX}${job.model}#${durationOf(job.request) ?? "default"}`;
}
