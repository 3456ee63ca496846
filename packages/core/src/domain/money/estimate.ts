/** A job's estimate, fixed when it is made: its usage, and its cost under the price table of the day. */
import { type JobRequest, unitsOf } from "../jobs/request.ts";
import { costMicros, type PriceTable } from "./prices.ts";
import type { Estimate } from "./types.ts";

export function estimateOf(
  job: { model: string; request: JobRequest },
  prices: PriceTable | undefined,
): Estimate {
  const usage = unitsOf(job.request);
  const micros = prices === undefined ? undefined : costMicros(prices, job.model, usage);
  return {
    usage,
    costMicros: micros ?? null,
    currency: prices?.currency ?? null,
    priceVersion: prices?.version ?? null,
  };
}

/** Several jobs' estimates together (a batch's quote): units by kind, and the cost of the priced ones. */
interface TotalEstimate {
  usage: { video_seconds: number; images: number };
  /** Sum over the priced lines; null without a price table. */
  cost: number | null;
  currency: string | null;
  /** Lines the table does not price (their cost is not in `cost`). */
  unpriced: number;
}

export function totalEstimate(estimates: readonly Estimate[], prices: PriceTable | undefined) {
  let micros = 0;
  let unpriced = 0;
  const usage = { video_seconds: 0, images: 0 };
  for (const estimate of estimates) {
    if (estimate.usage.unit === "video_second") usage.video_seconds += estimate.usage.quantity;
    else usage.images += estimate.usage.quantity;
    if (estimate.costMicros === null) unpriced += 1;
    else micros += estimate.costMicros;
  }
  const total: TotalEstimate = {
    usage,
    cost: prices === undefined ? null : micros / 1_000_000,
    currency: prices?.currency ?? null,
    unpriced: prices === undefined ? estimates.length : unpriced,
  };
  return total;
}
