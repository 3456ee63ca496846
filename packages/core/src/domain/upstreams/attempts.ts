/**
 * A job's upstream attempts as users see them (`attempts` on the job, and the sum behind its
 * `cost`): each try on an account whose task failed and was tried elsewhere (fallbacks), then the
 * current one once the job has an account or a task.
 */
import { isTerminal, type Job } from "../jobs/types.ts";
import { type Charged, chargedOf, costMicrosOf } from "../money/charge.ts";
import { fromMicros } from "../money/prices.ts";
import { DEFAULT_ACCOUNT } from "./accounts.ts";

export interface AttemptView {
  account: string;
  task_id: string | null;
  /** A past attempt "failed"; the current one the job's status once it ended, else "in_progress". */
  outcome: string;
  charged: Charged | null;
  cost: number | null;
}

export function attemptsView(job: Job): AttemptView[] {
  const past = (job.fallbacks ?? []).map((attempt) => ({
    account: attempt.account,
    task_id: attempt.taskId ?? null,
    outcome: attempt.outcome,
    charged: attempt.charged,
    cost: attempt.costMicros === null ? null : fromMicros(attempt.costMicros),
  }));
  if (job.upstreamAccount === undefined && job.upstreamTaskId === undefined) return past;
  const cost = costMicrosOf(job);
  return [
    ...past,
    {
      account: job.upstreamAccount ?? DEFAULT_ACCOUNT,
      task_id: job.upstreamTaskId ?? null,
      outcome: isTerminal(job.status) ? job.status : "in_progress",
      charged: chargedOf(job),
      cost: cost === null ? null : fromMicros(cost),
    },
  ];
}

/**
 * What the job cost over all its attempts, in millionths: its failed tries elsewhere plus the
 * current one; null while it runs or when any part is unpriced.
 */
export function totalCostMicrosOf(job: Job): number | null {
  const current = costMicrosOf(job);
  if (current === null) return null;
  let total = current;
  for (const attempt of job.fallbacks ?? []) {
    if (attempt.costMicros === null) return null;
    total += attempt.costMicros;
  }
  return total;
}
