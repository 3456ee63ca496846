/**
 * What reelay has seen of one model's generation times (upstream create -> task done), kept as a
 * log-bucket histogram: bucket i counts times in [1 s x RATIO^i, 1 s x RATIO^(i+1)). Buckets are
 * plain counters, so concurrent finishers add samples with atomic ADDs and none is ever lost; 2 %
 * wide buckets put a quantile within about 1 % of the exact one (7 s at 6 min). Pure functions.
 */

/** Each bucket is 2 % wider than the one before. */
export const BUCKET_RATIO = 1.02;
/** Times at or under 1 s all land in bucket 0. */
const BUCKET_BASE_MS = 1_000;
/** 2 hours: no generation is watched longer (the job deadline is at most 15 min unless overridden). */
const MAX_SAMPLE_MS = 2 * 60 * 60_000;

export interface GenerationHistory {
  /** Samples recorded. */
  samples: number;
  /** Bucket index -> samples in that bucket. */
  buckets: Record<number, number>;
}

export function bucketOf(ms: number): number {
  const clamped = Math.min(Math.max(ms, BUCKET_BASE_MS), MAX_SAMPLE_MS);
  return Math.floor(Math.log(clamped / BUCKET_BASE_MS) / Math.log(BUCKET_RATIO));
}

/** The lower bound of bucket `index`, in ms. */
export function bucketStartMs(index: number): number {
  return BUCKET_BASE_MS * BUCKET_RATIO ** index;
}

/**
 * The q-quantile (0..1) of the recorded times, interpolated inside its bucket (log-linearly, as the
 * buckets are spaced); undefined without samples. q = 0 is the start of the lowest bucket used.
 */
export function quantileMs(history: GenerationHistory, q: number): number | undefined {
  const entries = Object.entries(history.buckets)
    .map(([index, count]) => [Number(index), count] as const)
    .filter(([index, count]) => Number.isInteger(index) && index >= 0 && count > 0)
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return undefined;
  const rank = Math.min(Math.max(q, 0), 1) * total;
  let below = 0;
  for (const [index, count] of entries) {
    if (below + count >= rank) return bucketStartMs(index + (rank - below) / count);
    below += count;
  }
  // Reached only if rounding leaves `rank` a hair above the total: the top of the last bucket.
  const last = entries.at(-1);
  return last === undefined ? undefined : bucketStartMs(last[0] + 1);
}
