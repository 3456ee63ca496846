/**
 * The idle cost of a stage: what a deployed stage costs a month with no job at all (docs/deploy.md,
 * "What a stage costs"; docs/performance.md), the arithmetic only. Two parts:
 *
 * - The monthly charges its resources make whether used or not, counted from the synthesized
 *   template (fixedResources): CloudWatch alarms, by the metrics each evaluates; dashboards; KMS
 *   customer managed keys; advanced SSM parameters (standard ones are free); and what the stage's
 *   table and bucket hold with no job, for a month (the table's point-in-time recovery priced by
 *   the same bytes).
 * - What its schedules run: each scheduled rule's target, measured over idle runs on the rehearsal
 *   (idle-run.ts) and scaled to a 30-day month of runs at the rule's rate: Lambda requests and
 *   GB-s, DynamoDB request units, the lines logged (ingested, then kept for the log group's
 *   retention), X-Ray traces, and the custom metrics the runs publish (each a metric-month, since
 *   a run publishes them every hour). The rules themselves are free.
 *
 * Prices: prices.ts (the monthly ones as known on PRICES.monthlyNotedOn, not read from AWS's pages).
 */
import { PRICES } from "./prices.ts";
import type { TemplateJson } from "../template.ts";

/** The resources of a template that cost by the month, counted. */
export interface FixedResources {
  alarms: number;
  /** The metrics the alarms evaluate, by period: CloudWatch charges per alarm metric. */
  standardAlarmMetrics: number;
  highResolutionAlarmMetrics: number;
  dashboards: number;
  kmsKeys: number;
  standardParameters: number;
  advancedParameters: number;
  /** Scheduled rules (ScheduleExpression), whose runs are free. */
  scheduledRules: number;
}

/** One run of a schedule's target, as measured on an idle stage. */
export interface RunUsage {
  requests: number;
  armGbSeconds: number;
  x86GbSeconds: number;
  dynamoReadUnits: number;
  dynamoWriteUnits: number;
  s3Tier1Requests: number;
  s3Tier2Requests: number;
  logBytes: number;
  logEvents: number;
  traces: number;
}

export interface ScheduledRuns {
  /** The rule's logical id and its target's name. */
  rule: string;
  target: string;
  /** At the rule's rate over 30 days: 43,200 for rate(1 minute). */
  runsPerMonth: number;
  perRun: RunUsage;
  /** The target's log group's retention; undefined: kept forever. */
  logRetentionDays?: number;
}

/** What an idle stage was measured to use. */
export interface IdleUsage {
  schedules: ScheduledRuns[];
  /** Distinct metrics (name and dimension values) the runs publish, each run. */
  customMetrics: number;
  /** The stage's table as it is with no job, and whether it has point-in-time recovery. */
  table: { bytes: number; pitr: boolean };
  bucketBytes: number;
}

interface IdleLine {
  item: string;
  usd: number;
  /** What was priced, a month: "7 alarms, 8 alarm metrics". */
  usage: string;
}

export interface IdleBill {
  lines: IdleLine[];
  totalUsd: number;
}

/** A 30-day month. */
const MONTH_MS = 30 * 86_400_000;

type Properties = Record<string, unknown>;

function ofType(template: TemplateJson, type: string): Properties[] {
  return Object.values(template.Resources)
    .filter((r) => r.Type === type)
    .map((r) => (r.Properties ?? {}) as Properties);
}

/**
 * An alarm's metrics by resolution: its one metric, or each metric its math reads (an
 * expression is not one; an anomaly detection band adds its two bounds). High resolution: a
 * period under 60 s.
 */
function alarmMetrics(alarm: Properties): { standard: number; high: number } {
  const high = (period: unknown) => typeof period === "number" && period < 60;
  if (!Array.isArray(alarm.Metrics))
    return high(alarm.Period) ? { standard: 0, high: 1 } : { standard: 1, high: 0 };
  const counts = { standard: 0, high: 0 };
  for (const m of alarm.Metrics as Properties[]) {
    const stat = m.MetricStat as Properties | undefined;
    if (stat !== undefined) counts[high(stat.Period) ? "high" : "standard"] += 1;
    if (String(m.Expression ?? "").includes("ANOMALY_DETECTION_BAND")) counts.standard += 2;
  }
  return counts;
}

