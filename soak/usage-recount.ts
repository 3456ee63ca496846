/**
 * The money check of the soak: GET /v1/usage's totals must equal a recount of the final job
 * records, made here independently from each record's own fields (status, usage, charged, cost,
 * error.class), and its groups must add up to its totals. A difference means a report that
 * misstates what was made, charged or spent.
 */

import type { UsageRow } from "@reelay/core/domain";

/**
 * A usage row (the type only: the recount below is written apart from the report's own code),
 * without the reuse counts: the soak makes no request with reuse.
 */
type UsageTotals = Omit<UsageRow, "failures" | "charged" | "reused" | "saved"> & {
  failures: Record<string, number>;
};

export interface UsageEvidence {
  totals: UsageTotals;
  groups: UsageTotals[];
}

const STATUSES = ["succeeded", "failed", "cancelled"] as const;

function emptyTotals(priced: boolean): UsageTotals {
  return {
    jobs: 0,
    succeeded: 0,
    failed: 0,
    cancelled: 0,
    in_progress: 0,
    units: { video_seconds: 0, images: 0 },
    cost: priced ? 0 : null,
    unpriced: 0,
    failures: {},
    charged_failures: 0,
  };
}

function countRecord(totals: UsageTotals, record: any): void {
  totals.jobs += 1;
  const status = STATUSES.find((s) => s === record.status);
  if (status === undefined) {
    totals.in_progress += 1;
    return;
  }
  totals[status] += 1;
  const charged = record.charged !== false;
  if (status === "failed") {
    const name = record.error?.class ?? "missing";
    totals.failures[name] = (totals.failures[name] ?? 0) + 1;
    if (charged) totals.charged_failures += 1;
  }
  if (!charged) return;
  if (record.usage?.unit === "image") totals.units.images += record.usage.quantity;
  else totals.units.video_seconds += record.usage?.quantity ?? 0;
  if (record.cost === null) totals.unpriced += 1;
  else if (totals.cost !== null) totals.cost += record.cost;
}

/** Sums in millionths compare exactly; a float sum of many costs does not. */
const micros = (value: number | null) => (value === null ? null : Math.round(value * 1e6));

function differences(label: string, got: UsageTotals, want: UsageTotals): string[] {
  const found: string[] = [];
  const pairs: [string, unknown, unknown][] = [
    ["jobs", got.jobs, want.jobs],
    ...STATUSES.map((s): [string, unknown, unknown] => [s, got[s], want[s]]),
    ["in_progress", got.in_progress, want.in_progress],
    ["video_seconds", got.units.video_seconds, want.units.video_seconds],
    ["images", got.units.images, want.units.images],
    ["cost", micros(got.cost), micros(want.cost)],
    ["unpriced", got.unpriced, want.unpriced],
    ["charged_failures", got.charged_failures, want.charged_failures],
    ["failures", JSON.stringify(sorted(got.failures)), JSON.stringify(sorted(want.failures))],
  ];
  for (const [name, a, b] of pairs)
    if (a !== b)
      found.push(`${label} ${name}: the report says ${String(a)}, a recount ${String(b)}`);
  return found;
}

function sorted(record: Record<string, number>): [string, number][] {
  return Object.entries(record).sort(([a], [b]) => a.localeCompare(b));
}

function sumOf(rows: UsageTotals[], priced: boolean): UsageTotals {
  const sum = emptyTotals(priced);
  for (const row of rows) {
    for (const key of ["jobs", "in_progress", "unpriced", "charged_failures", ...STATUSES] as const)
      sum[key] += row[key];
    sum.units.video_seconds += row.units.video_seconds;
    sum.units.images += row.units.images;
    if (sum.cost !== null && row.cost !== null) sum.cost += row.cost;
    for (const [name, n] of Object.entries(row.failures))
      sum.failures[name] = (sum.failures[name] ?? 0) + n;
  }
  return sum;
}

/** Every way the report differs from a recount of `records`; empty when they agree. */
export function usageDifferences(report: UsageEvidence, records: readonly any[]): string[] {
  const priced = report.totals.cost !== null;
  const recount = emptyTotals(priced);
  for (const record of records) countRecord(recount, record);
  return [
    ...differences("totals", report.totals, recount),
    ...differences("groups", sumOf(report.groups, priced), report.totals),
  ];
}
