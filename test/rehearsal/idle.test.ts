/**
 * The idle cost of a stage (rehearsal/bill/idle.ts): the monthly resources counted from a
 * template, known usage in and known dollars out per item at the prices of the one module that
 * holds them, and the custom metrics read from embedded metric format lines.
 */
import { describe, expect, it } from "vitest";
import { publishedMetrics } from "../../rehearsal/bill/idle-run.ts";
import {
  fixedResources,
  type IdleUsage,
  idleCostPerMonth,
  idleLines,
  runsPerMonth,
} from "../../rehearsal/bill/idle.ts";
import { PRICES } from "../../rehearsal/bill/prices.ts";
import type { Resource, TemplateJson } from "../../rehearsal/template.ts";

const ALARM: Resource = {
  Type: "AWS::CloudWatch::Alarm",
  Properties: { MetricName: "5xx", Namespace: "AWS/ApiGateway", Period: 300 },
};

/** An alarm on a metric math expression of two metrics: two alarm metrics, the expression none. */
const MATH_ALARM: Resource = {
  Type: "AWS::CloudWatch::Alarm",
  Properties: {
    Metrics: [
      { Id: "expr_1", Expression: "100 * failed / (failed + succeeded)", ReturnData: true },
      { Id: "failed", MetricStat: { Metric: { MetricName: "ExecutionsFailed" }, Period: 300 } },
      {
        Id: "succeeded",
        MetricStat: { Metric: { MetricName: "ExecutionsSucceeded" }, Period: 300 },
      },
    ],
  },
};

function template(extra: Record<string, Resource> = {}): TemplateJson {
  return {
    Resources: {
      Alarm5xx: ALARM,
      FailedAlarm: MATH_ALARM,
      FastAlarm: { Type: "AWS::CloudWatch::Alarm", Properties: { MetricName: "x", Period: 10 } },
      Dashboard: { Type: "AWS::CloudWatch::Dashboard", Properties: {} },
      Key: { Type: "AWS::KMS::Key", Properties: { EnableKeyRotation: true } },
      Name: { Type: "AWS::SSM::Parameter", Properties: { Type: "String", Value: "a" } },
      Big: { Type: "AWS::SSM::Parameter", Properties: { Type: "String", Tier: "Advanced" } },
      Every: { Type: "AWS::Events::Rule", Properties: { ScheduleExpression: "rate(1 minute)" } },
      Off: {
        Type: "AWS::Events::Rule",
        Properties: { ScheduleExpression: "rate(1 hour)", State: "DISABLED" },
      },
      OnEvent: { Type: "AWS::Events::Rule", Properties: { EventPattern: { source: ["x"] } } },
      Fn: { Type: "AWS::Lambda::Function", Properties: {} },
      ...extra,
    },
  };
}

const usage: IdleUsage = {
  schedules: [
    {
      rule: "DispatchSchedule",
      target: "dispatch",
      runsPerMonth: 43_200,
      perRun: {
        requests: 1,
        armGbSeconds: 0.1,
        x86GbSeconds: 0,
        dynamoReadUnits: 10,
        dynamoWriteUnits: 1,
        s3Tier1Requests: 0,
        s3Tier2Requests: 2,
        logBytes: 1000,
        logEvents: 10,
        traces: 1,
      },
      logRetentionDays: 15,
    },
  ],
  customMetrics: 5,
  table: { bytes: 1024 ** 3, pitr: true },
  bucketBytes: 2 * 1024 ** 3,
};

function byItem(bill: ReturnType<typeof idleCostPerMonth>): Record<string, number> {
  return Object.fromEntries(bill.lines.map((l) => [l.item, l.usd]));
}

