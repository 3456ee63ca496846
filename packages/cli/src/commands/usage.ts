/**
 * `reelay usage [--from DAY|TIME] [--to DAY|TIME] [--by model|key|day|batch|account] [--json]`: jobs,
 * units, cost and failures over a time range (GET /v1/usage; this month by default), then each
 * budget in force with what its period has used. A stored key sees its own; the admin key all.
 */
import { USAGE_GROUPS, type UsageRow } from "@reelay/core/domain";
import type { ReelayApiClient, UsageReportView } from "../client/api.ts";
import { table } from "../client/format.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

const GROUPS: readonly string[] = USAGE_GROUPS;

function failures(row: UsageRow): string {
  const parts = Object.entries(row.failures).map(([name, n]) => `${name} ${n}`);
  return parts.length === 0 ? "-" : parts.join(", ");
}

function cells(name: string, row: UsageRow, currency: string | null): string[] {
  return [
    name,
    String(row.jobs),
    String(row.succeeded),
    String(row.failed),
    String(row.cancelled),
    String(row.in_progress),
    String(row.units.video_seconds),
    String(row.units.images),
    row.cost === null ? "-" : `${row.cost}${currency === null ? "" : ` ${currency}`}`,
    String(row.charged_failures),
    failures(row),
  ];
}

function render(report: UsageReportView): string {
  const head = [report.group_by.toUpperCase(), "JOBS", "OK", "FAILED", "CANCELLED"];
  const rows = [
    [...head, "RUNNING", "VIDEO S", "IMAGES", "COST", "CHARGED FAILURES", "FAILURES BY CLASS"],
    ...report.groups.map((row) => cells(row.group ?? "-", row, report.currency)),
    cells("total", report.totals, report.currency),
  ];
  const budgets = report.budgets.map((budget) => {
    const whose = budget.budget === "deployment" ? "deployment" : `key ${budget.id}`;
    const unit = budget.unit === "units" ? " units" : (report.currency ?? "");
    return `budget (${whose}): ${budget.used}/${budget.amount}${unit === "" ? "" : ` ${unit.trim()}`} this ${budget.period}, ${budget.remaining} left\n`;
  });
  return `usage from ${report.from} to ${report.to}\n${table(rows)}${budgets.join("")}`;
}

async function report(client: ReelayApiClient, query: Record<string, string>, json: boolean) {
  const answer = await client.usage(query);
  return json ? `${JSON.stringify(answer)}\n` : render(answer);
}

export async function runUsage(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      from: { type: "string" },
      to: { type: "string" },
      by: { type: "string", default: "model" },
      json: { type: "boolean", default: false },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
  if (!GROUPS.includes(values.by))
    throw new UsageError(`--by must be one of ${GROUPS.join(", ")}, got "${values.by}".`);
  const query: Record<string, string> = { group_by: values.by };
  if (values.from !== undefined) query.from = values.from;
  if (values.to !== undefined) query.to = values.to;
  return reportFailures(io, "usage", values.json, async () => {
    const { client } = await openSession(io);
    io.stdout(await report(client, query, values.json));
    return 0;
  });
}
