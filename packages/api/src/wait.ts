/** The opt-in bounded wait of POST /v1/images/edits: `?wait=<s>` or `Prefer: wait=<s>`, at most 60 s. */
import type { JobStorePort } from "@reelay/core/usecases";
import { isTerminal, type Job, ReelayError } from "@reelay/core/domain";

const MAX_WAIT_S = 60;
const POLL_MS = 250;

/** Seconds to wait (capped at `maxS`), undefined when the caller did not ask. The query wins. */
export function readWait(
  query: string | undefined,
  prefer: string | undefined,
  maxS: number = MAX_WAIT_S,
): number | undefined {
  const cap = Math.min(maxS, MAX_WAIT_S);
  if (query !== undefined) {
    if (!/^\d{1,6}$/.test(query))
      throw new ReelayError(
        "invalid_query",
        `wait must be a whole number of seconds (at most ${cap}).`,
        { status: 400, path: "wait" },
      );
    return Math.min(Number(query), cap);
  }
  // RFC 7240: `Prefer: respond-async, wait=30`; an unusable preference is ignored, as the RFC says.
  const match = prefer === undefined ? null : /(?:^|[,;\s])wait\s*=\s*"?(\d{1,6})"?/i.exec(prefer);
  return match === null ? undefined : Math.min(Number(match[1]), cap);
}

/** The job once terminal, or as it stands when `seconds` have passed. */
export async function waitForJob(jobs: JobStorePort, id: string, seconds: number): Promise<Job> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const job = await jobs.require(id);
    const left = until - Date.now();
    if (isTerminal(job.status) || left <= 0) return job;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
}
