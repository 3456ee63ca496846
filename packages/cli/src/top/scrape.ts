/**
 * Prometheus text as `reelay top` reads it: the samples of the `reelay_` metrics, each a name,
 * its labels and a value. Histograms' `_bucket`/`_sum`/`_count` samples are kept as named.
 */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** Epoch ms the scrape was answered. */
  at: number;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string, at: number): Scrape {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = SAMPLE.exec(line.trim());
    if (match === null) continue;
    const [, name = "", labelText = "", raw = ""] = match;
    const value = Number(raw);
    if (!Number.isFinite(value) && !/^[+-]?Inf$/.test(raw)) continue;
    const labels: Record<string, string> = {};
    for (const [, key = "", quoted = ""] of labelText.matchAll(LABEL))
      labels[key] = quoted.replace(/\\(.)/g, (_, ch: string) => (ch === "n" ? "\n" : ch));
    samples.push({ name, labels, value });
  }
  return { at, samples };
}

/**
 * An upstream account's own series: the series without `account` already count every account,
 * so a sum over accounts takes only these and a total only the others.
 */
const ACCOUNT = "account";

function counts(sample: Sample, where: Record<string, string>): boolean {
  return (sample.labels[ACCOUNT] === undefined) === (where[ACCOUNT] === undefined);
}

/** The sum of a metric's samples whose labels include `where`. */
export function total(scrape: Scrape, name: string, where: Record<string, string> = {}): number {
  let sum = 0;
  for (const sample of scrape.samples)
    if (
      sample.name === name &&
      counts(sample, where) &&
      Object.entries(where).every(([key, value]) => sample.labels[key] === value)
    )
      sum += sample.value;
  return sum;
}

/** A metric's samples summed by one label's values. */
export function byLabel(scrape: Scrape, name: string, label: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const sample of scrape.samples) {
    const key = sample.labels[label];
    if (sample.name !== name || key === undefined) continue;
    if (label !== ACCOUNT && !counts(sample, {})) continue;
    sums.set(key, (sums.get(key) ?? 0) + sample.value);
  }
  return sums;
}