/** The template's resources that cost by the month. */
export function fixedResources(template: TemplateJson): FixedResources {
  const alarms = ofType(template, "AWS::CloudWatch::Alarm").map(alarmMetrics);
  const parameters = ofType(template, "AWS::SSM::Parameter");
  const advanced = parameters.filter((p) => p.Tier === "Advanced").length;
  return {
    alarms: alarms.length,
    standardAlarmMetrics: alarms.reduce((s, a) => s + a.standard, 0),
    highResolutionAlarmMetrics: alarms.reduce((s, a) => s + a.high, 0),
    dashboards: ofType(template, "AWS::CloudWatch::Dashboard").length,
    kmsKeys: ofType(template, "AWS::KMS::Key").length,
    standardParameters: parameters.length - advanced,
    advancedParameters: advanced,
    scheduledRules: ofType(template, "AWS::Events::Rule").filter(
      (r) => typeof r.ScheduleExpression === "string" && r.State !== "DISABLED",
    ).length,
  };
}

const GB = 1024 ** 3;
const f = (x: number, digits = 0) =>
  x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const plural = (n: number, one: string, many = `${one}s`) => `${f(n)} ${n === 1 ? one : many}`;

/** The template's monthly charges, and what the empty table and bucket hold. */
function fixedLines(fixed: FixedResources, usage: IdleUsage): IdleLine[] {
  const p = PRICES;
  const { table } = usage;
  const tableRate =
    p.dynamodb.perGbMonthStoredUsd + (table.pitr ? p.dynamodb.perGbMonthPitrUsd : 0);
  const high = fixed.highResolutionAlarmMetrics;
  return [
    {
      item: "CloudWatch alarms",
      usd:
        fixed.standardAlarmMetrics * p.cloudWatch.perStandardAlarmMetricMonthUsd +
        high * p.cloudWatch.perHighResolutionAlarmMetricMonthUsd,
      usage: `${plural(fixed.alarms, "alarm")} evaluating ${plural(fixed.standardAlarmMetrics + high, "metric")}${high > 0 ? ` (${f(high)} high resolution)` : ""}`,
    },
    {
      item: "CloudWatch dashboards",
      usd: fixed.dashboards * p.cloudWatch.perDashboardMonthUsd,
      usage: `${plural(fixed.dashboards, "dashboard")} (an account's first 3 are free)`,
    },
    {
      item: "KMS keys",
      usd: fixed.kmsKeys * p.kms.perKeyMonthUsd,
      usage: `${plural(fixed.kmsKeys, "customer managed key")} (rotation adds $1 a year, up to $3)`,
    },
    {
      item: "SSM parameters",
      usd:
        fixed.standardParameters * p.ssm.perStandardParameterMonthUsd +
        fixed.advancedParameters * p.ssm.perAdvancedParameterMonthUsd,
      usage: `${f(fixed.standardParameters)} standard (free), ${f(fixed.advancedParameters)} advanced`,
    },
    {
      item: "DynamoDB storage",
      usd: (table.bytes / GB) * tableRate,
      usage: `${f(table.bytes / 1024, 1)} KB in the table${table.pitr ? ", point-in-time recovery on" : ""}`,
    },
    {
      item: "S3 storage",
      usd: (usage.bucketBytes / GB) * p.s3.perGbMonthUsd,
      usage: `${f(usage.bucketBytes / 1024, 1)} KB in the bucket`,
    },
  ];
}

/** Each schedule's runs of a month, summed by what they use. */
function monthOf(usage: IdleUsage, pick: (r: RunUsage) => number): number {
  return usage.schedules.reduce((sum, s) => sum + s.runsPerMonth * pick(s.perRun), 0);
}

