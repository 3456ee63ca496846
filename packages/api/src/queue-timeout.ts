/**
 * How long a job may wait for an upstream slot before it ends `failed` / `queue_timeout`:
 * X-Reelay-Queue-Timeout on the contract's create routes, `queue_timeout_s` in reelay's own bodies
 * (batches). Whole seconds from 1 to REELAY_QUEUE_TIMEOUT_S: a longer wait than the deployment
 * allows is refused, not cut short silently.
 */
import { DEFAULT_QUEUE_TIMEOUT_S, ReelayError } from "@reelay/core/domain";
import type { ResolvedDeps } from "./api-deps.ts";

export const QUEUE_TIMEOUT_HEADER = "X-Reelay-Queue-Timeout";

/** A body's `queue_timeout_s` (a JSON number) as seconds; undefined when absent. */
export function readQueueTimeout(
  deps: Pick<ResolvedDeps, "admission">,
  seconds: unknown,
  path: string,
): number | undefined {
  if (seconds === undefined) return undefined;
  const max = deps.admission?.settings.queueTimeoutS ?? DEFAULT_QUEUE_TIMEOUT_S;
  if (typeof seconds === "number" && Number.isInteger(seconds) && seconds >= 1 && seconds <= max) {
    return seconds;
  }
  throw new ReelayError(
    "invalid_queue_timeout",
    `${path} must be a whole number of seconds from 1 to ${max} (REELAY_QUEUE_TIMEOUT_S).`,
    { status: 400, path },
  );
}

/** The header's text as seconds; undefined when absent. */
export function readQueueTimeoutHeader(
  deps: Pick<ResolvedDeps, "admission">,
  text: string | undefined,
): number | undefined {
  if (text === undefined) return undefined;
  const seconds = /^\s*\d{1,9}\s*$/.test(text) ? Number(text) : Number.NaN;
  return readQueueTimeout(deps, seconds, QUEUE_TIMEOUT_HEADER);
}
