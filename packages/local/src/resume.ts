/** On start, every job that was not terminal when the last process ended gets its flow started again. */
import type { JobStore } from "@reelay/core/jobs/store";
import { isTerminal, type Job } from "@reelay/core/jobs/types";

export async function unfinishedJobs(jobs: JobStore): Promise<Job[]> {
  const found: Job[] = [];
  let cursor: string | undefined;
  do {
    const page = await jobs.list({ limit: 100, ...(cursor === undefined ? {} : { cursor }) });
    found.push(...page.jobs.filter((job) => !isTerminal(job.status)));
    cursor = page.cursor;
  } while (cursor !== undefined);
  // Oldest first, so the jobs waiting longest go first.
  return found.reverse();
}
