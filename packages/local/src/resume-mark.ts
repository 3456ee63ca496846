/**
 * Where the resume at start begins reading: a creation time before which every job is done with
 * (terminal, its event sent), kept in `<data dir>/resume-from.json`. Without it the start read
 * every job ever made to find the few left unfinished, seconds once there are tens of thousands.
 * A job never leaves a terminal status, so what was done before the mark stays done. The mark
 * stays a minute behind the time it was taken: a job stamped just before that moment but written
 * just after it is still read at the next start. No file (a data dir from before, or a fresh one):
 * the start reads every job.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { JobStore } from "@reelay/core/adapters";
import { isTerminal, type Job } from "@reelay/core/domain";

const FILE = "resume-from.json";
/** How far behind the time it is taken the mark stays (a create's stamp to its write, with room). */
const MARGIN_MS = 60_000;
/** Below every ISO time and at most every job's listing key. */
const EARLIEST = "0";
/** Above every ISO time: to the newest job. */
const LATEST = "9";

/** Done with: nothing at start would resume it or send its event. */
function isSettled(job: Pick<Job, "status" | "eventEmittedAt">): boolean {
  return isTerminal(job.status) && job.eventEmittedAt !== undefined;
}

export async function readResumeMark(dataDir: string): Promise<string | undefined> {
  try {
    const { from } = JSON.parse(await readFile(join(dataDir, FILE), "utf8")) as { from?: unknown };
    return typeof from === "string" ? from : undefined;
  } catch {
    // Missing or torn (a crash mid-write cannot tear it: it is renamed into place): read every job.
    return undefined;
  }
}

/** Every job created at or after `from` (every job without it), oldest first. */
export function jobsSince(jobs: JobStore, from: string | undefined): AsyncGenerator<Job> {
  return jobs.createdBetween({
    from: from ?? EARLIEST,
    to: LATEST,
    max: Number.MAX_SAFE_INTEGER,
  });
}

/**
 * Moves the mark up to the oldest job not yet done with, or to a minute ago when there is none,
 * reading only the jobs made since the mark. Returns the new mark. `quiet`: nothing can be making
 * a job now (the stack is stopping, its API and drops closed), so the mark may go up to `now`.
 */
export async function advanceResumeMark(
  jobs: JobStore,
  dataDir: string,
  now: Date,
  quiet = false,
): Promise<string> {
  const current = await readResumeMark(dataDir);
  let next = new Date(now.getTime() - (quiet ? 0 : MARGIN_MS)).toISOString();
  for await (const job of jobsSince(jobs, current)) {
    if (job.createdAt >= next) break;
    if (!isSettled(job)) {
      next = job.createdAt;
      break;
    }
  }
  if (current !== undefined && next <= current) return current;
  const file = join(dataDir, FILE);
  await writeFile(`${file}.tmp`, JSON.stringify({ from: next }));
  await rename(`${file}.tmp`, file);
  return next;
}
