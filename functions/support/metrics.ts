/**
 * The functions' metrics as CloudWatch embedded metric format: recorded in memory during an
 * invocation, written as JSON lines to stdout once at its end (`withMetrics`), where CloudWatch
 * Logs extracts them into namespace "reelay".
 *
 * Written here rather than with Powertools Metrics: Powertools Metrics measured 16.2 KB minified
 * alone, and the api bundle is already over its 1 MB target; it also keeps one dimension set per
 * flush, while reelay's metrics carry different labels (model, code, operation) in one invocation.
 * This writer groups values by their labels, one line per group, as the format allows.
 *
 * Each metric is declared with its labels as dimensions, with no dimensions (the total over all
 * models and codes), and with the sets the alarms watch (ALARM_DIMENSIONS: `code` alone for
 * failed jobs), so no alarm or dashboard needs metric math.
 */
import { ALARM_DIMENSIONS, METRICS, METRICS_NAMESPACE, type MetricName } from "@reelay/core/domain";
import type { Metrics } from "@reelay/core/usecases";

/** EMF takes at most 100 values of one metric in one line; an invocation records one or two. */
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
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  now: () => number = Date.now,
): EmfMetrics {
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
      for (const group of groups.values()) write(JSON.stringify(emfLine(group, timestamp)));
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

/** The group's labels, none, and each alarm's set its metrics have (a group's metrics share labels). */
function dimensionSets(names: MetricName[], labels: string[]): string[][] {
  const sets = [labels, []];
  for (const name of names) {
    const alarm: readonly string[] | undefined = (
      ALARM_DIMENSIONS as Partial<Record<MetricName, readonly string[]>>
    )[name];
    if (alarm?.every((label) => labels.includes(label))) sets.push([...alarm]);
  }
  return [...new Map(sets.map((set) => [JSON.stringify(set), set])).values()];
}

function emfLine(group: Group, timestamp: number): Record<string, unknown> {
  const names = [...group.values.keys()];
  const dimensions = Object.keys(group.labels);
  return {
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: dimensionSets(names, dimensions),
          Metrics: names.map((name) => ({ Name: name, Unit: METRICS[name].unit })),
        },
      ],
    },
    ...group.labels,
    ...Object.fromEntries(
      names.map((name) => {
        const values = group.values.get(name) ?? [];
        return [name, values.length === 1 ? values[0] : values];
      }),
    ),
  };
}
