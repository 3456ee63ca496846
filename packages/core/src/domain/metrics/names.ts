/**
 * The metrics reelay keeps, one catalog for both platforms: Prometheus text at the local stack's
 * `GET /metrics`, CloudWatch embedded metric format (namespace METRICS_NAMESPACE) on AWS. The
 * names are fixed (design: prefixed `reelay_`); the alarms and the dashboard in `stacks/` read them
 * from here, so a rename breaks the build rather than an alarm.
 */

export const METRICS_NAMESPACE = "reelay";

export type MetricKind = "counter" | "histogram" | "gauge";

export interface MetricSpec {
  kind: MetricKind;
  help: string;
  /** Label names (Prometheus labels, EMF dimensions). */
  labels: readonly string[];
  /**
   * Labels a value may carry besides: `account` in a pool. A series without them is the whole
   * deployment's (Prometheus counts a counter there too; see the local stack's metrics).
   */
  optionalLabels?: readonly string[];
  /** CloudWatch unit for EMF. */
  unit: "Count" | "Seconds" | "Bytes" | "Bytes/Second";
}

export const METRICS = {
  reelay_jobs_created_total: {
    kind: "counter",
    help: "Jobs recorded, by model.",
    labels: ["model"],
    unit: "Count",
  },
  reelay_jobs_succeeded_total: {
    kind: "counter",
    help: "Jobs that ended succeeded, by model.",
    labels: ["model"],
    unit: "Count",
  },
  reelay_jobs_failed_total: {
    kind: "counter",
    help: "Jobs that ended failed, by model and error.code.",
    labels: ["model", "code"],
    unit: "Count",
  },
  reelay_jobs_cancelled_total: {
    kind: "counter",
    help: "Jobs that ended cancelled, by model.",
    labels: ["model"],
    unit: "Count",
  },
  reelay_jobs_on_deprecated_models_total: {
    kind: "counter",
    help: "Jobs recorded that asked for a deprecated or sunset model (REELAY_MODEL_LIFECYCLE), by the model asked for.",
    labels: ["model"],
    unit: "Count",
  },
  reelay_detection_delay_seconds: {
    kind: "histogram",
    help: "From the upstream task's end (bounded by the last look that saw it running) to reelay noticing it.",
    labels: ["model"],
    unit: "Seconds",
  },
  reelay_job_duration_seconds: {
    kind: "histogram",
    help: "End to end, from the job's creation to its terminal status.",
    labels: ["model"],
    unit: "Seconds",
  },
  reelay_upstream_requests_total: {
    kind: "counter",
    help: "Requests to the upstream service, by operation (create, get, download, models) and upstream account; without account, all accounts.",
    labels: ["operation"],
    optionalLabels: ["account"],
    unit: "Count",
  },
  reelay_upstream_429_total: {
    kind: "counter",
    help: "Upstream answers 429, by operation and upstream account; without account, all accounts.",
    labels: ["operation"],
    optionalLabels: ["account"],
    unit: "Count",
  },
  reelay_upstream_errors_total: {
    kind: "counter",
    help: "Upstream requests that failed on the wire (refused, reset, timed out) or were answered 5xx, 401 or 403, by operation and upstream account; without account, all accounts.",
    labels: ["operation"],
    optionalLabels: ["account"],
    unit: "Count",
  },
  reelay_queue_depth: {
    kind: "gauge",
    help: "Jobs waiting in the admission queue.",
    labels: [],
    unit: "Count",
  },
  reelay_queue_oldest_age_seconds: {
    kind: "gauge",
    help: "Age of the oldest job waiting in the admission queue.",
    labels: [],
    unit: "Seconds",
  },
  reelay_slots_in_use: {
    kind: "gauge",
    help: "Upstream tasks in flight (admission slots held), by upstream account; without account, all accounts.",
    labels: [],
    optionalLabels: ["account"],
    unit: "Count",
  },
  reelay_slots_limit: {
    kind: "gauge",
    help: "The admission limit in force (set or learned), by upstream account; without account, all accounts.",
    labels: [],
    optionalLabels: ["account"],
    unit: "Count",
  },
  reelay_circuit_open: {
    kind: "gauge",
    help: "1 while the upstream account's circuit is open or half-open (no new creates but a probe), else 0.",
    labels: ["account"],
    unit: "Count",
  },
  reelay_copied_bytes_total: {
    kind: "counter",
    help: "Output bytes copied into the bucket.",
    labels: [],
    unit: "Bytes",
  },
  reelay_copy_throughput_bytes_per_second: {
    kind: "histogram",
    help: "Each output copy's bytes over its duration.",
    labels: [],
    unit: "Bytes/Second",
  },
  reelay_output_verification_failures_total: {
    kind: "counter",
    help: "Outputs that did not parse as their type (output_invalid) or differ from the request (output_mismatch, a warning or under REELAY_VERIFY=strict a failure), by model and code.",
    labels: ["model", "code"],
    unit: "Count",
  },
  reelay_webhook_deliveries_total: {
    kind: "counter",
    help: "Webhook delivery attempts, by outcome (delivered, failed).",
    labels: ["outcome"],
    unit: "Count",
  },
  reelay_webhook_retries_total: {
    kind: "counter",
    help: "Webhook delivery attempts after the first.",
    labels: [],
    unit: "Count",
  },
  reelay_webhook_dead_letters_total: {
    kind: "counter",
    help: "Webhook deliveries that ran out of attempts.",
    labels: [],
    unit: "Count",
  },
  reelay_budget_refusals_total: {
    kind: "counter",
    help: "Jobs refused by a budget, by which (key, deployment).",
    labels: ["budget"],
    unit: "Count",
  },
  reelay_sweep_repairs_total: {
    kind: "counter",
    help: "Stuck jobs the admission sweep found and repaired, by action (released, restarted, expired).",
    labels: ["action"],
    unit: "Count",
  },
} as const satisfies Record<string, MetricSpec>;

export type MetricName = keyof typeof METRICS;

/** The catalog's names of one kind: counters are counted, histograms observed, gauges set. */
export type MetricNameOf<K extends MetricKind> = {
  [N in MetricName]: (typeof METRICS)[N]["kind"] extends K ? N : never;
}[MetricName];

type OptionalLabelsOf<N extends MetricName> = (typeof METRICS)[N] extends {
  optionalLabels: readonly (infer L extends string)[];
}
  ? L
  : never;

/** A metric's labels, every one of them, each a string, and any of its optional ones. */
export type MetricLabels<N extends MetricName> = {
  readonly [L in (typeof METRICS)[N]["labels"][number]]: string;
} & { readonly [L in OptionalLabelsOf<N>]?: string };
