/**
 * Every error leaves the API as `{error: {code, message, path?}}`. Statuses: a ReelayError says its
 * own (client mistakes default to 400); trouble reaching DynamoDB/S3/Step Functions is 503 so a
 * client retries; only a real bug is 500, and its message is not shown.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ErrorCode, ReelayError, type RelayedCode, relayedCode } from "@reelay/core/domain";

export interface ErrorBody {
  error: { code: string; message: string; path?: string; [extra: string]: unknown };
  [extra: string]: unknown;
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export function errorBody(
  code: ErrorCode | RelayedCode,
  message: string,
  extra: { path?: string | undefined } & Record<string, unknown> = {},
): ErrorBody {
  const { path, ...rest } = extra;
  return {
    error: { ...rest, code, message, ...(path === undefined || path === "" ? {} : { path }) },
  };
}

export function sendError(
  c: Context,
  status: ContentfulStatusCode,
  body: ErrorBody,
  headers: Record<string, string> = {},
): Response {
  return c.json(body, status, status === 503 ? { "Retry-After": "5", ...headers } : headers);
}

function statusOf(error: ReelayError): ContentfulStatusCode {
  const status = error.status;
  if (status !== undefined && Number.isInteger(status) && status >= 400 && status <= 599)
    return status as ContentfulStatusCode;
  return error.retryable ? 503 : 400;
}

/** An AWS SDK fault or a dropped connection: the service behind us is in trouble, not the caller. */
function isDependencyTrouble(error: unknown): boolean {
  const e = error as {
    $metadata?: unknown;
    $fault?: unknown;
    code?: unknown;
    cause?: { code?: unknown };
    name?: unknown;
  };
  if (e === null || typeof e !== "object") return false;
  if (e.$metadata !== undefined || e.$fault !== undefined) return true;
  if (e.name === "TimeoutError") return true;
  return [e.code, e.cause?.code].some(
    (code) => typeof code === "string" && NETWORK_CODES.has(code),
  );
}

const HTTP_CODES: Partial<Record<number, ErrorCode>> = {
  400: "bad_request",
  401: "unauthorized",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
};

const consoleReport = (message: string, error: unknown) => console.error(message, error);

/** app.onError: the one place a thrown error becomes a response; a bug goes to `report` too. */
export function handleError(error: Error, c: Context, report = consoleReport): Response {
  if (error instanceof ReelayError) {
    const status = statusOf(error);
    // details are "safe to show" by ReelayError's contract: validation issues, the job id, etc.
    return sendError(
      c,
      status,
      errorBody(error.code, error.message, { ...error.details, path: error.path }),
    );
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    return sendError(
      c,
      status,
      errorBody(
        HTTP_CODES[status] ?? relayedCode(`http_${status}`),
        error.message || "The request was refused.",
      ),
    );
  }
  if (isDependencyTrouble(error)) {
    return sendError(
      c,
      503,
      errorBody(
        "service_unavailable",
        "A storage or workflow service reelay depends on did not answer; try again shortly.",
      ),
    );
  }
  // A bug: say so without echoing internals to the caller, and keep the detail for the operator.
  report("reelay api: unhandled error", error);
  return sendError(
    c,
    500,
    errorBody("internal_error", "reelay hit an unexpected error; the request may be retried."),
  );
}
