/**
 * How long to wait before trying an upstream call again. Full jitter (a uniform pick between zero
 * and the capped exponential) spreads many workers that failed together, so they do not return
 * together and meet the same 429 again.
 */

export interface Backoff {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 500, capMs: 8_000 };

/** A server's Retry-After is obeyed up to this; beyond it we would rather fail and let the job retry. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Delay before attempt `attempt + 1`, where `attempt` (1-based) is the attempt that just failed. */
export function backoffDelayMs(attempt: number, backoff: Backoff, random: () => number): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 30));
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** exponent);
  const pick = Math.min(Math.max(random(), 0), 1);
  return Math.floor(pick * ceiling);
}

/**
 * Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3), capped at
 * MAX_RETRY_AFTER_MS. Undefined when absent or unreadable, so the caller falls back to backoff.
 */
export function parseRetryAfterMs(
  header: string | null | undefined,
  now: number,
): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (value === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value))
    return Math.min(Math.round(Number(value) * 1000), MAX_RETRY_AFTER_MS);
  // HTTP dates always spell out day and month names; this keeps "-5" from parsing as a year.
  if (!/[a-z]/i.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(date - now, 0), MAX_RETRY_AFTER_MS);
}
