/** The money fields every view of a job carries (API, events, job.json), derived from its record. */
import type { Job, JobError } from "../jobs/types.ts";
import { type Charged, chargedOf, estimateOfJob } from "./charge.ts";
import { totalCostMicrosOf } from "../upstreams/attempts.ts";
import { type FailureClass, failureClassOf, isRetryableClass } from "./classes.ts";
import { fromMicros } from "./prices.ts";
import { usageView } from "./usage.ts";

export interface MoneyView {
  usage: Record<string, unknown>;
  estimate: { cost: number | null; currency: string | null; price_version: string | null };
  /** What the job cost once it ended (0 when nothing was charged); null while it runs or unpriced. */
  cost: number | null;
  charged: Charged | null;
}

export function moneyView(job: Job): MoneyView {
  const estimate = estimateOfJob(job);
  // Every attempt's: a job tried on another account after its task failed paid for both.
  const cost = totalCostMicrosOf(job);
  return {
    usage: usageView(estimate.usage),
    estimate: {
      cost: estimate.costMicros === null ? null : fromMicros(estimate.costMicros),
      currency: estimate.currency,
      price_version: estimate.priceVersion,
    },
    cost: cost === null ? null : fromMicros(cost),
    charged: chargedOf(job),
  };
}

export type ClassifiedError = JobError & { class: FailureClass; retryable: boolean };

/** A failed or cancelled job's error with its class and whether the same request may succeed later. */
export function classifiedError(error: JobError): ClassifiedError {
  const failureClass = failureClassOf(error);
  return { ...error, class: failureClass, retryable: isRetryableClass(failureClass) };
}
