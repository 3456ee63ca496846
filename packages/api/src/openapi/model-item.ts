/** A catalog entry as GET /v1/models shows it: the values a form can offer, not the rules behind them. */
import type { DurationRule, Kind, ModelSpec, SetRule } from "@reelay/core/domain";
import type { ModelItem } from "./responses.ts";

export type { ModelItem };

type Rule<T extends string | number> = SetRule<T> | (T extends number ? DurationRule : never);

function valuesOf<T extends string | number>(rule: Rule<T>): T[] {
  if ("values" in rule) return [...rule.values] as T[];
  const out: number[] = [];
  for (let n = rule.min; n <= rule.max; n++) out.push(n);
  return out as T[];
}

/** The unconditional hard rule says what is allowed; without one, every value any rule names. */
function allowed<T extends string | number>(rules: readonly Rule<T>[]): T[] {
  const hard = rules.find(
    (rule) =>
      rule.strength === "hard" && rule.modes === undefined && rule.resolutions === undefined,
  );
  if (hard !== undefined) return valuesOf(hard);
  return [...new Set(rules.flatMap((rule) => valuesOf(rule)))];
}

export function modelItem(spec: ModelSpec, source: ModelItem["source"]): ModelItem {
  const common = {
    id: spec.code,
    object: "model" as const,
    family: spec.family,
    modality: spec.kind,
    match: spec.match ?? "exact",
    config_keys: Object.keys(spec.config),
    source,
    aliases: [],
    deprecated_at: spec.deprecated_at ?? null,
    sunset_at: spec.sunset_at ?? null,
    successor: spec.successor ?? null,
  };
  if (spec.kind === "image") {
    return {
      ...common,
      modes: spec.referenceImages.max === 0 ? ["text"] : ["text", "edit"],
      resolutions: allowed(spec.imageSizes),
      durations: null,
      aspect_ratios: allowed(spec.aspectRatios),
      audio_default: null,
    };
  }
  return {
    ...common,
    modes: Object.keys(spec.modes),
    resolutions: allowed(spec.resolutions),
    durations: allowed<number>(spec.durations),
    aspect_ratios: allowed(spec.aspectRatios),
    audio_default: spec.audio.default,
  };
}

export function upstreamOnlyItem(id: string, modality: Kind | null): ModelItem {
  return {
    id,
    object: "model",
    family: null,
    modality,
    match: "exact",
    modes: null,
    resolutions: null,
    durations: null,
    aspect_ratios: null,
    audio_default: null,
    config_keys: null,
    source: "upstream",
    aliases: [],
    deprecated_at: null,
    sunset_at: null,
    successor: null,
  };
}
