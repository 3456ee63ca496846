/**
 * On start, every job that was not terminal when the last process ended gets its flow started
 * again, and every terminal job whose event was never recorded as sent gets it now. Only the jobs
 * made since the resume mark are read (resume-mark.ts): every one before it was done with.
 */
import type { JsonlFileSink, JobStore } from "@reelay/core/adapters";
import { buildTerminalEvent, isTerminal, type Job, isReelayError } from "@reelay/core/domain";
import { emitOnce, type EventSink, type TerminalDeps } from "@reelay/core/usecases";
import { jobsSince } from "./resume-mark.ts";

export interface Leftovers {
  /** Not terminal: their flows start again, oldest first. */
  unfinished: Job[];
  /** Terminal without eventEmittedAt: the process died between the terminal write and the event. */
  unannounced: Job[];
}

/** The leftovers among the jobs made at or after `since` (every job without it). */
export async function leftoverJobs(jobs: JobStore, since?: string): Promise<Leftovers> {
  const leftovers: Leftovers = { unfinished: [], unannounced: [] };
  // Oldest first, so the jobs waiting longest go first.
  for await (const job of jobsSince(jobs, since)) {
    if (!isTerminal(job.status)) leftovers.unfinished.push(job);
    else if (job.eventEmittedAt === undefined) leftovers.unannounced.push(job);
  }
  return leftovers;
}

/**
 * Sends the terminal event of each job that missed it. On AWS the Finish or RecordFailure step would
 * be retried and send it; here the execution died with the process, and a terminal job is never
 * resumed. An event already in the file (the process died after the append, before recording it)
 * is only recorded, so no job gets two.
 */
export async function announceLeftovers(
  unannounced: Job[],
  deps: TerminalDeps & { jobs: JobStore; events: EventSink & Pick<JsonlFileSink, "readAll"> },
): Promise<string[]> {
  if (unannounced.length === 0) return [];
  const sent = new Set((await deps.events.readAll()).map((event) => event.id));
  const announced: string[] = [];
  for (const job of unannounced) {
    if (sent.has(buildTerminalEvent(job).id)) {
      await deps.jobs
        .update(
          job.id,
          { eventEmittedAt: deps.now().toISOString() },
          { unlessSet: "eventEmittedAt" },
        )
        .catch((error: unknown) => {
          if (!isReelayError(error, "job_conflict")) throw error;
        });
      continue;
    }
    await emitOnce(deps, job);
    announced.push(job.id);
  }
  return announced;
}
