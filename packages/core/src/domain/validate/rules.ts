import type { DurationRule, SetRule, VideoMode } from "../catalog/types.ts";
import { listValues } from "./issues.ts";

export interface RuleContext {
  mode: VideoMode | null;
  resolution: string | undefined;
}

/** The catalog rules that apply in this mode and at this resolution. */
export function applicable<R extends { modes?: VideoMode[]; resolutions?: string[] }>(
  rules: readonly R[],
  ctx: RuleContext,
): R[] {
  return rules.filter(
    (rule) =>
      (rule.modes === undefined || (ctx.mode !== null && rule.modes.includes(ctx.mode))) &&
      (rule.resolutions === undefined ||
        (ctx.resolution !== undefined && rule.resolutions.includes(ctx.resolution))),
  );
}

export function allows(rule: DurationRule | SetRule<string>, value: string | number): boolean {
  if ("values" in rule) return (rule.values as readonly (string | number)[]).includes(value);
  return typeof value === "number" && value >= rule.min && value <= rule.max;
}

/** "4, 6 or 8" / "3 to 10" / "not forced", followed by the contract's words. */
function describeRule(rule: DurationRule | SetRule<string>): string {
  const allowed =
    "values" in rule
      ? rule.values.length === 0
        ? "no explicit value"
        : listValues(rule.values)
      : `${rule.min} to ${rule.max}`;
  return rule.quote === undefined ? allowed : `${allowed} (contract: "${rule.quote}")`;
}

function where(rule: { modes?: VideoMode[]; resolutions?: string[] }): string {
  const parts: string[] = [];
  if (rule.modes !== undefined) parts.push(`in ${rule.modes.join("/")} mode`);
  if (rule.resolutions !== undefined) parts.push(`at ${rule.resolutions.join("/")}`);
  return parts.length === 0 ? "" : ` ${parts.join(" ")}`;
}

/** The first rule a value breaks, hard rules first, with a sentence naming what is allowed. */
export function firstBroken<R extends DurationRule | SetRule<string>>(
  rules: readonly R[],
  value: string | number,
): { rule: R; allowedText: string } | undefined {
  const ordered = [
    ...rules.filter((r) => r.strength === "hard"),
    ...rules.filter((r) => r.strength === "soft"),
  ];
  const rule = ordered.find((candidate) => !allows(candidate, value));
  return rule === undefined
    ? undefined
    : { rule, allowedText: `${describeRule(rule)}${where(rule)}` };
}
