/**
 * AWS's public on-demand rates (us-east-1): Step Functions Standard bills every state transition,
 * retries included ("Step Functions counts a state transition each time a step of your workflow is
 * executed ... including retries", aws.amazon.com/step-functions/pricing); Lambda on arm64 bills
 * requests and GB-seconds of duration rounded up to the millisecond.
 */
const RATES = {
  perTransitionUsd: 0.025 / 1_000,
  perLambdaRequestUsd: 0.2 / 1_000_000,
  perGbSecondUsd: 0.0000133334,
} as const;

export interface Usage {
  transitions: number;
  invocations: number;
  gbSeconds: number;
}

export function costUsd(usage: Usage): {
  total: number;
  transitions: number;
  requests: number;
  duration: number;
} {
  const transitions = usage.transitions * RATES.perTransitionUsd;
  const requests = usage.invocations * RATES.perLambdaRequestUsd;
  const duration = usage.gbSeconds * RATES.perGbSecondUsd;
  return { total: transitions + requests + duration, transitions, requests, duration };
}
