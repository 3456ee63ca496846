/**
 * Limits per key: `rate` (API calls per second, refilled continuously) and `burst` (how many may
 * come at once), `max_queued` (the key's jobs waiting for an upstream slot) and `max_in_flight`
 * (the key's jobs holding one). A key's own value wins field by field over REELAY_KEY_LIMITS; a
 * field unset on both is no limit, and `null` on a key is no limit whatever the default says.
 *
 * The call bucket is GCRA, the token bucket written as one number: `tat`, the time the bucket is
 * full again. A call at `now` moves it to max(tat, now) + 1/rate and is let through while that
 * stays within burst/rate of now, so one conditional write on one item keeps every API instance
 * to the same bucket.
 */
import { ReelayError, shownInput } from "../errors.ts";

const KEY_LIMIT_FIELDS = ["rate", "burst", "max_queued", "max_in_flight"] as const;
type KeyLimitField = (typeof KEY_LIMIT_FIELDS)[number];

/** A key's limits as given and stored: a number, `null` (no limit, over any default) or absent. */
export type KeyLimits = { [Field in KeyLimitField]?: number | null };

/** The limits in force: absent = none. */
export interface EffectiveLimits {
  rate?: number;
  burst?: number;
  maxQueued?: number;
  maxInFlight?: number;
}

/** REELAY_KEY_LIMITS: the stored keys' defaults, and the deployment's own (its key and drops). */
export interface KeyLimitDefaults {
  keys: KeyLimits;
  deployment: KeyLimits;
}

export const NO_KEY_LIMITS: KeyLimitDefaults = { keys: {}, deployment: {} };

/** The most a setting may say: a day's worth of calls per second, a queue no table would hold. */
const MAX_LIMIT = 1_000_000;

function refuse(code: "invalid_request" | "invalid_config", path: string, message: string) {
  return new ReelayError(code, message, { status: 400, path });
}

/**
 * `limits` of a key's create, or the fields of REELAY_KEY_LIMITS: an object of the four fields,
 * each a positive number (`rate`) or a positive whole number (the others), or null.
 */
export function parseKeyLimits(
  raw: unknown,
  path: string,
  code: "invalid_request" | "invalid_config",
  also: readonly string[] = [],
): KeyLimits {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw refuse(code, path, `${path} must be an object of ${KEY_LIMIT_FIELDS.join(", ")}.`);
  const limits: KeyLimits = {};
  for (const [field, value] of Object.entries(raw)) {
    if (also.includes(field)) continue;
    const at = `${path}.${field}`;
    if (!(KEY_LIMIT_FIELDS as readonly string[]).includes(field)) {
      throw new ReelayError(
        code === "invalid_request" ? "unknown_field" : code,
        `${shownInput(at, 100)} is not a limit (known: ${KEY_LIMIT_FIELDS.join(", ")}); nothing was made.`,
        { status: 400, path: at.slice(0, 100) },
      );
    }
    const whole = field !== "rate";
    const fits =
      value === null ||
      (typeof value === "number" &&
        Number.isFinite(value) &&
        value > 0 &&
        value <= MAX_LIMIT &&
        (!whole || Number.isInteger(value)));
    if (!fits) {
      throw refuse(
        code,
        at,
        `${at} must be a positive ${whole ? "whole number" : "number"} up to ${MAX_LIMIT}, or null for no limit; got ${shownInput(JSON.stringify(value) ?? "", 40)}.`,
      );
    }
    limits[field as KeyLimitField] = value as number | null;
  }
  return limits;
}

/** REELAY_KEY_LIMITS' text: the stored keys' defaults, with the deployment's under `deployment`. */
export function parseKeyLimitDefaults(text: string, origin: string): KeyLimitDefaults {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ReelayError("invalid_config", `${origin} is not valid JSON.`, { path: origin });
  }
  const keys = parseKeyLimits(raw, origin, "invalid_config", ["deployment"]);
  const own = (raw as { deployment?: unknown }).deployment;
  const deployment =
    own === undefined ? {} : parseKeyLimits(own, `${origin}.deployment`, "invalid_config");
  return { keys, deployment };
}

/** Field by field: the key's own value (null = none), else the default. */
export function effectiveLimits(own: KeyLimits | undefined, defaults: KeyLimits): EffectiveLimits {
  const pick = (field: KeyLimitField) => {
    const value = own?.[field] !== undefined ? own[field] : defaults[field];
    return value === null || value === undefined ? undefined : value;
  };
  const rate = pick("rate");
  // A burst without a rate bounds nothing; a rate without one lets a second's worth through at once.
  const burst = rate === undefined ? undefined : (pick("burst") ?? Math.max(1, Math.ceil(rate)));
  const maxQueued = pick("max_queued");
  const maxInFlight = pick("max_in_flight");
  return {
    ...(rate === undefined ? {} : { rate, burst }),
    ...(maxQueued === undefined ? {} : { maxQueued }),
    ...(maxInFlight === undefined ? {} : { maxInFlight }),
  };
}

/** The limits as a key's views show them: every field, null where there is none. */
export function limitsView(limits: EffectiveLimits): Record<KeyLimitField, number | null> {
  return {
    rate: limits.rate ?? null,
    burst: limits.burst ?? null,
    max_queued: limits.maxQueued ?? null,
    max_in_flight: limits.maxInFlight ?? null,
  };
}

/** One call against the bucket: whether it goes through, and what the RateLimit-* headers say. */
export interface BucketTurn {
  allowed: boolean;
  /** The bucket's new `tat` (epoch ms) when allowed; unchanged when refused. */
  tat: number;
  /** Calls left in the bucket after this one. */
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  resetS: number;
  /** Seconds until the next call would go through (Retry-After), when refused. */
  retryAfterS: number;
}

/** GCRA: one call at `now` against a bucket last left at `tat` (0 = never used). */
export function takeFromBucket(
  tat: number,
  now: number,
  limits: { rate: number; burst: number },
): BucketTurn {
  const interval = 1000 / limits.rate;
  const window = limits.burst * interval;
  const start = Math.max(tat, now);
  const next = start + interval;
  const allowed = next - now <= window + 1e-6;
  const after = allowed ? next : start;
  const remaining = Math.max(0, Math.floor((window - (after - now)) / interval + 1e-9));
  return {
    allowed,
    tat: allowed ? next : tat,
    remaining,
    resetS: Math.max(0, Math.ceil((after - now) / 1000)),
    retryAfterS: allowed ? 0 : Math.max(1, Math.ceil((next - window - now) / 1000)),
  };
}

/** 429 rate_limited: the key's calls per second are spent for now. */
export function rateLimited(limits: { rate: number; burst: number }, retryAfterS: number) {
  return new ReelayError(
    "rate_limited",
    `This API key may make ${limits.rate} calls per second (bursts of ${limits.burst}); try again in ${retryAfterS} s.`,
    { status: 429, retryable: true, details: { retry_after_s: retryAfterS } },
  );
}

/** 429 queue_full: the key's jobs waiting for a slot would pass its max_queued; nothing was made. */
export function queueFull(maxQueued: number, asked: number, waiting?: number): ReelayError {
  const now = waiting === undefined ? "" : ` (${waiting} wait now)`;
  return new ReelayError(
    "queue_full",
    `This API key may have at most ${maxQueued} jobs waiting${now}; ${asked === 1 ? "this job" : `these ${asked} jobs`} would pass it, so nothing was made. Try again once some have started.`,
    { status: 429, retryable: true, details: { max_queued: maxQueued } },
  );
}
