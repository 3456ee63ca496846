/**
 * How many upstream tasks reelay keeps in flight, and how fast it creates them. Configured
 * (REELAY_UPSTREAM_CONCURRENCY, REELAY_UPSTREAM_RATE) or, when unset, learned from the upstream's
 * 429s. Probing: every clean create made while all slots were held opens one more, so the limit
 * climbs one task at a time and the first 429 costs a single create; it sets the limit to what the
 * upstream was holding. After that the limit tries one slot more per four clean rounds and falls
 * back at the next 429 (additive increase, decrease to the measured capacity), so a steady batch
 * sees one 429 in about 4 x limit creates.
 */

export interface AdmissionSettings {
  /** Upstream tasks in flight at most; undefined = learned. */
  concurrency?: number;
  /** Upstream creates per second at most; undefined = as fast as slots free up. */
  ratePerS?: number;
  /** A job that waited this long without a slot ends failed with `queue_timeout`. */
  queueTimeoutS: number;
}

export const DEFAULT_QUEUE_TIMEOUT_S = 86_400;
/** Slot holders live in one item (DynamoDB's 400 KB): a thousand stay far inside it. */
export const MAX_UPSTREAM_CONCURRENCY = 1000;
/** Where a learned limit starts; probing raises it one create at a time. */
const LEARNED_START = 2;
/** Clean rounds (of `limit` creates) between two probes once the capacity is known. */
const ROUNDS_PER_PROBE = 4;
/** The longest an upstream's Retry-After holds every admission back. */
export const MAX_HOLD_MS = 60_000;

export const PRIORITIES = ["high", "normal", "low"] as const;
export type Priority = (typeof PRIORITIES)[number];

/** The learned limit as it is kept in the admission item. */
export interface LearnedLimit {
  limit: number;
  /** No 429 seen yet: the limit follows the slots the upstream has accepted, plus one. */
  probing: boolean;
  /** Clean creates since the limit last changed. */
  clean: number;
  /**
   * The most slots held at a clean create (less one for each 429 met at or below it): a 429 at or
   * below this level is taken for a passing refusal, above it for the account's capacity.
   */
  proven: number;
}

export const FIRST_LEARNED: LearnedLimit = {
  limit: LEARNED_START,
  probing: true,
  clean: 0,
  proven: 0,
};

/** A create went through while `held` slots were held (its own among them). */
export function afterCleanCreate(learned: LearnedLimit, held: number): LearnedLimit {
  const clean = learned.clean + 1;
  const proven = Math.max(learned.proven ?? 0, held);
  if (learned.probing) {
    const limit =
      held >= learned.limit ? Math.min(held + 1, MAX_UPSTREAM_CONCURRENCY) : learned.limit;
    return { limit, probing: true, clean, proven };
  }
  if (clean >= learned.limit * ROUNDS_PER_PROBE) {
    return {
      limit: Math.min(learned.limit + 1, MAX_UPSTREAM_CONCURRENCY),
      probing: false,
      clean: 0,
      proven,
    };
  }
  return { ...learned, clean, proven };
}

/**
 * A create answered 429 while `held` slots were held, this job's among them. Above the proven
 * level the upstream has shown its capacity: the limit falls to what it took (`held - 1`), and each
 * 429 of a burst lowers it further, so it settles there. At or below it, the refusal is taken for a
 * passing one and only lowers the proven level, so a flaky upstream does not starve the queue, while
 * an account that really shrank soon refuses above the proven level too.
 */
export function afterRateLimited(learned: LearnedLimit, held: number): LearnedLimit {
  const proven = learned.proven ?? 0;
  if (held <= proven) return { ...learned, proven: proven - 1 };
  return {
    limit: Math.max(1, Math.min(learned.limit, held - 1)),
    probing: false,
    clean: 0,
    proven: Math.min(proven, held - 1),
  };
}

export function effectiveLimit(
  settings: Pick<AdmissionSettings, "concurrency">,
  learned: LearnedLimit,
): number {
  return settings.concurrency ?? learned.limit;
}
