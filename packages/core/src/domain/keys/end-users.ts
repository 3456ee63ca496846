/**
 * End users: the app's own opaque id for the person a job is made for (`user` / X-Reelay-User),
 * and the limits a key sets for each of them (`user_limits`: rate, burst, max_queued,
 * max_in_flight, budget). Each (key, user) is a lane of its own (`<key id>/user/<user>`), held on
 * the same items and by the same conditional writes as a key's own lane (key-limits.ts,
 * adapters/dynamodb/key-limits-table.ts), so one user over a limit is refused while the key's
 * other users go on. A field unset (or null) is no limit for each user; REELAY_KEY_LIMITS has no
 * say over end users.
 */
import { ReelayError, shownInput } from "../errors.ts";
import { type Budget, parseBudget } from "../money/budget-schema.ts";
import { type EffectiveLimits, type KeyLimits, limitsView, parseKeyLimits } from "./key-limits.ts";

const MAX_USER_LENGTH = 128;
/** Printable: no C0 or C1 control characters (nor DEL), which a log line or a header would mangle. */
const PRINTABLE = /^[^\p{Cc}]+$/u;

/** Whether `text` may be an end user's id: 1 to MAX_USER_LENGTH printable characters. */
export function isUserId(text: string): boolean {
  return text.length >= 1 && text.length <= MAX_USER_LENGTH && PRINTABLE.test(text);
}

/** 400 invalid_user at `path`. */
export function invalidUser(path: string): ReelayError {
  return new ReelayError(
    "invalid_user",
    `${path} must be the end user's id: 1 to ${MAX_USER_LENGTH} printable characters, no control characters.`,
    { status: 400, path },
  );
}

/** An end user's id as given at `path`, or 400 invalid_user. */
export function parseUserId(raw: unknown, path: string): string {
  if (typeof raw !== "string" || !isUserId(raw)) throw invalidUser(path);
  return raw;
}

const USER_LANE = "/user/";

/** The lane of a key's end user: its limits' item and its place in the fair queue. */
export function userLane(keyLane: string, user: string): string {
  return `${keyLane}${USER_LANE}${user}`;
}

/** The end user of a user's lane; undefined for a key's own lane. */
export function userOfLane(lane: string): string | undefined {
  const at = lane.indexOf(USER_LANE);
  return at < 0 ? undefined : lane.slice(at + USER_LANE.length);
}

/** The key's lane of a user's lane; undefined for a key's own lane. */
export function keyLaneOf(lane: string): string | undefined {
  const at = lane.indexOf(USER_LANE);
  return at < 0 ? undefined : lane.slice(0, at);
}

/** A key's `user_limits` as given and stored: the per-key fields, and a budget for each user. */
export interface UserLimits extends KeyLimits {
  budget?: Budget | null;
}

/** `user_limits` of a key's create: the fields and checks of `limits`, and `budget` as a key's. */
export function parseUserLimits(raw: unknown, path: string): UserLimits {
  const limits: UserLimits = parseKeyLimits(raw, path, "invalid_request", ["budget"]);
  const budget = (raw as { budget?: unknown }).budget;
  if (budget === undefined) return limits;
  return {
    ...limits,
    budget: budget === null ? null : parseBudget(budget, `${path}.budget`, "invalid_request"),
  };
}

/** Each user's limits in force: the key's user_limits alone (no defaults). */
export function userEffectiveLimits(own: UserLimits | undefined): EffectiveLimits {
  const limits: EffectiveLimits = {};
  const { rate, burst, max_queued: maxQueued, max_in_flight: maxInFlight } = own ?? {};
  if (typeof rate === "number")
    Object.assign(limits, { rate, burst: burst ?? Math.max(1, Math.ceil(rate)) });
  if (typeof maxQueued === "number") limits.maxQueued = maxQueued;
  if (typeof maxInFlight === "number") limits.maxInFlight = maxInFlight;
  return limits;
}

/** user_limits as a key's views show them: every field, null where there is none. */
export function userLimitsView(own: UserLimits | undefined) {
  return { ...limitsView(userEffectiveLimits(own)), budget: own?.budget ?? null };
}

/** The message of a refusal for the end user's limit rather than the key's. */
export function forEndUser(error: ReelayError, user: string): ReelayError {
  const message = error.message.replace(
    /^This API key/,
    `The end user ${shownInput(user, 40)} of this API key (user_limits)`,
  );
  return new ReelayError(error.code, message, {
    ...(error.status === undefined ? {} : { status: error.status }),
    retryable: error.retryable,
    ...(error.details === undefined ? {} : { details: error.details }),
  });
}
