/**
 * fit "nearest": a request whose duration, resolution or aspect ratio (an image's size or ratio)
 * the model refuses is moved to the nearest value its hard rules allow. Soft rules only warn, so a
 * value that breaks one is left as asked. Nearest is:
 *
 * - a duration: the whole number of seconds closest to the one asked; a tie goes to the longer
 *   video (as the default duration's choice does). 0 ("follow the source length") is not a length
 *   and is never moved.
 * - a resolution (or an image size): the one closest in lines on a log scale (480p, 540p, 720p,
 *   1080p, 2K = 1440, 4K = 2160, 8K = 4320); a tie goes to the higher one. A value not on that
 *   scale is not moved.
 * - an aspect ratio: the one closest as a ratio on a log scale (|ln(w1/h1) - ln(w2/h2)|); a tie
 *   goes to the one the model lists first. Named ratios (adaptive, auto) are neither moved nor
 *   chosen.
 *
 * The resolution is fitted first and the duration and ratio then under the rules of the fitted
 * resolution, in the order validation reads them, so a joint rule (a duration allowed only at some
 * resolutions) holds for the fitted request as a whole. The material and the mode it selects are
 * never changed: a model that cannot take the material refuses it, fitted or not.
 */
import type { ImageModelSpec, ModelSpec, SetRule, VideoModelSpec } from "../catalog/types.ts";
import { isPlainObject } from "./issues.ts";
import { allows, applicable, type RuleContext } from "./rules.ts";
import { detectVideoMode } from "./video-mode.ts";

/** The one fit there is: each refused value to its nearest allowed one. */
export const FIT_MODES = ["nearest"] as const;
export type FitMode = (typeof FIT_MODES)[number];

/** One value fit moved: the field's path in the contract's body, what was asked and what is sent. */
export interface Adjustment {
  path: string;
  from: string | number;
  to: string | number;
}

export interface Fitted {
  request: Record<string, unknown>;
  adjustments: Adjustment[];
}

/** Durations fit chooses among: whole seconds, as the contract's duration_sec is. */
const LONGEST_DURATION = 120;
const K_LINES: Record<string, number> = { "2k": 1440, "4k": 2160, "8k": 4320 };

function linesOf(resolution: string): number | undefined {
  const text = resolution.trim().toLowerCase();
  const progressive = /^(\d{3,4})p$/.exec(text);
  return progressive === null ? K_LINES[text] : Number(progressive[1]);
}

function ratioOf(aspect: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(aspect);
  if (match === null) return undefined;
  const ratio = Number(match[1]) / Number(match[2]);
  return Number.isFinite(ratio) && ratio > 0 ? ratio : undefined;
}

/**
 * The candidate closest to `value` by `measure` on a log scale; `better` breaks a tie. Undefined
 * when the value or every candidate is off the scale.
 */
function closest<T>(
  value: T,
  candidates: readonly T[],
  measure: (item: T) => number | undefined,
  better: (a: T, b: T) => boolean,
): T | undefined {
  const at = measure(value);
  if (at === undefined) return undefined;
  let best: { item: T; gap: number } | undefined;
  for (const item of candidates) {
    const where = measure(item);
    if (where === undefined) continue;
    const gap = Math.abs(Math.log(where) - Math.log(at));
    const tie = best !== undefined && Math.abs(gap - best.gap) < 1e-12;
    if (best === undefined || (tie ? better(item, best.item) : gap < best.gap))
      best = { item, gap };
  }
  return best?.item;
}

/** The values every hard rule allows, in the order the first one lists them. */
function allowedValues(rules: readonly SetRule<string>[]): string[] | undefined {
  const hard = rules.filter((rule) => rule.strength === "hard");
  const [first] = hard;
  if (first === undefined) return undefined;
  return first.values.filter((value) => hard.every((rule) => allows(rule, value)));
}

/** A set value (resolution, ratio, size) the hard rules refuse, moved; undefined when it stays. */
function fitSet(
  value: unknown,
  rules: readonly SetRule<string>[],
  scale: "lines" | "ratio",
): string | undefined {
  const allowed = allowedValues(rules);
  if (typeof value !== "string" || allowed === undefined || allowed.includes(value))
    return undefined;
  if (scale === "ratio") return closest(value, allowed, ratioOf, () => false);
  return closest(value, allowed, linesOf, (a, b) => (linesOf(a) ?? 0) > (linesOf(b) ?? 0));
}

function fitDuration(value: unknown, spec: VideoModelSpec, ctx: RuleContext): number | undefined {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) return undefined;
  const hard = applicable(spec.durations, ctx).filter((rule) => rule.strength === "hard");
  if (hard.every((rule) => allows(rule, value))) return undefined;
  const allowed = Array.from({ length: LONGEST_DURATION }, (_, i) => i + 1).filter((d) =>
    hard.every((rule) => allows(rule, d)),
  );
  return closest(
    value,
    allowed,
    (d) => d,
    (a, b) => a > b,
  );
}

/** Moves a field of `body` to the value fit chose for it, recording the move at `prefix` + field. */
function mover(body: Record<string, unknown>, prefix: string, adjustments: Adjustment[]) {
  return (field: string, to: string | number | undefined): void => {
    const from = body[field];
    if (to === undefined || (typeof from !== "string" && typeof from !== "number")) return;
    body[field] = to;
    adjustments.push({ path: `${prefix}${field}`, from, to });
  };
}

function fitVideo(body: Record<string, unknown>, spec: VideoModelSpec): Adjustment[] {
  const adjustments: Adjustment[] = [];
  const move = mover(body, "", adjustments);
  const mode = detectVideoMode(body, spec);
  const resolutionRules = applicable(spec.resolutions, { mode, resolution: undefined });
  move("resolution", fitSet(body.resolution, resolutionRules, "lines"));
  // As validation reads it: the resolution asked (now fitted), else the one a model fixes.
  const fixed = resolutionRules.find(
    (rule) => rule.strength === "hard" && rule.values.length === 1,
  );
  const resolution = typeof body.resolution === "string" ? body.resolution : fixed?.values[0];
  const ctx: RuleContext = { mode, resolution };
  move("duration_sec", fitDuration(body.duration_sec, spec, ctx));
  move("aspect_ratio", fitSet(body.aspect_ratio, applicable(spec.aspectRatios, ctx), "ratio"));
  return adjustments;
}

function fitImage(body: Record<string, unknown>, spec: ImageModelSpec): Adjustment[] {
  const adjustments: Adjustment[] = [];
  if (!isPlainObject(body.image_config)) return adjustments;
  const config = { ...body.image_config };
  const move = mover(config, "image_config.", adjustments);
  move("image_size", fitSet(config.image_size, spec.imageSizes, "lines"));
  move("aspect_ratio", fitSet(config.aspect_ratio, spec.aspectRatios, "ratio"));
  if (adjustments.length > 0) body.image_config = config;
  return adjustments;
}

/**
 * The request with each value the model refuses moved to its nearest allowed one, and the moves.
 * Pure: the request given is not changed. An image body naming a video model is returned as it
 * is, for validation to refuse.
 */
export function fitRequest(request: Record<string, unknown>, model: ModelSpec): Fitted {
  const body = { ...request };
  const isImageBody = Object.hasOwn(body, "messages") || Object.hasOwn(body, "modalities");
  let adjustments: Adjustment[] = [];
  if (model.kind === "image") adjustments = fitImage(body, model);
  else if (!isImageBody) adjustments = fitVideo(body, model);
  return { request: adjustments.length === 0 ? request : body, adjustments };
}
