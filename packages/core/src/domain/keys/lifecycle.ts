/**
 * A key's life: it may be made with an end (`expires_at`, after which it is refused with 401
 * `key_expired`, told apart from an unknown key so its holder knows to ask for a new one), and it
 * records when it was last used, at most once a minute so a busy key does not pay a write per call.
 */
import { ReelayError } from "../errors.ts";
import { shown } from "../validate/issues.ts";

/** `last_used_at` moves only when it is at least this old. */
export const LAST_USED_EVERY_MS = 60_000;

/** A key may not be made to end further out than this (a typo in a year should not pass). */
const LONGEST_LIFE_MS = 10 * 366 * 24 * 3600 * 1000;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** `expires_at` of a key's create: an ISO time with its zone, in the future; answered as UTC ISO. */
export function parseExpiresAt(raw: unknown, now: Date, path = "expires_at"): string {
  const at = typeof raw === "string" && ISO_TIME.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(at)) {
    throw new ReelayError(
      "invalid_request",
      `${path} must be an ISO time with its zone, such as 2030-01-31T00:00:00Z, got ${shown(raw, 40)}.`,
      { status: 400, path },
    );
  }
  if (at <= now.getTime() || at - now.getTime() > LONGEST_LIFE_MS) {
    throw new ReelayError(
      "invalid_request",
      `${path} must be in the future and within 10 years, got ${shown(raw, 40)}.`,
      { status: 400, path },
    );
  }
  return new Date(at).toISOString();
}

export function isExpired(key: { expires_at?: string }, now: Date): boolean {
  return key.expires_at !== undefined && Date.parse(key.expires_at) <= now.getTime();
}

/** 401 key_expired: the key was valid and has reached its `expires_at`. */
export function keyExpired(key: { id: string; expires_at?: string }): ReelayError {
  return new ReelayError(
    "key_expired",
    `The API key ${key.id} expired at ${key.expires_at}; ask an admin for a new one.`,
    { status: 401, details: { keyId: key.id } },
  );
}

/** Whether a call now should move the key's `last_used_at`. */
export function lastUsedIsStale(lastUsedAt: string | undefined, now: Date): boolean {
  return lastUsedAt === undefined || now.getTime() - Date.parse(lastUsedAt) >= LAST_USED_EVERY_MS;
}
