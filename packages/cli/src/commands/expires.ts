/**
 * `--expires` of `reelay keys create`: a life from now (`30d`, `12h`, `90m`, `2w`) or an ISO time;
 * `--expiring` of `reelay jobs`: a window from now in the same units.
 */
import { UsageError } from "../usage.ts";

const SPAN = /^(\d{1,5})([mhdw])$/;

const UNIT_MS: Record<string, number> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** The ISO time the key ends; an ISO time given is sent as it is (the server checks it is ahead). */
export function expiresAtOf(text: string, now: Date): string {
  const life = SPAN.exec(text);
  if (life !== null)
    return new Date(
      now.getTime() + Number(life[1]) * (UNIT_MS[life[2] as string] as number),
    ).toISOString();
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) return text;
  throw new UsageError(
    `--expires takes a life such as 30d, 12h, 90m or 2w, or an ISO time such as 2030-01-31T00:00:00Z; got "${text}".`,
  );
}

/** A window such as `24h`, `30m`, `7d` or `2w`, in whole seconds. */
export function windowSeconds(text: string, option: string): number {
  const span = SPAN.exec(text);
  if (span === null || Number(span[1]) === 0)
    throw new UsageError(`${option} takes a window such as 24h, 30m, 7d or 2w; got "${text}".`);
  return (Number(span[1]) * (UNIT_MS[span[2] as string] as number)) / 1000;
}
