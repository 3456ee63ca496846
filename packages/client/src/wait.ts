/**
 * Following one job to its end by reading its record (GET /v1/jobs/{id}) at an interval. A blip
 * (a restart of the local stack, a dropped connection, a 503) is ridden out: the job is durable
 * and goes on, so the client keeps asking for a while before it gives up.
 */
import { isReelayError } from "./errors.ts";
import type { Job } from "./types.ts";

export interface WaitOptions {
  /** Called with the job each time its status, queue position or poll count changes. */
  onProgress?: ((job: Job) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** Between two looks at the job; default 1000 ms. */
  intervalMs?: number | undefined;
  /** Consecutive retryable failures ridden out before the last one is thrown; default 15. */
  maxTransientFailures?: number | undefined;
}

const TERMINAL_STATUSES: readonly string[] = ["succeeded", "failed", "cancelled"];

/** A pause that ends early, throwing the signal's reason, when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** What a progress callback is told about: a change in any of these is news. */
const progressKey = (job: Job) => `${job.status}|${job.queue_position ?? ""}|${job.polls}`;

export async function pollJob(
  look: (signal: AbortSignal | undefined) => Promise<Job>,
  options: WaitOptions,
): Promise<Job> {
  const { signal, onProgress } = options;
  let failures = 0;
  let last: string | undefined;
  for (;;) {
    signal?.throwIfAborted();
    let job: Job | undefined;
    try {
      job = await look(signal);
      failures = 0;
    } catch (error) {
      const transient = isReelayError(error) && error.retryable && !signal?.aborted;
      if (!transient || ++failures > (options.maxTransientFailures ?? 15)) throw error;
    }
    if (job !== undefined) {
      const key = progressKey(job);
      if (key !== last) onProgress?.(job);
      last = key;
      if (TERMINAL_STATUSES.includes(job.status)) return job;
    }
    await pause(options.intervalMs ?? 1000, signal);
  }
}
