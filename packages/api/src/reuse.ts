/**
 * Whether a request may be served from an earlier identical one (issue 26 pt 4): X-Reelay-Reuse
 * on the contract's create routes, `reuse` in reelay's own bodies (batches). A maximum age, a
 * whole number of minutes, hours or days (`30m`, `12h`, `7d`, at most 365 days), or `false`; off
 * when absent, since a generation is not deterministic and a caller must ask for a copy.
 */
import { ReelayError } from "@reelay/core/domain";

export const REUSE_HEADER = "X-Reelay-Reuse";

const UNIT_S: Record<string, number> = { m: 60, h: 3600, d: 86_400 };
const MAX_AGE_S = 365 * 86_400;
const AGE = /^(\d{1,6})([mhd])$/;

function invalid(path: string, shown: string): ReelayError {
  return new ReelayError(
    "invalid_reuse",
    `${path} must be a maximum age such as 30m, 12h or 7d (at most 365d), or false; got ${shown}.`,
    { status: 400, path },
  );
}

/** A body's `reuse` as seconds; undefined when absent or false. */
export function readReuse(value: unknown, path: string): number | undefined {
  if (value === undefined || value === false) return undefined;
  const match = typeof value === "string" ? AGE.exec(value.trim()) : null;
  const seconds = match === null ? 0 : Number(match[1]) * (UNIT_S[match[2] ?? ""] ?? 0);
  if (seconds >= 1 && seconds <= MAX_AGE_S) return seconds;
  throw invalid(path, JSON.stringify(value)?.slice(0, 40) ?? String(value));
}

/** The header's text as seconds; undefined when absent or `false`. */
export function readReuseHeader(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = text.trim().toLowerCase();
  return readReuse(value === "false" ? false : value, REUSE_HEADER);
}
