/**
 * How long a job's outputs are kept: X-Reelay-Retention-Days on the contract's create routes,
 * `retention_days` in reelay's own bodies (batches). A positive number of days, fractions allowed
 * (0.5 is twelve hours), up to MAX_RETENTION_DAYS; absent = REELAY_RETENTION_DAYS.
 */
import { checkRetentionDays } from "@reelay/core/domain";

export const RETENTION_HEADER = "X-Reelay-Retention-Days";

/** A body's `retention_days` (a JSON number); undefined when absent. */
export function readRetentionDays(days: unknown, path: string): number | undefined {
  return days === undefined ? undefined : checkRetentionDays(days, path);
}

/** The header's text as days; undefined when absent. */
export function readRetentionHeader(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const days = /^\s*\d{1,6}(\.\d{1,12})?\s*$/.test(text) ? Number(text) : Number.NaN;
  return checkRetentionDays(days, RETENTION_HEADER);
}