describe("the idle cost of a stage", () => {
  it("counts the template's resources that cost by the month", () => {
    expect(fixedResources(template())).toEqual({
      alarms: 3,
      standardAlarmMetrics: 3,
      highResolutionAlarmMetrics: 1,
      dashboards: 1,
      kmsKeys: 1,
      standardParameters: 1,
      advancedParameters: 1,
      scheduledRules: 1,
    });
  });

  it("prices each item a month from the resources and the measured runs", () => {
    const bill = idleCostPerMonth(fixedResources(template()), usage);
    const usd = byItem(bill);
    // 3 standard alarm metrics at $0.10, 1 high-resolution at $0.30.
    expect(usd["CloudWatch alarms"]).toBeCloseTo(0.6, 10);
    expect(usd["CloudWatch dashboards"]).toBeCloseTo(3, 10);
    expect(usd["KMS keys"]).toBeCloseTo(1, 10);
    expect(usd["SSM parameters"]).toBeCloseTo(0.05, 10);
    // 1 GB stored ($0.25) and backed up continuously ($0.20); 2 GB in S3 at $0.023.
    expect(usd["DynamoDB storage"]).toBeCloseTo(0.45, 10);
    expect(usd["S3 storage"]).toBeCloseTo(0.046, 10);
    expect(usd["EventBridge schedules"]).toBe(0);
    // 43,200 requests at $0.20 per million, 4,320 GB-s arm64 at $0.0000133334.
    expect(usd.Lambda).toBeCloseTo(0.00864 + 4320 * 0.0000133334, 10);
    // 432,000 read units at $0.125 per million, 43,200 write units at $0.625.
    expect(usd["DynamoDB requests"]).toBeCloseTo(0.054 + 0.027, 10);
    expect(usd["S3 requests"]).toBeCloseTo(86_400 * 0.0000004, 10);
    // 43,200 runs of 1,000 bytes in 10 events (+26 B each): 55,296,000 bytes ingested at $0.50 a
    // GB, half a month's of it kept (15 days) at $0.03.
    const metered = 43_200 * (1000 + 10 * 26);
    expect(usd["CloudWatch Logs"]).toBeCloseTo((metered / 1024 ** 3) * 0.5, 10);
    expect(usd["CloudWatch Logs storage"]).toBeCloseTo((metered / 2 / 1024 ** 3) * 0.03, 10);
    expect(usd["CloudWatch custom metrics"]).toBeCloseTo(1.5, 10);
    expect(usd["X-Ray"]).toBeCloseTo(43_200 * 0.000005, 10);
    const sum = Object.values(usd).reduce((a, b) => a + b, 0);
    expect(bill.totalUsd).toBeCloseTo(sum, 12);
  });

  it("costs one alarm more for a template with one more alarm, and one key more for a key", () => {
    const base = idleCostPerMonth(fixedResources(template()), usage);
    const oneMore = idleCostPerMonth(fixedResources(template({ Another: ALARM })), usage);
    expect(byItem(oneMore)["CloudWatch alarms"]! - byItem(base)["CloudWatch alarms"]!).toBeCloseTo(
      PRICES.cloudWatch.perStandardAlarmMetricMonthUsd,
      12,
    );
    expect(oneMore.totalUsd - base.totalUsd).toBeCloseTo(0.1, 12);
    const mathMore = idleCostPerMonth(fixedResources(template({ Another: MATH_ALARM })), usage);
    expect(mathMore.totalUsd - base.totalUsd).toBeCloseTo(0.2, 12);
    const keyMore = idleCostPerMonth(
      fixedResources(template({ Another: { Type: "AWS::KMS::Key", Properties: {} } })),
      usage,
    );
    expect(keyMore.totalUsd - base.totalUsd).toBeCloseTo(PRICES.kms.perKeyMonthUsd, 12);
  });

  it("keeps a month of logs for a log group that never expires them, and scales runs by rate", () => {
    const forever = { ...usage.schedules[0]!, logRetentionDays: undefined };
    const { logRetentionDays: _kept, ...noRetention } = forever;
    const bill = idleCostPerMonth(fixedResources(template()), {
      ...usage,
      schedules: [noRetention],
    });
    const metered = 43_200 * (1000 + 10 * 26);
    expect(byItem(bill)["CloudWatch Logs storage"]).toBeCloseTo((metered / 1024 ** 3) * 0.03, 10);
    expect(runsPerMonth(60_000)).toBe(43_200);
    expect(runsPerMonth(3_600_000)).toBe(720);
  });

  it("prints the total and each item that costs anything", () => {
    const [total, items] = idleLines(idleCostPerMonth(fixedResources(template()), usage), 20);
    expect(total).toMatch(/^AWS idle cost of a stage: \$\d+\.\d\d a month with no job/);
    expect(total).toContain("20 idle runs of each schedule");
    expect(items).toContain("KMS keys $1.000");
    expect(items).not.toContain("EventBridge schedules");
  });
});

describe("the custom metrics an idle run publishes", () => {
  it("counts one per namespace, name and dimension values, in every dimension set", () => {
    const totals = JSON.stringify({
      _aws: {
        Timestamp: 1,
        CloudWatchMetrics: [
          {
            Namespace: "reelay",
            Dimensions: [[]],
            Metrics: [{ Name: "reelay_queue_depth" }, { Name: "reelay_slots_limit" }],
          },
        ],
      },
      reelay_queue_depth: 0,
      reelay_slots_limit: 16,
    });
    const account = (name: string) =>
      JSON.stringify({
        _aws: {
          Timestamp: 1,
          CloudWatchMetrics: [
            {
              Namespace: "reelay",
              Dimensions: [["account"], []],
              Metrics: [{ Name: "reelay_slots_limit" }, { Name: "reelay_circuit_open" }],
            },
          ],
        },
        account: name,
        reelay_slots_limit: 4,
        reelay_circuit_open: 0,
      });
    const metrics = publishedMetrics([
      totals,
      account("alpha"),
      account("beta"),
      // The same again in a later run, a plain log line, and a line that is not JSON.
      account("alpha"),
      '{"level":"INFO","message":"dispatch"}',
      "REPORT RequestId: 1\tDuration: 2 ms",
      '{"_aws": not json',
    ]);
    expect([...metrics].sort()).toEqual(
      [
        "reelay/reelay_circuit_open{}",
        "reelay/reelay_circuit_open{account=alpha}",
        "reelay/reelay_circuit_open{account=beta}",
        "reelay/reelay_queue_depth{}",
        "reelay/reelay_slots_limit{}",
        "reelay/reelay_slots_limit{account=alpha}",
        "reelay/reelay_slots_limit{account=beta}",
      ].sort(),
    );
  });
});
