/**
 * What the dashboard's submit form needs of each video model: the values to offer and the hint to
 * show. Only rules that hold in every mode and at every resolution shape the form; the narrower ones
 * (e.g. "1080p commonly only 6 s") stay the validator's job, whose answer the form shows inline.
 */
import type { Catalog, DurationRule, SetRule, VideoModelSpec } from "@reelay/core";

export interface FormModel {
  code: string;
  family: string;
  /** Durations the model takes: a set of values, or a range. */
  durations: { values: number[] } | { min: number; max: number };
  defaultDuration: number;
  resolutions: string[];
  aspectRatios: string[];
  audioDefault: boolean;
}

/** The contract's default when a model names none (§2.1). */
const GLOBAL_DEFAULT_DURATION = 5;

function general<T extends { modes?: unknown; resolutions?: unknown }>(rules: T[]): T[] {
  return rules.filter((rule) => rule.modes === undefined && rule.resolutions === undefined);
}

/** A hard set wins over a soft one: the soft words only describe what is common. */
function offered<T extends string>(rules: SetRule<T>[]): T[] {
  const usable = general(rules).filter((rule) => rule.values.length > 0);
  return (usable.find((rule) => rule.strength === "hard") ?? usable[0])?.values ?? [];
}

function durations(rules: DurationRule[]): FormModel["durations"] {
  const usable = general(rules);
  const rule = usable.find((candidate) => candidate.strength === "hard") ?? usable[0];
  if (rule === undefined) return { min: 1, max: 60 };
  return "values" in rule ? { values: rule.values } : { min: rule.min, max: rule.max };
}

function formModel(spec: VideoModelSpec): FormModel {
  return {
    code: spec.code,
    family: spec.family,
    durations: durations(spec.durations),
    defaultDuration: spec.defaultDuration?.value ?? GLOBAL_DEFAULT_DURATION,
    resolutions: offered(spec.resolutions),
    aspectRatios: offered(spec.aspectRatios),
    audioDefault: spec.audio.default,
  };
}

/** Video models with exact codes (prefix entries such as lambda- name no model one could pick). */
export function formModels(catalog: Catalog): FormModel[] {
  return catalog
    .list("video")
    .filter((spec): spec is VideoModelSpec => spec.kind === "video" && spec.match !== "prefix")
    .map(formModel);
}
