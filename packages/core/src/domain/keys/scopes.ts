/**
 * What an API key may do, by route: `read` (get and list jobs, batches, models, usage, events),
 * `write` (create, cancel and retry jobs and batches), `webhooks` (the project's subscribers),
 * `admin` (keys, budgets, admission, upstreams, metrics, the delivery log and replays). A key made
 * without `scopes` has read and write; the deployment's own key has all four.
 */
import { ReelayError } from "../errors.ts";
import { shown } from "../validate/issues.ts";

export const SCOPES = ["read", "write", "webhooks", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

export const DEFAULT_SCOPES: readonly Scope[] = ["read", "write"];

/**
 * A key stored before keys had scopes keeps what it could do then: its jobs and batches, and its
 * own webhook subscribers. Narrowing it silently would break the services holding it.
 */
export const LEGACY_SCOPES: readonly Scope[] = ["read", "write", "webhooks"];

function isScope(value: unknown): value is Scope {
  return typeof value === "string" && (SCOPES as readonly string[]).includes(value);
}

/** `scopes` of a key's create: a non-empty list of known scopes, kept in SCOPES' order. */
export function parseScopes(raw: unknown, path = "scopes"): Scope[] {
  const list = typeof raw === "string" ? raw.split(",").map((s) => s.trim()) : raw;
  if (!Array.isArray(list) || list.length === 0) {
    throw new ReelayError(
      "invalid_request",
      `${path} must be a non-empty list of ${SCOPES.join(", ")}.`,
      { status: 400, path },
    );
  }
  const unknown = list.find((scope) => !isScope(scope));
  if (unknown !== undefined) {
    throw new ReelayError(
      "invalid_request",
      `${path}: ${shown(unknown, 40)} is not a scope; use ${SCOPES.join(", ")}.`,
      { status: 400, path },
    );
  }
  return SCOPES.filter((scope) => list.includes(scope));
}

/** 403 scope_missing: the call needs `scope`, which the key was not given. */
export function scopeMissing(scope: Scope, held: readonly Scope[]): ReelayError {
  const has = held.length === 0 ? "none" : held.join(", ");
  return new ReelayError(
    "scope_missing",
    `This call needs the \`${scope}\` scope; the API key has ${has}. Make a key with it (reelay keys create --scopes ${scope}).`,
    { status: 403, details: { scope } },
  );
}