/** What the schedules run, a month; and the metrics those runs publish. */
function scheduleLines(fixed: FixedResources, usage: IdleUsage): IdleLine[] {
  const p = PRICES;
  const month = (pick: (r: RunUsage) => number) => monthOf(usage, pick);
  const runs = month(() => 1);
  const requests = month((r) => r.requests);
  const arm = month((r) => r.armGbSeconds);
  const x86 = month((r) => r.x86GbSeconds);
  const reads = month((r) => r.dynamoReadUnits);
  const writes = month((r) => r.dynamoWriteUnits);
  const tier1 = month((r) => r.s3Tier1Requests);
  const tier2 = month((r) => r.s3Tier2Requests);
  const traces = month((r) => r.traces);
  return [
    {
      item: "EventBridge schedules",
      usd: runs * p.eventBridge.perScheduledRunUsd,
      usage: `${f(runs)} runs of ${plural(fixed.scheduledRules, "scheduled rule")} (free)`,
    },
    {
      item: "Lambda",
      usd:
        requests * p.lambda.perRequestUsd +
        arm * p.lambda.perArmGbSecondUsd +
        x86 * p.lambda.perX86GbSecondUsd,
      usage: `${f(requests)} requests, ${f(arm)} GB-s arm64 + ${f(x86)} GB-s x86_64`,
    },
    {
      item: "DynamoDB requests",
      usd: reads * p.dynamodb.perReadUnitUsd + writes * p.dynamodb.perWriteUnitUsd,
      usage: `${f(reads)} read + ${f(writes)} write request units`,
    },
    {
      item: "S3 requests",
      usd: tier1 * p.s3.perTier1RequestUsd + tier2 * p.s3.perTier2RequestUsd,
      usage: `${f(tier1)} PUT/COPY/POST/LIST + ${f(tier2)} GET-class`,
    },
    ...logLines(usage),
    {
      item: "CloudWatch custom metrics",
      usd: usage.customMetrics * p.cloudWatch.perMetricMonthUsd,
      usage: `${plural(usage.customMetrics, "metric")} published every run`,
    },
    {
      item: "X-Ray",
      usd: traces * p.xray.perTraceRecordedUsd,
      usage: `${f(traces)} traces`,
    },
  ];
}

/**
 * The runs' lines ingested, each at its bytes plus 26, and kept: a log group that keeps its lines
 * R days holds R/30 of a month's once it is older than that (priced at the ingested bytes; stored
 * compressed, so an upper bound); one that keeps them forever holds one month more each month
 * (priced here at its first month's).
 */
function logLines(usage: IdleUsage): IdleLine[] {
  const p = PRICES.cloudWatchLogs;
  let metered = 0;
  let events = 0;
  let stored = 0;
  for (const s of usage.schedules) {
    const bytes = s.runsPerMonth * (s.perRun.logBytes + s.perRun.logEvents * p.eventOverheadBytes);
    metered += bytes;
    events += s.runsPerMonth * s.perRun.logEvents;
    stored += bytes * Math.min(1, (s.logRetentionDays ?? 30) / 30);
  }
  const retention = [
    ...new Set(
      usage.schedules.map((s) =>
        s.logRetentionDays === undefined ? "forever" : `${s.logRetentionDays} days`,
      ),
    ),
  ];
  return [
    {
      item: "CloudWatch Logs",
      usd: (metered / GB) * p.perGbIngestedUsd,
      usage: `${f(metered / 1024 ** 2, 1)} MB ingested in ${f(events)} events`,
    },
    {
      item: "CloudWatch Logs storage",
      usd: (stored / GB) * p.perGbMonthStoredUsd,
      usage: `${f(stored / 1024 ** 2, 1)} MB kept (retention ${retention.join(", ")})`,
    },
  ];
}

/** A stage's monthly bill with no job, by item, in USD. */
export function idleCostPerMonth(fixed: FixedResources, usage: IdleUsage): IdleBill {
  const lines = [...fixedLines(fixed, usage), ...scheduleLines(fixed, usage)];
  return { lines, totalUsd: lines.reduce((sum, line) => sum + line.usd, 0) };
}

/** Runs a month of a schedule that fires every `periodMs`. */
export function runsPerMonth(periodMs: number): number {
  return MONTH_MS / periodMs;
}

/** Two lines for the terminal: the total, and each item that costs anything. */
export function idleLines(bill: IdleBill, ticks: number): string[] {
  const items = bill.lines
    .filter((l) => l.usd > 0)
    .map((l) => `${l.item} $${l.usd.toFixed(3)}`)
    .join(", ");
  return [
    `AWS idle cost of a stage: $${bill.totalUsd.toFixed(2)} a month with no job (${PRICES.region}; ${ticks} idle runs of each schedule, scaled to a 30-day month; monthly charges as known ${PRICES.monthlyNotedOn}, the rest read ${PRICES.readOn})`,
    `  ${items}`,
  ];
}
