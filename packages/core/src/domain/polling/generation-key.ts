import { durationOf } from "../jobs/request.ts";
import type { Job } from "../jobs/types.ts";

/** The group a job's generation time is filed under: its model and requested duration. */
export function generationStatsKey(job: Pick<Job, "model" | "request">): string {
  return `${job.model}#${durationOf(job.request) ?? "default"}`;
}
