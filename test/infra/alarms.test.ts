/**
 * The alarms, their SNS topic and the dashboard, as synthesized: in the real app (stage "test",
 * ALERT_EMAIL unset), and, for the email subscription, in a small stack holding only the alarms
 * over a one-state machine and an HTTP API, made with and without an address (no bundling, so
 * both are quick). cdk-nag's AwsSolutions pack runs over both.
 */
import { rmSync } from "node:fs";
import { App, Aspects, Stack } from "aws-cdk-lib";
import * as apigatewayv2 from "aws-cdk-lib/aws-apigatewayv2";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { AwsSolutionsChecks } from "cdk-nag";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_QUEUE_TIMEOUT_S, METRICS } from "@reelay/core/domain";
import { createAlarms } from "../../stacks/alarms.ts";
import { render, resourcesOf, shortId, synthReelay, SYNTH_TIMEOUT_MS } from "./synth.ts";

type Resources = ReturnType<typeof resourcesOf>;
let app: Resources;

beforeAll(async () => {
  app = resourcesOf((await synthReelay()).template);
}, SYNTH_TIMEOUT_MS);

function byShortId(resources: Resources, id: string): Record<string, any> {
  const found = Object.entries(resources).find(([logicalId]) => shortId(logicalId) === id);
  expect(found, id).toBeDefined();
  return found![1].Properties!;
}

const ofType = (resources: Resources, type: string) =>
  Object.entries(resources).filter(([, r]) => r.Type === type);

/** An alarm's single metric, its threshold and comparison, as one readable record. */
function alarmOf(resources: Resources, id: string) {
  const p = byShortId(resources, id);
  return {
    namespace: p.Namespace,
    metric: p.MetricName,
    dimensions: Object.fromEntries(
      (p.Dimensions ?? []).map((d: { Name: string; Value: unknown }) => [d.Name, render(d.Value)]),
    ),
    statistic: p.Statistic,
    period: p.Period,
    threshold: p.Threshold,
    comparison: p.ComparisonOperator,
    missing: p.TreatMissingData,
  };
}

const ALARM_IDS = [
  "FailedExecutionsAlarm",
  "TimedOutExecutionsAlarm",
  "InternalFailuresAlarm",
  "Api5xxAlarm",
  "WebhookDeadLettersAlarm",
  "QueueAgeAlarm",
  "SweepRepairsAlarm",
];

