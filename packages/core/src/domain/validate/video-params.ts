import type { VideoModelSpec } from "../catalog/types.ts";
import type { VideoRequest } from "../contract/schemas.ts";
import { type Issues, shown } from "./issues.ts";
import { allows, applicable, firstBroken, type RuleContext } from "./rules.ts";

/** §2.1 / §8: the duration used when a request names none. */
const GLOBAL_DEFAULT_DURATION = 5;

/**
 * The model's default, else 5 s when the model allows it, else the value nearest to 5 that the
 * hard rules (and, where possible, the soft ones) allow; ties go to the longer video.
 */
function defaultDuration(
  spec: VideoModelSpec,
  ctx: RuleContext,
): { value: number; reason?: string } {
  if (spec.defaultDuration !== undefined) {
    const { value, quote } = spec.defaultDuration;
    return value === GLOBAL_DEFAULT_DURATION
      ? { value }
      : { value, reason: quote === undefined ? "the model's default" : `contract: "${quote}"` };
  }
  const rules = applicable(spec.durations, ctx);
  if (rules.every((rule) => allows(rule, GLOBAL_DEFAULT_DURATION)))
    return { value: GLOBAL_DEFAULT_DURATION };
  const candidates = Array.from({ length: 120 }, (_, i) => i + 1).filter((d) =>
    rules.every((rule) => rule.strength === "soft" || allows(rule, d)),
  );
  const preferred = candidates.filter((d) => rules.every((rule) => allows(rule, d)));
  const pool = preferred.length > 0 ? preferred : candidates;
  const value = pool.reduce<number | undefined>((best, d) => {
    if (best === undefined) return d;
    const gap = Math.abs(d - GLOBAL_DEFAULT_DURATION) - Math.abs(best - GLOBAL_DEFAULT_DURATION);
    return gap < 0 || (gap === 0 && d > best) ? d : best;
  }, undefined);
  if (value === undefined) return { value: GLOBAL_DEFAULT_DURATION };
  return { value, reason: `the global default 5 s is not allowed for ${spec.code}` };
}

/** resolution: checked when given; a model with exactly one (kappa: "fixed 720p") gets it written out. */
function checkResolution(
  req: VideoRequest,
  spec: VideoModelSpec,
  ctx: RuleContext,
  issues: Issues,
): string | undefined {
  const resolution = req.resolution;
  if (resolution === undefined) {
    const fixed = applicable(spec.resolutions, ctx).filter(
      (rule) => rule.strength === "hard" && rule.values.length === 1,
    );
    return fixed.length > 0 ? fixed[0]?.values[0] : undefined;
  }
  const broken = firstBroken(
    applicable(spec.resolutions, { ...ctx, resolution: undefined }),
    resolution,
  );
  if (broken !== undefined) {
    issues.report(
      broken.rule.strength,
      "resolution",
      ["resolution_not_allowed", "resolution_unusual"],
      `\`resolution\` ${shown(resolution)} is not ${broken.rule.strength === "hard" ? "offered" : "commonly used"} by ${spec.code}; allowed: ${broken.allowedText}.`,
    );
  }
  return resolution;
}

/** duration_sec: checked when given (0 only for edit models), else the model's default. */
function checkDuration(
  req: VideoRequest,
  spec: VideoModelSpec,
  ctx: RuleContext,
  issues: Issues,
): number {
  const duration = req.duration_sec;
  if (duration === undefined) {
    const chosen = defaultDuration(spec, ctx);
    if (chosen.reason !== undefined) {
      issues.warn(
        "duration_sec",
        "duration_defaulted",
        `\`duration_sec\` was not given; ${spec.code} uses ${chosen.value} s (${chosen.reason}).`,
      );
    }
    return chosen.value;
  }
  if (duration === 0 && !spec.durations.some((rule) => allows(rule, 0))) {
    issues.error(
      "duration_sec",
      "duration_not_allowed",
      `\`duration_sec\` 0 ("follow the source length") is only for video edit models; ${spec.code} needs a positive number of seconds.`,
    );
    return duration;
  }
  const broken = firstBroken(applicable(spec.durations, ctx), duration);
  if (broken !== undefined) {
    issues.report(
      broken.rule.strength,
      "duration_sec",
      ["duration_not_allowed", "duration_unusual"],
      `\`duration_sec\` ${duration} is ${broken.rule.strength === "hard" ? "not allowed" : "unusual"} for ${spec.code}; allowed: ${broken.allowedText}.`,
    );
  }
  return duration;
}

/** duration_sec, resolution, aspect_ratio and generate_audio; returns the filled-in values. */
export function checkVideoParams(
  req: VideoRequest,
  spec: VideoModelSpec,
  ctx: RuleContext,
  issues: Issues,
): Pick<VideoRequest, "duration_sec" | "resolution" | "generate_audio"> {
  const resolution = checkResolution(req, spec, ctx, issues);
  const withResolution = { ...ctx, resolution };
  const duration = checkDuration(req, spec, withResolution, issues);

  if (req.aspect_ratio !== undefined) {
    const broken = firstBroken(applicable(spec.aspectRatios, withResolution), req.aspect_ratio);
    if (broken !== undefined) {
      issues.report(
        broken.rule.strength,
        "aspect_ratio",
        ["aspect_ratio_not_allowed", "aspect_ratio_unusual"],
        `\`aspect_ratio\` ${shown(req.aspect_ratio)} is ${broken.rule.strength === "hard" ? "not allowed" : "unusual"} for ${spec.code}; allowed: ${broken.allowedText}.`,
      );
    }
  }

  if (req.generate_audio === true && spec.audio.support === "unusual") {
    issues.warn(
      "generate_audio",
      "audio_unusual",
      `\`generate_audio\` true: ${spec.code} usually makes silent video${spec.audio.quote === undefined ? "" : ` (contract: "${spec.audio.quote}")`}; the request goes on.`,
    );
  }
  return {
    duration_sec: duration,
    resolution,
    generate_audio: req.generate_audio ?? spec.audio.default,
  };
}
