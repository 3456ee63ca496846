/**
 * An account's recent problems, as operators see them on GET /v1/upstreams: how many creates met a
 * 429 and how many failed (refused, reset, timed out, a 5xx, a refused key) over the last
 * PROBLEM_WINDOW_MS, and the last such error. They live in the account's admission item, so every
 * process (each Lambda, the local stack) adds to and reads the same counts.
 *
 * The window is a ring of PROBLEM_SLOTS one-minute buckets per kind, each remembering which minute
 * it counts: a problem adds one to its minute's slot (one write), and only the first problem of a
 * minute whose slot still holds an older minute resets it (a second write). Reading sums the slots
 * whose minute is still inside the window, so old counts fall out without anyone deleting them.
 */

export const PROBLEM_BUCKET_MS = 60_000;
export const PROBLEM_SLOTS = 15;
export const PROBLEM_WINDOW_MS = PROBLEM_BUCKET_MS * PROBLEM_SLOTS;

/** A create answered 429, or a create that failed on the wire or was refused. */
export type ProblemKind = "rate_limited" | "error";

/** One slot of the ring as stored: the minute (epoch ms / PROBLEM_BUCKET_MS) and its count. */
export interface ProblemSlot {
  b: number;
  n: number;
}

export interface LastProblem {
  kind: ProblemKind;
  /** The error's stable code (upstream_rate_limited, upstream_unavailable, upstream_auth, ...). */
  code: string;
  /** Short and redacted: no key, no credentials, no query string. */
  message: string;
  /** ISO time. */
  at: string;
}

export interface RecentProblems {
  windowS: number;
  rateLimited: number;
  errors: number;
  last: LastProblem | null;
}

export const NO_PROBLEMS: RecentProblems = {
  windowS: PROBLEM_WINDOW_MS / 1000,
  rateLimited: 0,
  errors: 0,
  last: null,
};

export function bucketOf(at: number): number {
  return Math.floor(at / PROBLEM_BUCKET_MS);
}

/** The attribute that holds the ring slot of `kind` for the minute `bucket`. */
export function slotAttribute(kind: ProblemKind, bucket: number): string {
  return `problem_${kind}_${bucket % PROBLEM_SLOTS}`;
}

/** The counts of the slots whose minute is inside the window ending at `now`. */
export function recentCount(slots: readonly (ProblemSlot | undefined)[], now: number): number {
  const oldest = bucketOf(now) - PROBLEM_SLOTS + 1;
  let sum = 0;
  for (const slot of slots) if (slot !== undefined && slot.b >= oldest) sum += slot.n;
  return sum;
}

const MAX_MESSAGE = 160;

/**
 * An error message fit to keep and show: credentials in URLs, bearer tokens, anything that looks
 * like a key (`key=`, `sk-...`) and query strings removed, then cut short. The upstream client has
 * already taken the account's own key out; this is the second line.
 */
export function redactedMessage(message: string): string {
  const cleaned = message
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, "$1")
    .replace(/(https?:\/\/[^\s?#"']*)[?#][^\s"']*/gi, "$1")
    .replace(/(bearer\s+)[^\s"',;]+/gi, "$1[redacted]")
    .replace(
      /((?:api[_-]?key|token|secret|password|authorization)["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi,
      "$1[redacted]",
    )
    .replace(/\b(sk|pk|key)[-_][A-Za-z0-9_-]{8,}/g, "[redacted]")
    .replace(/\s+/g, " ")
    .trim();
  return cleaned.length <= MAX_MESSAGE ? cleaned : `${cleaned.slice(0, MAX_MESSAGE - 1)}…`;
}
