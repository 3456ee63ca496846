/**
 * One screen of `reelay top`, from the scrapes of the last minutes: the gauges as the newest scrape
 * has them, and each counter's increase from the oldest scrape kept to the newest as a rate per
 * minute. A counter that went down means the stack restarted; its increase is then its new value,
 * as Prometheus's rate() reads a reset.
 */
import { byLabel, type Scrape, total } from "./scrape.ts";

export interface TopFrame {
  /** Upstream tasks in flight (admission slots held), the limit, and the queue. */
  inFlight: number;
  slotsLimit: number;
  queued: number;
  oldestQueuedS: number;
  /** Since the stack started (its counters). */
  sinceStart: { created: number; succeeded: number; failed: number; cancelled: number };
  failuresSinceStart: Record<string, number>;
  /** A pool's accounts, one each (absent with one account, whose figures are the totals above). */
  accounts?: AccountLine[];
  /** Over `windowS` seconds; null until two scrapes are kept. */
  window: null | {
    windowS: number;
    finishedPerMin: number;
    succeededPerMin: number;
    failedPerMin: number;
    requestsPerMin: number;
    rateLimitedPerMin: number;
    /** 429s over upstream requests, 0..1; null without requests. */
    rateLimitedShare: number | null;
    failures: Record<string, number>;
    /** Quantiles of the window's observations, seconds; null when none fell in it. */
    detection: Quantiles | null;
    endToEnd: Quantiles | null;
  };
}

interface AccountLine {
  name: string;
  /** Open or half-open: no new creates but a probe. */
  circuit: "closed" | "open";
  inFlight: number;
  limit: number;
  /** Since start, or a minute over the window once there is one. */
  rateLimited: number;
  errors: number;
  perMin: boolean;
}

interface Quantiles {
  p50: number;
  p95: number;
}

const ENDED = [
  "reelay_jobs_succeeded_total",
  "reelay_jobs_failed_total",
  "reelay_jobs_cancelled_total",
] as const;

function increase(first: number, last: number): number {
  return last >= first ? last - first : last;
}

function sorted(map: Map<string, number>): Record<string, number> {
  return Object.fromEntries(
    [...map.entries()].filter(([, n]) => n > 0).sort(([, a], [, b]) => b - a),
  );
}

/** `scrapes` oldest first; the last one is now. */
export function topFrame(scrapes: readonly Scrape[]): TopFrame {
  const last = scrapes.at(-1);
  if (last === undefined) throw new RangeError("topFrame needs a scrape");
  const first = scrapes[0] ?? last;
  const frame: TopFrame = {
    inFlight: total(last, "reelay_slots_in_use"),
    slotsLimit: total(last, "reelay_slots_limit"),
    queued: total(last, "reelay_queue_depth"),
    oldestQueuedS: total(last, "reelay_queue_oldest_age_seconds"),
    sinceStart: {
      created: total(last, "reelay_jobs_created_total"),
      succeeded: total(last, "reelay_jobs_succeeded_total"),
      failed: total(last, "reelay_jobs_failed_total"),
      cancelled: total(last, "reelay_jobs_cancelled_total"),
    },
    failuresSinceStart: sorted(byLabel(last, "reelay_jobs_failed_total", "code")),
    window: null,
  };
  const windowS = (last.at - first.at) / 1000;
  const accounts = accountLines(first, last, windowS);
  if (accounts.length > 1) frame.accounts = accounts;
  if (first === last || windowS <= 0) return frame;
  const perMin = (name: string) => (increase(total(first, name), total(last, name)) / windowS) * 60;
  const requestsPerMin = perMin("reelay_upstream_requests_total");
  const rateLimitedPerMin = perMin("reelay_upstream_429_total");
  const failuresThen = byLabel(first, "reelay_jobs_failed_total", "code");
  const failures = new Map<string, number>();
  for (const [code, n] of byLabel(last, "reelay_jobs_failed_total", "code"))
    failures.set(code, increase(failuresThen.get(code) ?? 0, n));
  frame.window = {
    windowS,
    finishedPerMin: ENDED.reduce((sum, name) => sum + perMin(name), 0),
    succeededPerMin: perMin("reelay_jobs_succeeded_total"),
    failedPerMin: perMin("reelay_jobs_failed_total"),
    requestsPerMin,
    rateLimitedPerMin,
    rateLimitedShare: requestsPerMin > 0 ? rateLimitedPerMin / requestsPerMin : null,
    failures: sorted(failures),
    detection: quantiles(first, last, "reelay_detection_delay_seconds"),
    endToEnd: quantiles(first, last, "reelay_job_duration_seconds"),
  };
  return frame;
}

