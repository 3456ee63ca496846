/**
 * The idle cost measured (idle.ts prices it): the rehearsal's stage brought up with no job, its
 * schedules ticked once to start their targets' instances (a target run every minute stays warm on
 * AWS), then `ticks` times more, each tick waited out; what the stage recorded over those is read
 * as record.ts reads a job's (each function's requests, billed GB-s and log lines, the DynamoDB
 * units and S3 requests of its role's calls) and divided by the ticks: one run of each schedule.
 * Also read: the custom metrics the runs' log lines publish (the embedded metric format), what the
 * table and the bucket hold, the targets' tracing and log retention from the template.
 */
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { Json } from "../template.ts";
import { type Stage, startStage } from "../stage.ts";
import { schedules } from "../wires/schedule.ts";
import {
  fixedResources,
  type FixedResources,
  type IdleBill,
  idleCostPerMonth,
  type IdleUsage,
  type RunUsage,
  runsPerMonth,
  type ScheduledRuns,
} from "./idle.ts";
import { callsByRole, type FunctionFigures, functionFigures, type Mark, markOf } from "./record.ts";

export interface IdleRehearsal {
  ticks: number;
  fixed: FixedResources;
  usage: IdleUsage;
  bill: IdleBill;
}

/** Runs of each schedule measured, after the one that starts their instances. */
const TICKS = 20;

/** Each schedule fired `n` times, the stage left idle after each. */
async function tick(stage: Stage, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    stage.scheduler.tick();
    await stage.idle();
  }
}

/**
 * The metrics embedded metric format lines publish: one per namespace, metric name and set of
 * dimension values (CloudWatch's unit of a custom metric).
 */
export function publishedMetrics(lines: readonly string[]): Set<string> {
  const metrics = new Set<string>();
  for (const line of lines) {
    const start = line.indexOf("{");
    if (start < 0 || !line.includes('"_aws"')) continue;
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(line.slice(start)) as Record<string, unknown>;
    } catch {
      continue;
    }
    const directives =
      ((doc._aws as { CloudWatchMetrics?: unknown } | undefined)?.CloudWatchMetrics as
        | { Namespace: string; Dimensions?: string[][]; Metrics?: { Name: string }[] }[]
        | undefined) ?? [];
    for (const d of directives)
      for (const set of d.Dimensions?.length ? d.Dimensions : [[]])
        for (const m of d.Metrics ?? []) {
          const values = set.map((name) => `${name}=${String(doc[name])}`).join(",");
          metrics.add(`${d.Namespace}/${m.Name}{${values}}`);
        }
  }
  return metrics;
}

/** The retention of a function's log group, as the template sets it; undefined: forever. */
function retentionOf(stage: Stage, logicalId: string): number | undefined {
  const rt = stage.template;
  const ref = JSON.stringify({ Ref: logicalId });
  for (const type of ["Custom::LogRetention", "AWS::Logs::LogGroup"])
    for (const id of rt.ofType(type)) {
      const p = rt.require(id).Properties ?? {};
      if (
        JSON.stringify(p.LogGroupName ?? null).includes(ref) &&
        typeof p.RetentionInDays === "number"
      )
        return p.RetentionInDays;
    }
  return undefined;
}

/** One run of a function, from its figures and its role's calls over `ticks` runs. */
async function perRun(
  stage: Stage,
  figures: FunctionFigures,
  calls: Awaited<ReturnType<typeof callsByRole>>,
  ticks: number,
): Promise<RunUsage> {
  const role = stage.functions.find((f) => f.spec.logicalId === figures.logicalId)?.role.name;
  const c = calls.get(role ?? "");
  const tracing = stage.template.require(figures.logicalId).Properties?.TracingConfig as
    | { Mode?: Json }
    | undefined;
  const each = (x: number) => x / ticks;
  return {
    requests: each(figures.invocations),
    armGbSeconds: each(figures.architecture === "arm64" ? figures.gbSeconds : 0),
    x86GbSeconds: each(figures.architecture === "x86_64" ? figures.gbSeconds : 0),
    dynamoReadUnits: each(c?.dynamoReadUnits ?? 0),
    dynamoWriteUnits: each(c?.dynamoWriteUnits ?? 0),
    s3Tier1Requests: each(c?.s3Tier1Requests ?? 0),
    s3Tier2Requests: each(c?.s3Tier2Requests ?? 0),
    logBytes: each(figures.logs.bytes),
    logEvents: each(figures.logs.events),
    // Active tracing records each invocation a schedule makes: X-Ray's default rule keeps the
    // first request of every second, and these come a minute apart.
    traces: tracing?.Mode === "Active" ? each(figures.invocations) : 0,
  };
}

