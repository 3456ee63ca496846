/**
 * The local stack's metrics: one prom-client registry per stack (tests start several in one
 * process), with every metric of the catalog declared up front, so a scrape shows each counter from
 * the start and a rate is never computed against a series that appeared mid-way.
 */
import {
  METRICS,
  type MetricKind,
  type MetricName,
  type MetricNameOf,
  type MetricSpec,
} from "@reelay/core/domain";
import type { AdmissionGauges, AdmissionReading, Metrics } from "@reelay/core/usecases";
import { Counter, Gauge, Histogram, Registry } from "prom-client";

/** Seconds and bytes per second at the scale reelay's jobs take. */
const BUCKETS: Record<MetricNameOf<"histogram">, number[]> = {
  reelay_detection_delay_seconds: [0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300],
  reelay_job_duration_seconds: [5, 10, 20, 30, 60, 120, 300, 600, 1200, 3600, 14_400],
  reelay_copy_throughput_bytes_per_second: [1e5, 1e6, 5e6, 1e7, 5e7, 1e8, 5e8, 1e9],
};

export interface PrometheusMetrics extends Metrics {
  /** The registry's text, with the admission gauges read just before. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

type Labels = Record<string, string>;

/**
 * A counter counted with an optional label (`account`) is counted without it too, so the series
 * without `account` stays the whole deployment's, as it was before pools.
 */
export function prometheusMetrics(
  gauges?: () => Promise<AdmissionGauges | AdmissionReading>,
): PrometheusMetrics {
  const registry = new Registry();
  type Made = Counter | Histogram | Gauge;
  type Options = { name: MetricName; help: string; labelNames: string[]; registers: Registry[] };
  const kinds: Record<MetricKind, (options: Options) => Made> = {
    counter: (options) => new Counter(options),
    gauge: (options) => new Gauge(options),
    histogram: (options) =>
      new Histogram({ ...options, buckets: BUCKETS[options.name as MetricNameOf<"histogram">] }),
  };
  const made = new Map<MetricName, Made>();
  for (const [name, spec] of Object.entries(METRICS) as [string, MetricSpec][]) {
    const labelNames = [...spec.labels, ...(spec.optionalLabels ?? [])];
    const options = { help: spec.help, labelNames, registers: [registry] };
    made.set(name as MetricName, kinds[spec.kind]({ name: name as MetricName, ...options }));
  }
  const metric = <T>(name: MetricName) => made.get(name) as T;
  return {
    count: (name, labels, n = 1) => {
      const counter = metric<Counter>(name);
      counter.inc(labels as Labels, n);
      const optional: readonly string[] = (METRICS[name] as MetricSpec).optionalLabels ?? [];
      if (optional.some((label) => label in labels))
        counter.inc(
          Object.fromEntries(
            Object.entries(labels).filter(([label]) => !optional.includes(label)),
          ) as Labels,
          n,
        );
    },
    observe: (name, labels, value) => metric<Histogram>(name).observe(labels as Labels, value),
    set: (name, labels, value) => metric<Gauge>(name).set(labels as Labels, value),
    async scrape() {
      if (gauges !== undefined) {
        // A failed read (a stand-in restarting) leaves the gauges as last read; the counters still answer.
        const now = await gauges().catch(() => undefined);
        const { accounts = [], ...totals } = (now ?? {}) as Partial<AdmissionReading>;
        for (const [name, value] of Object.entries(totals))
          metric<Gauge>(name as MetricName).set(value);
        for (const { account, ...each } of accounts)
          for (const [name, value] of Object.entries(each))
            metric<Gauge>(name as MetricName).set({ account }, value);
      }
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
