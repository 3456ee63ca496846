/**
 * The functions' metrics through Powertools Metrics: CloudWatch embedded metric format, recorded in
 * memory during an invocation and written as JSON lines to stdout once at its end (`withMetrics`),
 * where CloudWatch Logs extracts them into namespace "reelay".
 *
 * Powertools keeps one label set per flush, while reelay's metrics carry different labels (model,
 * code, operation) in one invocation: this adapter groups values by their labels and publishes one
 * line per group. Counters are summed before they are handed over, so a counter is one value.
 *
 * Each metric is declared with its labels as dimensions and with no dimensions (the total over all
 * models and codes) on the group's line, and with the set its alarm watches (ALARM_DIMENSIONS:
 * `code` alone for failed jobs) on a line of its own, so no alarm or dashboard needs metric math.
 * Powertools' default `service` dimension is cleared: the alarms name each metric's dimensions
 * exactly.
 */
import { Metrics as PowertoolsMetrics } from "@aws-lambda-powertools/metrics";
import { ALARM_DIMENSIONS, METRICS, METRICS_NAMESPACE, type MetricName } from "@reelay/core/domain";
import type { Metrics } from "@reelay/core/usecases";

/** EMF takes at most 100 values of one metric in one line (Powertools flushes at 100, losing the
 * group's labels for the rest); an invocation records one or two. */
const MAX_VALUES = 100;

interface Group {
  labels: Record<string, string>;
  values: Map<MetricName, number[]>;
}

export interface EmfMetrics extends Metrics {
  /** Writes what was recorded since the last flush, one line per label set, and forgets it. */
  flush(): void;
}

export function emfMetrics(
  emf: PowertoolsMetrics = new PowertoolsMetrics({ namespace: METRICS_NAMESPACE }),
  now: () => number = Date.now,
): EmfMetrics {
  emf.clearDefaultDimensions();
  let groups = new Map<string, Group>();
  const valuesOf = (name: MetricName, labels: object): number[] => {
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
    let group = groups.get(key);
    if (group === undefined) {
      group = { labels: { ...(labels as Record<string, string>) }, values: new Map() };
      groups.set(key, group);
    }
    let values = group.values.get(name);
    if (values === undefined) {
      values = [];
      group.values.set(name, values);
    }
    return values;
  };
  return {
    count(name, labels, n = 1) {
      const values = valuesOf(name, labels);
      values[0] = (values[0] ?? 0) + n;
    },
    observe(name, labels, value) {
      const values = valuesOf(name, labels);
      if (values.length < MAX_VALUES) values.push(value);
    },
    set(name, labels, value) {
      valuesOf(name, labels).splice(0, Number.POSITIVE_INFINITY, value);
    },
    flush() {
      const timestamp = now();
      for (const group of groups.values()) publish(emf, group, timestamp);
      groups = new Map();
    },
  };
}

/** The handler, with this process's metrics written once at the end of each invocation. */
export function withMetrics<A extends unknown[], R>(
  metrics: Pick<EmfMetrics, "flush">,
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await handler(...args);
    } finally {
      metrics.flush();
    }
  };
}

/** One EMF line: the dimension sets it declares and the metrics it carries. */
interface Line {
  sets: string[][];
  names: MetricName[];
}

/**
 * A group's lines: its labels and none for every metric, then each alarm's set that is a part of
 * the labels on a line of its own, for the metrics that alarm watches. A label in two sets of one
 * line is valid EMF, but Powertools warns of it as an overwrite on every flush.
 */
function linesOf(group: Group): Line[] {
  const names = [...group.values.keys()];
  const labels = Object.keys(group.labels);
  const byAlarm = new Map<string, Line>();
  for (const name of names) {
    const alarm: readonly string[] | undefined = (
      ALARM_DIMENSIONS as Partial<Record<MetricName, readonly string[]>>
    )[name];
    // A proper, non-empty part: the labels and none are on the group's line already.
    if (alarm === undefined || alarm.length === 0 || alarm.length >= labels.length) continue;
    if (!alarm.every((label) => labels.includes(label))) continue;
    const key = JSON.stringify(alarm);
    const line = byAlarm.get(key);
    if (line === undefined) byAlarm.set(key, { sets: [[...alarm]], names: [name] });
    else line.names.push(name);
  }
  return [{ sets: labels.length === 0 ? [[]] : [labels, []], names }, ...byAlarm.values()];
}

/** The group's lines, each with its sets added one by one (addDimensions) and its metrics' values. */
function publish(emf: PowertoolsMetrics, group: Group, timestamp: number): void {
  for (const { sets, names } of linesOf(group)) {
    for (const set of sets)
      emf.addDimensions(Object.fromEntries(set.map((label) => [label, group.labels[label] ?? ""])));
    for (const name of names)
      for (const value of group.values.get(name) ?? [])
        emf.addMetric(name, METRICS[name].unit, value);
    emf.setTimestamp(timestamp);
    emf.publishStoredMetrics();
  }
}
