/**
 * One benchmark figure: reelay's number, the baseline measured in the same run, their ratio and the
 * target it is held to. Every module in bench/figures/ exports `figures(ctx)` returning these.
 */
export interface Figure {
  /** What is measured, e.g. "orchestration cost per 1,000 jobs". */
  name: string;
  value: number;
  unit: string;
  /** The baseline, measured in this run, e.g. "job-poller (5 s Wait -> status Lambda -> Choice)". */
  baselineName: string;
  baseline: number;
  /**
   * The ratio judged, when it is not value/baseline: the median of paired runs' own ratios (each
   * subject run over the baseline run beside it), which a burst of load moves less than the ratio
   * of the two medians.
   */
  ratio?: number;
  /** The target, on the ratio (value/baseline unless `ratio` is given) or on the value itself. */
  target?: { on: "ratio" | "value"; atMost?: number; atLeast?: number };
  /** Anything a reader needs to judge the figure (sample size, machine noise, ...). */
  note?: string;
}

export interface BenchContext {
  /** Scratch directory for this run; removed afterwards. */
  tmpDir: string;
  log: (line: string) => void;
}

export type FigureModule = { figures: (ctx: BenchContext) => Promise<Figure[]> };

function ratioOf(figure: Figure): number {
  if (figure.ratio !== undefined) return figure.ratio;
  return figure.baseline === 0 ? Number.POSITIVE_INFINITY : figure.value / figure.baseline;
}

/** Whether the figure meets its target (true when it has none). */
export function meetsTarget(figure: Figure): boolean {
  const t = figure.target;
  if (t === undefined) return true;
  const x = t.on === "ratio" ? ratioOf(figure) : figure.value;
  return (t.atMost === undefined || x <= t.atMost) && (t.atLeast === undefined || x >= t.atLeast);
}

function num(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  return abs >= 100 ? x.toFixed(0) : abs >= 1 ? x.toFixed(2) : x.toPrecision(3);
}

function targetText(figure: Figure): string {
  const t = figure.target;
  if (t === undefined) return "";
  const parts = [
    t.atLeast === undefined ? "" : `>= ${num(t.atLeast)}`,
    t.atMost === undefined ? "" : `<= ${num(t.atMost)}`,
  ].filter(Boolean);
  return ` | target ${t.on} ${parts.join(" and ")} ${meetsTarget(figure) ? "ok" : "MISSED"}`;
}

/** `name: value unit | baseline NAME value unit | ratio r | target ... ok` */
export function formatFigure(figure: Figure): string {
  const note = figure.note === undefined ? "" : ` (${figure.note})`;
  return `${figure.name}: ${num(figure.value)} ${figure.unit} | baseline ${figure.baselineName}: ${num(figure.baseline)} ${figure.unit} | ratio ${num(ratioOf(figure))}${targetText(figure)}${note}`;
}
