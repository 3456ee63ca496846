/** A job's estimate, fixed when it is made: its usage, and its cost under the price table of the day. */
import type { JobKind } from "../jobs/types.ts";
import { costMicros, type PriceTable } from "./prices.ts";
import { type Usage, usageOf } from "./usage.ts";

export interface Estimate {
  usage: Usage;
  /** Millionths of `currency`; null when no table prices this model and usage. */
  costMicros: number | null;
  currency: string | null;
  /** The price table's sha256; null without a table. */
  priceVersion: string | null;
}

export function estimateOf(
  job: { kind: JobKind; model: string; request: object },
  prices: PriceTable | undefined,
): Estimate {
  const usage = usageOf(job.kind, job.request);
  const micros = prices === undefined ? undefined : costMicros(prices, job.model, usage);
  return {
    usage,
    costMicros: micros ?? null,
    currency: prices?.currency ?? null,
    priceVersion: prices?.version ?? null,
  };
}
