/**
 * AWS's public on-demand rates, from the one module that holds them (rehearsal/bill/prices.ts, one
 * region, the day they were read): Step Functions Standard bills every state transition, retries
 * included ("Step Functions counts a state transition each time a step of your workflow is
 * executed ... including retries", aws.amazon.com/step-functions/pricing); Lambda bills requests and
 * GB-seconds of duration rounded up to the millisecond, at its arm64 rate, or a quarter more for
 * a function on x86_64 (the one that runs ffmpeg: STEP_ARCHITECTURE).
 */
import { PRICES } from "../../../rehearsal/bill/prices.ts";

const RATES = {
  perTransitionUsd: PRICES.stepFunctions.perTransitionUsd,
  perLambdaRequestUsd: PRICES.lambda.perRequestUsd,
  perGbSecondUsd: PRICES.lambda.perArmGbSecondUsd,
  perX86GbSecondUsd: PRICES.lambda.perX86GbSecondUsd,
} as const;

export interface Usage {
  transitions: number;
  invocations: number;
  /** All GB-s, on either architecture. */
  gbSeconds: number;
  /** Of those, the GB-s of x86_64 functions; absent: none. */
  x86GbSeconds?: number;
}

export function costUsd(usage: Usage): {
  total: number;
  transitions: number;
  requests: number;
  duration: number;
} {
  const transitions = usage.transitions * RATES.perTransitionUsd;
  const requests = usage.invocations * RATES.perLambdaRequestUsd;
  const x86 = usage.x86GbSeconds ?? 0;
  const duration = (usage.gbSeconds - x86) * RATES.perGbSecondUsd + x86 * RATES.perX86GbSecondUsd;
  return { total: transitions + requests + duration, transitions, requests, duration };
}

/**
 * Lambda durable functions: the function's requests and GB-s as any Lambda's (every resume is an
 * invocation, its replay included), plus $8.00 per million durable operations (every step, wait and
 * the execution's start) and $0.25 per GB of checkpoint data written. Data retained ($0.15 per
 * GB-month) comes to under $0.0001 per 1,000 jobs at a few KB each and is left out.
 */
const DURABLE_RATES = PRICES.durableFunctions;

export function durableCostUsd(usage: {
  operations: number;
  invocations: number;
  gbSeconds: number;
  bytesWritten: number;
}): { total: number; operations: number; requests: number; duration: number; data: number } {
  const operations = usage.operations * DURABLE_RATES.perOperationUsd;
  const requests = usage.invocations * RATES.perLambdaRequestUsd;
  const duration = usage.gbSeconds * RATES.perGbSecondUsd;
  const data = (usage.bytesWritten / 1024 ** 3) * DURABLE_RATES.perGbWrittenUsd;
  return { total: operations + requests + duration + data, operations, requests, duration, data };
}
