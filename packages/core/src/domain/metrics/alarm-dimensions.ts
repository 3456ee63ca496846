/**
 * The dimension sets the CloudWatch alarms (stacks/alarms.ts) read. An alarm takes one metric with
 * exact dimensions and cannot sum a labelled metric over a label (that takes a SEARCH, which alarms
 * refuse), so on AWS the EMF emitter publishes each metric named here a second time with only
 * these dimensions, beside the catalog's labels: reelay_jobs_failed_total by `code` alone, and the
 * sweep's repairs with no dimension at all. An empty set is the metric over every label.
 *
 * The upstream counters are named for the dashboard's per-operation graphs: counted with an
 * `account` label (a pool's clients), they are published by `operation` alone too, so those
 * graphs keep summing every account without metric math.
 */
import type { MetricName } from "./names.ts";

export const ALARM_DIMENSIONS = {
  reelay_jobs_failed_total: ["code"],
  reelay_webhook_dead_letters_total: [],
  reelay_queue_oldest_age_seconds: [],
  reelay_sweep_repairs_total: [],
  reelay_upstream_requests_total: ["operation"],
  reelay_upstream_429_total: ["operation"],
  reelay_upstream_errors_total: ["operation"],
} as const satisfies Partial<Record<MetricName, readonly string[]>>;
