/**
 * What tells an operator something is wrong: CloudWatch alarms, all to one SNS topic (emailed to
 * ALERT_EMAIL when the deployer set it at synth), and a dashboard of reelay's metrics beside the
 * Step Functions and API Gateway ones. reelay's own metrics are the catalog's
 * (core/domain/metrics/names.ts), published as EMF by the functions; an alarm reads the dimension set
 * ALARM_DIMENSIONS names for it. No data is never an alarm: a quiet deployment publishes nothing.
 */
import { Duration, type Stack } from "aws-cdk-lib";
import type { IHttpApi } from "aws-cdk-lib/aws-apigatewayv2";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as sns from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import {
  type ALARM_DIMENSIONS,
  METRICS,
  METRICS_NAMESPACE,
  type MetricName,
} from "@reelay/core/domain";

const PERIOD = Duration.minutes(5);
/** The failure rate is judged over a longer window, so a few jobs make a rate worth reading. */
const FAILURE_RATE_PERIOD = Duration.minutes(15);

/**
 * The thresholds, each a count in one period unless said otherwise. Every failed job fails its
 * execution (RecordFailure, then the Fail state), a content-policy refusal included, so failed
 * executions alarm as a rate; the other alarms name something that should not happen at all.
 */
const ALARM_THRESHOLDS = {
  /** Percent of the executions that ended in 15 minutes which failed, once at least 5 failed. */
  failedExecutionsPercent: 50,
  failedExecutionsAtLeast: 5,
  /** The machine's own timeout: a job RecordFailure never ended. */
  timedOutExecutions: 1,
  internalFailures: 1,
  /** The API function's own failures and timeouts; one 503 from a busy table is not a page. */
  api5xx: 5,
  webhookDeadLetters: 1,
  /** Of REELAY_QUEUE_TIMEOUT_S: half the limit leaves the other half to act before jobs fail queue_timeout. */
  queueAgeFraction: 0.5,
  sweepRepairs: 1,
} as const;

interface AlarmScope {
  machine: sfn.StateMachine;
  httpApi: IHttpApi;
  /** REELAY_QUEUE_TIMEOUT_S as deployed. */
  queueTimeoutS: number;
  alertEmail: string | undefined;
  dashboardName: string;
}

/** A catalog metric with the dimensions an alarm reads (ALARM_DIMENSIONS), each given its value. */
function alarmMetric<N extends keyof typeof ALARM_DIMENSIONS>(
  name: N,
  statistic: string,
  dimensions: Record<(typeof ALARM_DIMENSIONS)[N][number], string>,
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: dimensions,
    statistic,
    period: PERIOD,
  });
}

/** The topic every alarm goes to; encrypted with a key CloudWatch may use (the AWS-managed SNS key it may not). */
function alarmTopic(stack: Stack, alertEmail: string | undefined): sns.Topic {
  const key = new kms.Key(stack, "AlarmTopicKey", {
    description: "Encrypts reelay's alarm topic",
    enableKeyRotation: true,
  });
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal("cloudwatch.amazonaws.com")],
      actions: ["kms:Decrypt", "kms:GenerateDataKey"],
      resources: ["*"],
    }),
  );
  const topic = new sns.Topic(stack, "AlarmTopic", {
    displayName: "reelay alarms",
    masterKey: key,
    enforceSSL: true,
  });
  if (alertEmail !== undefined) topic.addSubscription(new EmailSubscription(alertEmail));
  return topic;
}

/** One alarm: its construct id, what it watches, the threshold it reaches, and what it means. */
type AlarmSpec = [id: string, metric: cloudwatch.IMetric, threshold: number, description: string];

