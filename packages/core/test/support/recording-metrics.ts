/** A Metrics that keeps what it is given, for tests to read back by name and labels. */
import type { Metrics } from "../../src/usecases/ports.ts";

interface Recorded {
  kind: "count" | "observe" | "set";
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface RecordingMetrics extends Metrics {
  recorded: Recorded[];
  /** The sum of the counts (or the number of observations) of `name` whose labels include `labels`. */
  total(name: string, labels?: Record<string, string>): number;
}

export function recordingMetrics(): RecordingMetrics {
  const recorded: Recorded[] = [];
  const keep = (kind: Recorded["kind"]) => (name: string, labels: object, value: number) =>
    void recorded.push({ kind, name, labels: { ...(labels as Record<string, string>) }, value });
  return {
    recorded,
    count: (name, labels, n = 1) => keep("count")(name, labels, n),
    observe: (name, labels, value) => keep("observe")(name, labels, value),
    set: (name, labels, value) => keep("set")(name, labels, value),
    total: (name, labels = {}) =>
      recorded
        .filter(
          (r) => r.name === name && Object.entries(labels).every(([key, v]) => r.labels[key] === v),
        )
        .reduce((sum, r) => sum + (r.kind === "count" ? r.value : 1), 0),
  };
}
