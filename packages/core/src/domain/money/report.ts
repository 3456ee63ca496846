/**
 * Usage reports (GET /v1/usage): the jobs made in a time range, grouped by model, key, day, batch,
 * upstream account or end user, with their units, their cost, and their failures by class. Units and cost
 * count what was charged (`true`, and `unknown` at its estimate, as budgets do), over every attempt
 * of a job that fell back to another account; a job still running is counted in `in_progress` and
 * nowhere else until it ends. By account, a job counts under the account it ended on (`default`
 * when it has none) and each failed try's charge under the account that ran it. A job that reused
 * another's output (reuse) is counted in `reused` and its source's estimate in `saved`; it was not
 * charged, so it adds nothing to units or cost.
 */
import { isTerminal, type Job } from "../jobs/types.ts";
import { DEFAULT_ACCOUNT } from "../upstreams/accounts.ts";
import { type Charged, chargedOf, costMicrosOf, estimateOfJob } from "./charge.ts";
import { type FailureClass, failureClassOf } from "./classes.ts";
import { fromMicros } from "./prices.ts";

export const USAGE_GROUPS = ["model", "key", "day", "batch", "account", "user"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** One row of a report (a group, or the totals), as the API answers it. */
export interface UsageRow {
  jobs: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  in_progress: number;
  units: { video_seconds: number; images: number };
  /** Null without a price table; otherwise the priced jobs' sum (see `unpriced`). */
  cost: number | null;
  /** Charged jobs whose cost is not known (no price table, or the model not in it). */
  unpriced: number;
  failures: Partial<Record<FailureClass, number>>;
  /** Failed jobs that were (or may have been) charged. */
  charged_failures: number;
  /** Ended jobs that were (or may have been) charged: those that made an upstream task. */
  charged: number;
  /** Ended jobs served from another job's output (reuse), charged nothing. */
  reused: number;
  /** What the reused jobs' sources were estimated to cost: the money reuse saved (null without a price table). */
  saved: number | null;
}

/** A row while counting: cost in millionths, so sums are exact. */
type Tally = Omit<UsageRow, "cost" | "saved"> & { costMicros: number; savedMicros: number };

function emptyTally(): Tally {
  return {
    jobs: 0,
    succeeded: 0,
    failed: 0,
    cancelled: 0,
    in_progress: 0,
    units: { video_seconds: 0, images: 0 },
    costMicros: 0,
    unpriced: 0,
    failures: {},
    charged_failures: 0,
    charged: 0,
    reused: 0,
    savedMicros: 0,
  };
}

/** One attempt's charge: units at the job's estimate, and its cost (unpriced when unknown). */
function charge(tally: Tally, job: Job, charged: Charged | null, costMicros: number | null): void {
  if (charged === false) return;
  const { usage } = estimateOfJob(job);
  if (usage.unit === "video_second") tally.units.video_seconds += usage.quantity;
  else tally.units.images += usage.quantity;
  if (costMicros === null) tally.unpriced += 1;
  else tally.costMicros += costMicros;
}

/**
 * The job once, by its status, and what it was charged: its current attempt, and with
 * `withFallbacks` its failed tries on other accounts too (the job's cost is their sum).
 */
function add(tally: Tally, job: Job, withFallbacks: boolean): void {
  tally.jobs += 1;
  if (!isTerminal(job.status)) {
    tally.in_progress += 1;
    return;
  }
  if (job.status === "succeeded") tally.succeeded += 1;
  else if (job.status === "cancelled") tally.cancelled += 1;
  else tally.failed += 1;
  const charged = chargedOf(job);
  if (charged !== false) tally.charged += 1;
  if (job.reusedFrom !== undefined) {
    tally.reused += 1;
    tally.savedMicros += estimateOfJob(job).costMicros ?? 0;
  }
  if (job.status === "failed" && job.error !== undefined) {
    const failureClass = failureClassOf(job.error);
    tally.failures[failureClass] = (tally.failures[failureClass] ?? 0) + 1;
    if (charged !== false) tally.charged_failures += 1;
  }
  charge(tally, job, charged, costMicrosOf(job));
  if (withFallbacks)
    for (const attempt of job.fallbacks ?? [])
      charge(tally, job, attempt.charged, attempt.costMicros);
}

function rowOf(tally: Tally, priced: boolean): UsageRow {
  const { costMicros, savedMicros, ...rest } = tally;
  return {
    ...rest,
    cost: priced ? fromMicros(costMicros) : null,
    saved: priced ? fromMicros(savedMicros) : null,
  };
}

/**
 * The value a job is grouped under; null for a job outside any batch (group_by=batch), or made for
 * no end user (group_by=user).
 */
function groupOf(job: Job, by: Exclude<UsageGroup, "account">): string | null {
  if (by === "model") return job.model;
  if (by === "day") return job.createdAt.slice(0, 10);
  if (by === "batch") return job.batchId ?? null;
  if (by === "user") return job.user ?? null;
  return job.source.apiKeyId ?? job.source.type;
}

export interface UsageReport {
  totals: UsageRow;
  groups: (UsageRow & { group: string | null })[];
}

/** Totals and groups over `jobs`; groups in the order of their names (null last). */
export async function usageReport(
  jobs: AsyncIterable<Job>,
  by: UsageGroup,
  priced: boolean,
): Promise<UsageReport> {
  const totals = emptyTally();
  const groups = new Map<string | null, Tally>();
  const tallyOf = (group: string | null) => {
    const tally = groups.get(group) ?? emptyTally();
    groups.set(group, tally);
    return tally;
  };
  for await (const job of jobs) {
    add(totals, job, true);
    if (by !== "account") {
      add(tallyOf(groupOf(job, by)), job, true);
      continue;
    }
    // By account, each failed try is charged where it ran; the job itself counts where it ended.
    add(tallyOf(job.upstreamAccount ?? DEFAULT_ACCOUNT), job, false);
    if (isTerminal(job.status))
      for (const attempt of job.fallbacks ?? [])
        charge(tallyOf(attempt.account), job, attempt.charged, attempt.costMicros);
  }
  const names = [...groups.keys()].sort((a, b) =>
    a === null ? 1 : b === null ? -1 : a.localeCompare(b),
  );
  return {
    totals: rowOf(totals, priced),
    groups: names.map((group) => ({ group, ...rowOf(groups.get(group) as Tally, priced) })),
  };
}