/** Each account the gauges name, in their order: its circuit, slots, and its 429s and errors. */
function accountLines(first: Scrape, last: Scrape, windowS: number): AccountLine[] {
  const perMin = first !== last && windowS > 0;
  const names = [...byLabel(last, "reelay_slots_limit", "account").keys()];
  return names.map((name) => {
    const where = { account: name };
    const counted = (metric: string) => {
      const now = total(last, metric, where);
      return perMin ? (increase(total(first, metric, where), now) / windowS) * 60 : now;
    };
    return {
      name,
      circuit: total(last, "reelay_circuit_open", where) > 0 ? "open" : "closed",
      inFlight: total(last, "reelay_slots_in_use", where),
      limit: total(last, "reelay_slots_limit", where),
      rateLimited: counted("reelay_upstream_429_total"),
      errors: counted("reelay_upstream_errors_total"),
      perMin,
    };
  });
}

/** A histogram's buckets over the window (all label sets summed), cumulative, by upper bound. */
function bucketIncreases(first: Scrape, last: Scrape, name: string): [number, number][] {
  const bucket = `${name}_bucket`;
  const then = byLabel(first, bucket, "le");
  return [...byLabel(last, bucket, "le")]
    .map(([le, n]): [number, number] => [Number(le), increase(then.get(le) ?? 0, n)])
    .sort(([a], [b]) => a - b);
}

/**
 * The quantile as Prometheus's histogram_quantile() estimates it: linear within the bucket it falls
 * in; one in the last (+Inf) bucket is reported as the highest finite bound.
 */
function quantile(buckets: [number, number][], q: number): number {
  const count = buckets.at(-1)?.[1] ?? 0;
  const rank = q * count;
  let lower = 0;
  let below = 0;
  for (const [bound, cumulative] of buckets) {
    if (cumulative >= rank) {
      if (!Number.isFinite(bound)) return lower;
      const inBucket = cumulative - below;
      return inBucket === 0 ? bound : lower + ((bound - lower) * (rank - below)) / inBucket;
    }
    lower = bound;
    below = cumulative;
  }
  return lower;
}

function quantiles(first: Scrape, last: Scrape, name: string): Quantiles | null {
  const buckets = bucketIncreases(first, last, name);
  if ((buckets.at(-1)?.[1] ?? 0) === 0) return null;
  return { p50: quantile(buckets, 0.5), p95: quantile(buckets, 0.95) };
}

const rate = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)}/min`;

function duration(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function codes(failures: Record<string, number>, format: (n: number) => string): string {
  const parts = Object.entries(failures).map(([code, n]) => `${code} ${format(n)}`);
  return parts.length === 0 ? "none" : parts.join(", ");
}

function spread(q: Quantiles | null): string {
  return q === null ? "-" : `p50 ${duration(q.p50)}, p95 ${duration(q.p95)}`;
}

/** One line per account, its name and circuit padded so the columns line up. */
function accountsText(accounts: readonly AccountLine[]): string[] {
  const width = Math.max(0, ...accounts.map((a) => a.name.length));
  return accounts.map((a, index) => {
    const count = (n: number) => (a.perMin ? rate(n) : `${n} since start`);
    const lead = index === 0 ? "accounts    " : "            ";
    return `${lead}${a.name.padEnd(width)}  ${a.circuit.padEnd(6)}  ${a.inFlight}/${a.limit} in flight, 429s ${count(a.rateLimited)}, errors ${count(a.errors)}`;
  });
}

export function renderFrame(frame: TopFrame, head: string): string {
  const { sinceStart, window } = frame;
  const lines = [
    head,
    "",
    `in flight   ${frame.inFlight} upstream tasks, slots ${frame.inFlight}/${frame.slotsLimit}`,
    ...accountsText(frame.accounts ?? []),
    `queued      ${frame.queued}${frame.queued > 0 ? ` (oldest ${duration(frame.oldestQueuedS)})` : ""}`,
  ];
  if (window === null) {
    lines.push("rates       (after the next scrape)");
  } else {
    const share =
      window.rateLimitedShare === null
        ? ""
        : ` (${(window.rateLimitedShare * 100).toFixed(1)}% of ${rate(window.requestsPerMin)} upstream requests)`;
    lines.push(
      `throughput  ${rate(window.finishedPerMin)} finished (${rate(window.succeededPerMin)} succeeded, ${rate(window.failedPerMin)} failed) over the last ${duration(window.windowS)}`,
      `429s        ${rate(window.rateLimitedPerMin)}${share}`,
      `failures    ${codes(window.failures, (n) => String(Math.round(n)))} (last ${duration(window.windowS)})`,
      `latency     detection ${spread(window.detection)}; end to end ${spread(window.endToEnd)}`,
    );
  }
  lines.push(
    `since start ${sinceStart.created} created, ${sinceStart.succeeded} succeeded, ${sinceStart.failed} failed, ${sinceStart.cancelled} cancelled`,
    `            failures by code: ${codes(frame.failuresSinceStart, String)}`,
  );
  return `${lines.join("\n")}\n`;
}
