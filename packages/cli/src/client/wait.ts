/**
 * Following one job to its end by reading its record. A restart of the local stack (or a blip on
 * the network) is ridden out: the job is durable and resumes, so the client keeps asking for a while.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { isReelayError } from "@reelay/core";
import type { ReelayApiClient } from "./api.ts";
import { isTerminal } from "@reelay/core/domain";
import type { JobView } from "./types.ts";

export interface WaitOptions {
  intervalMs: number;
  /** Consecutive transient failures tolerated before giving up. */
  maxTransientFailures?: number;
  onUpdate?: (job: JobView) => void;
}

export async function waitForJob(
  client: ReelayApiClient,
  id: string,
  options: WaitOptions,
): Promise<JobView> {
  let failures = 0;
  for (;;) {
    let job: JobView | undefined;
    try {
      job = await client.getJob(id);
      failures = 0;
    } catch (error) {
      if (
        !isReelayError(error) ||
        !error.retryable ||
        ++failures > (options.maxTransientFailures ?? 15)
      )
        throw error;
    }
    if (job !== undefined) {
      options.onUpdate?.(job);
      if (isTerminal(job.status)) return job;
    }
    await sleep(options.intervalMs);
  }
}