describe("the alarms in the app", () => {
  it("are exactly the seven, each sending its alarm and its all-clear to the one SNS topic, no data counting as fine", () => {
    const alarms = ofType(app, "AWS::CloudWatch::Alarm");
    expect(alarms.map(([id]) => shortId(id)).sort()).toEqual([...ALARM_IDS].sort());
    const topics = ofType(app, "AWS::SNS::Topic");
    expect(topics.map(([id]) => shortId(id))).toEqual(["AlarmTopic"]);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties!.AlarmActions.map(render), id).toEqual(["AlarmTopic"]);
      expect(alarm.Properties!.OKActions.map(render), id).toEqual(["AlarmTopic"]);
      expect(alarm.Properties!.TreatMissingData, id).toBe("notBreaching");
      expect(alarm.Properties!.EvaluationPeriods, id).toBe(1);
      expect(alarm.Properties!.AlarmDescription, id).toEqual(expect.any(String));
    }
  });

  it("failed executions: over 15 minutes, 50 % or more of the ended executions failed, once at least 5 failed", () => {
    const p = byShortId(app, "FailedExecutionsAlarm");
    expect(p.Threshold).toBe(50);
    expect(p.ComparisonOperator).toBe("GreaterThanOrEqualToThreshold");
    const metrics = p.Metrics as Record<string, any>[];
    expect(metrics.find((m) => m.ReturnData !== false)?.Expression).toBe(
      "IF(failed >= 5, 100 * failed / (failed + FILL(succeeded, 0)), 0)",
    );
    const stat = (id: string) => {
      const m = metrics.find((each) => each.Id === id)!.MetricStat;
      return [
        m.Metric.Namespace,
        m.Metric.MetricName,
        m.Metric.Dimensions.map(
          (d: { Name: string; Value: unknown }) => `${d.Name}=${render(d.Value)}`,
        ),
        m.Stat,
        m.Period,
      ];
    };
    expect(stat("failed")).toEqual([
      "AWS/States",
      "ExecutionsFailed",
      ["StateMachineArn=JobFlow"],
      "Sum",
      900,
    ]);
    expect(stat("succeeded")).toEqual([
      "AWS/States",
      "ExecutionsSucceeded",
      ["StateMachineArn=JobFlow"],
      "Sum",
      900,
    ]);
  });

  /** Each single-metric alarm: over 5 minutes, at or above the threshold. */
  const single: [what: string, id: string, expected: Partial<ReturnType<typeof alarmOf>>][] = [
    [
      "timed-out executions (the machine's own timeout, past RecordFailure): one",
      "TimedOutExecutionsAlarm",
      {
        namespace: "AWS/States",
        metric: "ExecutionsTimedOut",
        dimensions: { StateMachineArn: "JobFlow" },
        threshold: 1,
      },
    ],
    [
      "jobs ending internal: reelay_jobs_failed_total with code=internal alone (the alarm dimension set), one",
      "InternalFailuresAlarm",
      {
        namespace: "reelay",
        metric: "reelay_jobs_failed_total",
        dimensions: { code: "internal" },
        threshold: 1,
      },
    ],
    [
      "API 5xx: the HTTP API's 5xx metric (AWS/ApiGateway, ApiId), five",
      "Api5xxAlarm",
      { namespace: "AWS/ApiGateway", metric: "5xx", dimensions: { ApiId: "Api" }, threshold: 5 },
    ],
    [
      "webhook dead letters: reelay_webhook_dead_letters_total, no dimension, one",
      "WebhookDeadLettersAlarm",
      {
        namespace: "reelay",
        metric: "reelay_webhook_dead_letters_total",
        dimensions: {},
        threshold: 1,
      },
    ],
    [
      "queue older than its limit: the Maximum of reelay_queue_oldest_age_seconds at half of REELAY_QUEUE_TIMEOUT_S (43,200 s by default)",
      "QueueAgeAlarm",
      {
        namespace: "reelay",
        metric: "reelay_queue_oldest_age_seconds",
        dimensions: {},
        statistic: "Maximum",
        threshold: 43_200,
      },
    ],
    [
      "a sweep that finds stuck jobs: reelay_sweep_repairs_total over every action, one",
      "SweepRepairsAlarm",
      { namespace: "reelay", metric: "reelay_sweep_repairs_total", dimensions: {}, threshold: 1 },
    ],
  ];
  it.each(single)("%s, in 5 minutes", (_what, id, expected) => {
    expect(alarmOf(app, id)).toEqual({
      statistic: "Sum",
      period: 300,
      comparison: "GreaterThanOrEqualToThreshold",
      missing: "notBreaching",
      ...expected,
    });
  });

  it("the queue alarm's default threshold is half the default queue timeout; the API is an HTTP API (v2), not a REST API", () => {
    expect(alarmOf(app, "QueueAgeAlarm").threshold).toBe(DEFAULT_QUEUE_TIMEOUT_S / 2);
    expect(ofType(app, "AWS::ApiGatewayV2::Api")).toHaveLength(1);
    expect(ofType(app, "AWS::ApiGateway::RestApi")).toEqual([]);
  });
});

describe("the alarm topic in the app", () => {
  it("is encrypted with its own rotating KMS key, which CloudWatch may use, and refuses requests not over TLS", () => {
    const topic = byShortId(app, "AlarmTopic");
    expect(render(topic.KmsMasterKeyId)).toBe("AlarmTopicKey");
    const key = byShortId(app, "AlarmTopicKey");
    expect(key.EnableKeyRotation).toBe(true);
    expect(key.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Effect: "Allow",
        Principal: { Service: "cloudwatch.amazonaws.com" },
        Action: ["kms:Decrypt", "kms:GenerateDataKey"],
      }),
    );
    const policy = ofType(app, "AWS::SNS::TopicPolicy")[0]![1].Properties!;
    expect(policy.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Effect: "Deny",
        Condition: { Bool: { "aws:SecureTransport": "false" } },
      }),
    );
  });

  it("has no subscription when ALERT_EMAIL was not set at synth", () => {
    expect(ofType(app, "AWS::SNS::Subscription")).toEqual([]);
  });
});