/** The job flow's executions and the HTTP API, from the AWS services' own metrics. */
function serviceAlarms(scope: AlarmScope): AlarmSpec[] {
  const t = ALARM_THRESHOLDS;
  const failedRate = new cloudwatch.MathExpression({
    expression: `IF(failed >= ${t.failedExecutionsAtLeast}, 100 * failed / (failed + FILL(succeeded, 0)), 0)`,
    usingMetrics: {
      failed: scope.machine.metricFailed({ statistic: "Sum" }),
      succeeded: scope.machine.metricSucceeded({ statistic: "Sum" }),
    },
    period: FAILURE_RATE_PERIOD,
    label: "failed executions (%)",
  });
  return [
    [
      "FailedExecutionsAlarm",
      failedRate,
      t.failedExecutionsPercent,
      `${t.failedExecutionsPercent} % or more of the job flow's executions that ended in 15 minutes failed (${t.failedExecutionsAtLeast} or more): the upstream, its key or reelay itself is failing jobs. Read the jobs' error.code on the dashboard.`,
    ],
    [
      "TimedOutExecutionsAlarm",
      scope.machine.metricTimedOut({ statistic: "Sum", period: PERIOD }),
      t.timedOutExecutions,
      "A job flow execution hit the state machine's own timeout: its job was not ended by RecordFailure and may be stuck in running.",
    ],
    [
      "Api5xxAlarm",
      scope.httpApi.metricServerError({ period: PERIOD }),
      t.api5xx,
      `The HTTP API answered 5xx ${t.api5xx} or more times in 5 minutes: the API function is failing or timing out.`,
    ],
  ];
}

/** reelay's own metrics (EMF), at the dimension sets of ALARM_DIMENSIONS. */
function reelayAlarms(scope: AlarmScope): AlarmSpec[] {
  const t = ALARM_THRESHOLDS;
  return [
    [
      "InternalFailuresAlarm",
      alarmMetric("reelay_jobs_failed_total", "Sum", { code: "internal" }),
      t.internalFailures,
      "A job ended failed with error.code internal: a bug in reelay, not the upstream's doing. The function logs carry the job id.",
    ],
    [
      "WebhookDeadLettersAlarm",
      alarmMetric("reelay_webhook_dead_letters_total", "Sum", {}),
      t.webhookDeadLetters,
      "A webhook delivery ran out of attempts: a subscriber missed an event. GET /v1/webhooks/deliveries lists it; retry it once the subscriber is back.",
    ],
    [
      "QueueAgeAlarm",
      alarmMetric("reelay_queue_oldest_age_seconds", "Maximum", {}),
      scope.queueTimeoutS * t.queueAgeFraction,
      `A job has waited in the admission queue half of REELAY_QUEUE_TIMEOUT_S (${scope.queueTimeoutS} s); at the limit it fails queue_timeout. The upstream's slots or rate are too few for the load.`,
    ],
    [
      "SweepRepairsAlarm",
      alarmMetric("reelay_sweep_repairs_total", "Sum", {}),
      t.sweepRepairs,
      "The admission sweep found stuck jobs or slots and repaired them: something (a lost wake, a crashed step) left them behind.",
    ],
  ];
}

function alarms(stack: Stack, scope: AlarmScope): cloudwatch.Alarm[] {
  return [...serviceAlarms(scope), ...reelayAlarms(scope)].map(
    ([id, metric, threshold, description]) =>
      new cloudwatch.Alarm(stack, id, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      }),
  );
}

// ---- the dashboard ----

/**
 * Every series of a catalog metric over its labels (a dashboard may SEARCH; an alarm may not),
 * each named by its dimensions and the statistic; or, given `total`, their sum as one line.
 */
function search(name: MetricName, statistic: string, total?: string): cloudwatch.MathExpression {
  const schema = [METRICS_NAMESPACE, ...METRICS[name].labels].join(",");
  const expression = `SEARCH('{${schema}} MetricName="${name}"', '${statistic}', ${PERIOD.toSeconds()})`;
  const dimensions = METRICS[name].labels.map((label) => `\${PROP('Dim.${label}')}`).join(" ");
  return new cloudwatch.MathExpression({
    expression: total === undefined ? expression : `SUM(${expression})`,
    usingMetrics: {},
    period: PERIOD,
    label: total ?? `${dimensions} ${statistic}`,
  });
}

/** A catalog metric without labels. */
function plain(name: MetricName, statistic: string, label: string = name): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    statistic,
    period: PERIOD,
    label,
  });
}

const PERCENTILES = ["p50", "p95", "p99"];

function graph(
  title: string,
  left: cloudwatch.IMetric[],
  right: cloudwatch.IMetric[] = [],
): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({ title, left, right, width: 8, height: 6 });
}