/**
 * Each schedule's runs from what the stage recorded since the mark. A function that ran and is
 * no schedule's target (one a run woke) is counted at the most frequent schedule's rate.
 */
async function scheduledRuns(stage: Stage, since: Mark, ticks: number): Promise<ScheduledRuns[]> {
  const rules = schedules(stage.assembly.template);
  const calls = await callsByRole(stage, since);
  const fastest = Math.max(...rules.map((r) => runsPerMonth(r.periodMs)));
  const runs: ScheduledRuns[] = [];
  for (const figures of functionFigures(stage, since)) {
    const rule = rules.find((r) => r.target === figures.logicalId);
    if (rule === undefined && figures.invocations === 0) continue;
    const retention = retentionOf(stage, figures.logicalId);
    runs.push({
      rule: rule?.rule ?? "(woken by a run)",
      target: figures.name,
      runsPerMonth: rule === undefined ? fastest : runsPerMonth(rule.periodMs),
      perRun: await perRun(stage, figures, calls, ticks),
      ...(retention === undefined ? {} : { logRetentionDays: retention }),
    });
  }
  return runs;
}

/** The bytes the stage's table holds (each item's names and values, plus DynamoDB's 100 a item). */
async function tableBytes(stage: Stage): Promise<number> {
  let bytes = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await stage.standins.ddb.send(
      new ScanCommand({
        TableName: stage.tableName,
        ...(start === undefined ? {} : { ExclusiveStartKey: start }),
      }),
    );
    for (const item of page.Items ?? [])
      for (const [name, value] of Object.entries(item))
        bytes += Buffer.byteLength(name) + Buffer.byteLength(JSON.stringify(value));
    bytes += 100 * (page.Items?.length ?? 0);
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return bytes;
}

async function bucketBytes(stage: Stage): Promise<number> {
  let bytes = 0;
  let token: string | undefined;
  do {
    const page = await stage.standins.s3.send(
      new ListObjectsV2Command({ Bucket: stage.bucket, ContinuationToken: token }),
    );
    bytes += (page.Contents ?? []).reduce((sum, o) => sum + (o.Size ?? 0), 0);
    token = page.NextContinuationToken;
  } while (token !== undefined);
  return bytes;
}

function pitrOf(stage: Stage): boolean {
  const rt = stage.template;
  const id = rt.ofType("AWS::DynamoDB::Table").find((t) => rt.nameOf(t) === stage.tableName);
  const spec = rt.require(id ?? "").Properties?.PointInTimeRecoverySpecification as
    | { PointInTimeRecoveryEnabled?: Json }
    | undefined;
  return spec?.PointInTimeRecoveryEnabled === true;
}

/** The idle cost of the rehearsal's stage, measured on a fresh one with no job. */
export async function rehearseIdle(
  options: { ticks?: number; log?: (line: string) => void } = {},
): Promise<IdleRehearsal> {
  const ticks = options.ticks ?? TICKS;
  const logged: string[] = [];
  const stage = await startStage({ onLog: (_fn, line) => logged.push(line) });
  try {
    await tick(stage, 1);
    const mark = markOf(stage);
    const from = logged.length;
    await tick(stage, ticks);
    options.log?.(`idle stage: ${ticks} runs of each schedule measured`);
    const usage: IdleUsage = {
      schedules: await scheduledRuns(stage, mark, ticks),
      customMetrics: publishedMetrics(logged.slice(from)).size,
      table: { bytes: await tableBytes(stage), pitr: pitrOf(stage) },
      bucketBytes: await bucketBytes(stage),
    };
    const fixed = fixedResources(stage.assembly.template);
    return { ticks, fixed, usage, bill: idleCostPerMonth(fixed, usage) };
  } finally {
    await stage.close();
  }
}