describe("the dashboard in the app", () => {
  const text = () => render(byShortId(app, "Dashboard").DashboardBody);
  /** The body, parsed; CloudFormation's references in it read as the short ids they name. */
  const widgets = () =>
    (JSON.parse(text()) as { widgets: { properties: Record<string, any> }[] }).widgets.map(
      (w) => w.properties,
    );
  const graphed = () =>
    widgets().flatMap((w) => (w.metrics ?? []) as (string | Record<string, unknown>)[][]);

  it("is named for the stage, and graphs every metric of the catalog", () => {
    expect(byShortId(app, "Dashboard").DashboardName).toBe("reelay-test");
    const all = JSON.stringify(graphed());
    expect(Object.keys(METRICS).filter((name) => !all.includes(name))).toEqual([]);
  });

  it("reads labelled metrics by SEARCH over their catalog labels, with p50/p95/p99 of the histograms", () => {
    const expressions = graphed().flatMap((m) =>
      m.flatMap((part) =>
        typeof part === "object" && typeof part.expression === "string" ? [part.expression] : [],
      ),
    );
    expect(expressions).toContain(
      `SEARCH('{reelay,model,code} MetricName="reelay_jobs_failed_total"', 'Sum', 300)`,
    );
    expect(expressions).toContain(
      `SUM(SEARCH('{reelay,model} MetricName="reelay_jobs_succeeded_total"', 'Sum', 300))`,
    );
    for (const p of ["p50", "p95", "p99"])
      for (const name of ["reelay_detection_delay_seconds", "reelay_job_duration_seconds"])
        expect(expressions).toContain(`SEARCH('{reelay,model} MetricName="${name}"', '${p}', 300)`);
  });

  it("graphs the Step Functions and API Gateway built-ins and shows every alarm's state", () => {
    const builtIn = graphed()
      .filter((m) => m[0] === "AWS/States" || m[0] === "AWS/ApiGateway")
      .map((m) => `${m[0]} ${m[1]}`);
    expect(builtIn).toEqual(
      expect.arrayContaining([
        ...["Started", "Succeeded", "Failed", "TimedOut", "Aborted"].map(
          (s) => `AWS/States Executions${s}`,
        ),
        ...["Count", "4xx", "5xx", "Latency"].map((m) => `AWS/ApiGateway ${m}`),
      ]),
    );
    const alarmWidget = widgets().find((w) => w.title === "Alarms");
    expect(alarmWidget?.alarms.map((arn: string) => arn.split(":").at(-1)).sort()).toEqual(
      [...ALARM_IDS].sort(),
    );
  });
});

// ---- ALERT_EMAIL, in a stack of the alarms alone ----

function alarmsStack(alertEmail: string | undefined): { template: Template; nag: string[] } {
  const cdkApp = new App();
  try {
    const stack = new Stack(cdkApp, "Alarms", {
      env: { account: "123456789012", region: "us-east-1" },
    });
    Aspects.of(stack).add(new AwsSolutionsChecks());
    const machine = new sfn.StateMachine(stack, "JobFlow", {
      definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, "Done")),
    });
    const httpApi = new apigatewayv2.HttpApi(stack, "Api");
    createAlarms(stack, {
      machine,
      httpApi,
      queueTimeoutS: 3_600,
      alertEmail,
      dashboardName: "reelay-alarms-test",
    });
    cdkApp.synth();
    const nag = Annotations.fromStack(stack)
      .findError("*", Match.stringLikeRegexp("AwsSolutions-.*"))
      // The stand-in machine and API are not reelay's (no logs, no tracing); only the alarms' own parts count.
      .filter((m) => !/^\/Alarms\/(JobFlow|Api)\//.test(m.id))
      .map((m) => `${m.id}: ${String(m.entry.data)}`);
    return { template: Template.fromStack(stack), nag };
  } finally {
    // The App's output folder (cdk.outXXXX in the temp dir): the template is read by now.
    rmSync(cdkApp.outdir, { recursive: true, force: true });
  }
}

describe("ALERT_EMAIL", () => {
  it("set: one email subscription to the alarm topic, for that address", () => {
    const { template, nag } = alarmsStack("ops@example.com");
    const subscriptions = ofType(resourcesOf(template), "AWS::SNS::Subscription");
    expect(
      subscriptions.map(([, s]) => [
        s.Properties!.Protocol,
        s.Properties!.Endpoint,
        render(s.Properties!.TopicArn),
      ]),
    ).toEqual([["email", "ops@example.com", "AlarmTopic"]]);
    expect(nag).toEqual([]);
  });

  it("unset: no subscription, and the same seven alarms; the queue alarm follows the deployed REELAY_QUEUE_TIMEOUT_S", () => {
    const { template, nag } = alarmsStack(undefined);
    const resources = resourcesOf(template);
    expect(ofType(resources, "AWS::SNS::Subscription")).toEqual([]);
    expect(
      ofType(resources, "AWS::CloudWatch::Alarm")
        .map(([id]) => shortId(id))
        .sort(),
    ).toEqual([...ALARM_IDS].sort());
    expect(alarmOf(resources, "QueueAgeAlarm").threshold).toBe(1_800);
    expect(nag).toEqual([]);
  });
});