/** Jobs: how they end, how fast, and what they cost upstream. */
function jobRows(): cloudwatch.IWidget[][] {
  const percentiles = (name: MetricName) => PERCENTILES.map((p) => search(name, p));
  return [
    [
      graph("Jobs by outcome", [
        search("reelay_jobs_created_total", "Sum", "created"),
        search("reelay_jobs_succeeded_total", "Sum", "succeeded"),
        search("reelay_jobs_failed_total", "Sum", "failed"),
        search("reelay_jobs_cancelled_total", "Sum", "cancelled"),
        search("reelay_jobs_on_deprecated_models_total", "Sum", "on deprecated models"),
      ]),
      graph("Failures by error.code, by model", [search("reelay_jobs_failed_total", "Sum")]),
      graph("Budget refusals", [search("reelay_budget_refusals_total", "Sum")]),
    ],
    [
      graph(
        "Detection delay (s), p50 / p95 / p99 by model",
        percentiles("reelay_detection_delay_seconds"),
      ),
      graph("End to end (s), p50 / p95 / p99 by model", percentiles("reelay_job_duration_seconds")),
      graph("Upstream requests, 429s and errors, by operation", [
        search("reelay_upstream_requests_total", "Sum"),
        search("reelay_upstream_429_total", "Sum"),
        search("reelay_upstream_errors_total", "Sum"),
      ]),
    ],
  ];
}

/** What jobs wait for and what they leave: the queue, the copies, the deliveries. */
function flowRow(): cloudwatch.IWidget[] {
  return [
    graph(
      "Admission queue and slots",
      [
        plain("reelay_queue_depth", "Maximum", "queue depth"),
        plain("reelay_slots_in_use", "Maximum", "slots in use"),
        plain("reelay_slots_limit", "Minimum", "slots limit"),
      ],
      [plain("reelay_queue_oldest_age_seconds", "Maximum", "oldest queued (s)")],
    ),
    graph("Upstream accounts' circuits (1 = open)", [search("reelay_circuit_open", "Maximum")]),
    graph(
      "Output copies",
      [plain("reelay_copied_bytes_total", "Sum", "bytes copied")],
      PERCENTILES.map((p) =>
        plain("reelay_copy_throughput_bytes_per_second", p, `throughput ${p} (B/s)`),
      ),
    ),
    graph("Outputs failing verification (output_invalid, output_mismatch), by model", [
      search("reelay_output_verification_failures_total", "Sum"),
    ]),
    graph("Webhooks", [
      search("reelay_webhook_deliveries_total", "Sum"),
      plain("reelay_webhook_retries_total", "Sum", "retries"),
      plain("reelay_webhook_dead_letters_total", "Sum", "dead letters"),
    ]),
  ];
}

/** The AWS services' own metrics (Step Functions executions, API Gateway requests), and the sweep's repairs. */
function serviceRow({ machine, httpApi }: AlarmScope): cloudwatch.IWidget[] {
  return [
    graph("Job flow executions (Step Functions)", [
      machine.metricStarted({ statistic: "Sum", label: "started" }),
      machine.metricSucceeded({ statistic: "Sum", label: "succeeded" }),
      machine.metricFailed({ statistic: "Sum", label: "failed" }),
      machine.metricTimedOut({ statistic: "Sum", label: "timed out" }),
      machine.metricAborted({ statistic: "Sum", label: "aborted (cancelled jobs)" }),
    ]),
    graph(
      "HTTP API (API Gateway)",
      [
        httpApi.metricCount({ label: "requests" }),
        httpApi.metricClientError({ label: "4xx" }),
        httpApi.metricServerError({ label: "5xx" }),
      ],
      [httpApi.metricLatency({ statistic: "p95", label: "latency p95 (ms)" })],
    ),
    graph("Stuck jobs repaired by the sweep, by action", [
      search("reelay_sweep_repairs_total", "Sum"),
    ]),
  ];
}

export function createAlarms(
  stack: Stack,
  scope: AlarmScope,
): { topic: sns.Topic; alarms: cloudwatch.Alarm[]; dashboard: cloudwatch.Dashboard } {
  const topic = alarmTopic(stack, scope.alertEmail);
  const all = alarms(stack, scope);
  const action = new SnsAction(topic);
  for (const each of all) {
    each.addAlarmAction(action);
    // The all-clear goes to the same people.
    each.addOkAction(action);
  }
  const dashboard = new cloudwatch.Dashboard(stack, "Dashboard", {
    dashboardName: scope.dashboardName,
    widgets: [
      [new cloudwatch.AlarmStatusWidget({ title: "Alarms", alarms: all, width: 24, height: 3 })],
      ...jobRows(),
      flowRow(),
      serviceRow(scope),
    ],
  });
  return { topic, alarms: all, dashboard };
}
