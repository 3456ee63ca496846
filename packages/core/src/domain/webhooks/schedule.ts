/**
 * When a delivery is tried: a list of waits in seconds, the first before the first attempt, each
 * later one after a failed attempt. The default is Standard Webhooks' (Svix's) day-long schedule:
 * immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then dead.
 */
import { ReelayError } from "../errors.ts";

export const DEFAULT_WEBHOOK_SCHEDULE_S: readonly number[] = [
  0, 5, 300, 1800, 7200, 18000, 36000, 36000,
];

/** More attempts than this is not a retry schedule but a loop. */
const MAX_ATTEMPTS = 50;
/** The longest single wait: a week. */
const MAX_WAIT_S = 7 * 24 * 3600;

/** Parses `0,5,300`: whole or fractional seconds, each at least 0, at most a week, 1 to 50 of them. */
export function parseSchedule(text: string, source: string): number[] {
  const parts = text.split(",").map((part) => part.trim());
  const waits = parts.map(Number);
  const bad = parts.findIndex(
    (part, i) => part === "" || !Number.isFinite(waits[i]) || (waits[i] as number) < 0,
  );
  if (bad !== -1 || waits.length > MAX_ATTEMPTS || waits.some((wait) => wait > MAX_WAIT_S)) {
    throw new ReelayError(
      "invalid_config",
      `${source} must be 1 to ${MAX_ATTEMPTS} comma-separated waits in seconds, each from 0 to ${MAX_WAIT_S}` +
        (bad === -1 ? "." : `; "${parts[bad]}" is not one.`),
      { path: source },
    );
  }
  return waits;
}

/**
 * The wait before attempt `attempt` (1-based) in milliseconds, with ±10 % jitter so receivers that
 * came back are not hit by every delivery at the same instant; undefined when the schedule is spent.
 */
export function scheduledWaitMs(
  schedule: readonly number[],
  attempt: number,
  random: () => number = Math.random,
): number | undefined {
  const wait = schedule[attempt - 1];
  if (wait === undefined) return undefined;
  return Math.round(wait * 1000 * (0.9 + 0.2 * random()));
}
