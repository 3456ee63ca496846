/**
 * Turning what went wrong on the wire into ReelayErrors with stable codes. Every text that leaves
 * here goes through `redact`, because an upstream may echo the key it was sent (e.g. "invalid key
 * sk-...") and a transport error may carry request details in its cause chain.
 */
import { ReelayError } from "../../domain/errors.ts";
import {
  describeFailure,
  errorPathOf,
  readBusinessError,
} from "../../domain/contract/responses.ts";

const UPSTREAM_ERROR_CODES = [
  "upstream_rate_limited",
  "upstream_unavailable",
  "upstream_timeout",
  "upstream_network",
  "upstream_rejected",
  "upstream_auth",
  "upstream_not_found",
  "upstream_bad_response",
  "invalid_base_url",
  "missing_idempotency_key",
] as const;
type UpstreamErrorCode = (typeof UPSTREAM_ERROR_CODES)[number];

export type Redact = (text: string) => string;

export function redactor(secret: string): Redact {
  return (text) => {
    let out = secret === "" ? text : text.split(secret).join("[redacted]");
    out = out.replace(/(bearer\s+)[^\s"',;]+/gi, "$1[redacted]");
    // A presigned link the request carried (an upload's) is a credential of its own.
    out = out.replace(/(https?:\/\/[^\s?#"']*)\?[^\s"']*X-Amz-Signature[^\s"']*/gi, "$1");
    return out;
  };
}

/** Where a request went, safe to show: method and endpoint path, never headers. */
interface CallSite {
  method: string;
  endpoint: string;
}

export interface Attempted extends CallSite {
  attempts: number;
}

function site(call: Attempted): string {
  return `${call.method} ${call.endpoint}`;
}

/** Transient HTTP statuses: the same request may succeed later. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** A non-2xx answer, after retries (if any) are spent. */
export function httpError(
  status: number,
  body: unknown,
  call: Attempted & { taskQuery: boolean; retryAfterMs?: number },
  redact: Redact,
): ReelayError {
  const upstream = redact(describeFailure(body));
  const upstreamCode = readBusinessError(body)?.code;
  const details: Record<string, unknown> = {
    endpoint: call.endpoint,
    attempts: call.attempts,
    ...(upstreamCode === undefined ? {} : { upstreamCode: redact(upstreamCode) }),
    ...(call.retryAfterMs === undefined ? {} : { retryAfterMs: call.retryAfterMs }),
  };
  // The field the upstream names (a parameter error), so the job's error can point at it too.
  const path = errorPathOf(body);
  const make = (code: UpstreamErrorCode, message: string, retryable: boolean) =>
    new ReelayError(code, message, {
      status,
      retryable,
      details,
      ...(path === undefined ? {} : { path: redact(path) }),
    });
  const tries = call.attempts > 1 ? ` after ${call.attempts} attempts` : "";
  if (status === 429) {
    return make(
      "upstream_rate_limited",
      `The upstream is rate limiting ${site(call)}${tries}: ${upstream}`,
      true,
    );
  }
  if (status >= 500) {
    return make(
      "upstream_unavailable",
      `The upstream failed ${site(call)} with HTTP ${status}${tries}: ${upstream}`,
      true,
    );
  }
  if (status === 408) {
    return make(
      "upstream_timeout",
      `The upstream timed out ${site(call)} (HTTP 408)${tries}: ${upstream}`,
      true,
    );
  }
  if (status === 401 || status === 403) {
    return make(
      "upstream_auth",
      `The upstream refused the API key for ${site(call)} (HTTP ${status}): ${upstream}. Check the upstream API key and base URL.`,
      false,
    );
  }
  if (status === 404 && call.taskQuery) {
    return make(
      "upstream_not_found",
      `The upstream does not know this task (HTTP 404 on ${site(call)}): ${upstream}. Task ids must match exactly.`,
      false,
    );
  }
  // 409 is retried as "a request with this key is still in flight"; if it persists, say so.
  return make(
    "upstream_rejected",
    `The upstream rejected ${site(call)} with HTTP ${status}: ${upstream}`,
    status === 409,
  );
}

/** A 2xx whose body carries a business-level error (docs/contract.md §3.2): the upstream said no. */
export function businessError(body: unknown, call: Attempted, redact: Redact): ReelayError {
  const business = readBusinessError(body);
  return new ReelayError(
    "upstream_rejected",
    `The upstream rejected ${site(call)}: ${redact(business?.message ?? describeFailure(body))}`,
    {
      status: 200,
      retryable: false,
      details: {
        endpoint: call.endpoint,
        attempts: call.attempts,
        ...(business?.code === undefined ? {} : { upstreamCode: redact(business.code) }),
      },
      ...(business?.path === undefined ? {} : { path: redact(business.path) }),
    },
  );
}

export function badResponse(
  reason: string,
  status: number,
  call: Attempted,
  redact: Redact,
): ReelayError {
  return new ReelayError(
    "upstream_bad_response",
    `The upstream answered ${site(call)} with ${redact(reason)}.`,
    {
      status,
      retryable: false,
      details: { endpoint: call.endpoint, attempts: call.attempts },
    },
  );
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** A safe summary of a thrown transport error and its cause chain: names, codes, redacted messages. */
function safeCause(error: unknown, redact: Redact, depth = 0): Error | undefined {
  if (!(error instanceof Error) || depth > 4) return undefined;
  const inner = safeCause((error as { cause?: unknown }).cause, redact, depth + 1);
  const copy = new Error(redact(error.message), inner === undefined ? undefined : { cause: inner });
  copy.name = error.name;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") (copy as Error & { code?: string }).code = code;
  return copy;
}

function causeText(error: unknown, redact: Redact): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === "string" ? `${current.message} (${code})` : current.message);
    current = (current as { cause?: unknown }).cause;
  }
  return redact(parts.filter((part) => part !== "").join(": ") || "unknown error");
}

/** A request that got no answer: timed out, reset, refused, DNS... */
export function transportError(
  error: unknown,
  call: Attempted & { timeoutMs: number; notAccepted?: boolean },
  redact: Redact,
): ReelayError {
  const tries = call.attempts > 1 ? ` (${call.attempts} attempts)` : "";
  const cause = safeCause(error, redact);
  const options = {
    retryable: true,
    details: {
      endpoint: call.endpoint,
      attempts: call.attempts,
      ...(call.notAccepted === true ? { notAccepted: true } : {}),
    },
    ...(cause === undefined ? {} : { cause }),
  };
  if (isTimeout(error)) {
    return new ReelayError(
      "upstream_timeout",
      `The upstream did not answer ${site(call)} within ${call.timeoutMs} ms${tries}.`,
      options,
    );
  }
  return new ReelayError(
    "upstream_network",
    `Could not reach the upstream for ${site(call)}${tries}: ${causeText(error, redact)}.`,
    options,
  );
}
