/**
 * Every failure the client reports is a ReelayError: the API's refusal with its stable `code`,
 * `message`, field `path` and `status`; a job that ended failed or cancelled, with the job's
 * failure `class` and `retryable` flag; or `api_unreachable` when nothing answered. A script
 * branches on `code` (the codes are listed in reelay's docs/error-codes.md) and retries when
 * `retryable` says the same call may succeed later.
 */

/** One problem with one field of a request (a validation error or warning). */
export interface Issue {
  path: string;
  code: string;
  message: string;
}

export interface ReelayErrorOptions {
  status?: number | undefined;
  path?: string | undefined;
  retryable?: boolean | undefined;
  class?: string | undefined;
  errors?: Issue[] | undefined;
  /** The rest of the error body (a scope, a job id, a budget): what the API chose to show. */
  details?: Record<string, unknown> | undefined;
  cause?: unknown;
}

export class ReelayError extends Error {
  override readonly name = "ReelayError";
  readonly code: string;
  /** The HTTP status of the answer; undefined when there was none (network, a failed job). */
  readonly status: number | undefined;
  /** The request field at fault, when one is (e.g. `duration_sec`). */
  readonly path: string | undefined;
  /** Whether the same call (or the same request as a new job) may succeed if tried again later. */
  readonly retryable: boolean;
  /** A failed job's failure class (`invalid_request`, `content_policy`, `rate_limited`, ...). */
  readonly class: string | undefined;
  /** Every validation error of an `invalid_request`. */
  readonly errors: Issue[];
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, options: ReelayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.path = options.path;
    this.retryable = options.retryable ?? false;
    this.class = options.class;
    this.errors = options.errors ?? [];
    this.details = options.details ?? {};
  }
}

export function isReelayError(value: unknown): value is ReelayError {
  return value instanceof ReelayError;
}

/** A 429 or a 5xx may pass when tried again; any other refusal will not, unchanged. */
function retryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

type Body = { error?: Record<string, unknown> };

/** The error a non-2xx answer stands for: reelay's `{error: {...}}` body, or the status alone. */
export async function errorFromResponse(response: Response): Promise<ReelayError> {
  const text = await response.text().catch(() => "");
  let body: Body = {};
  try {
    body = JSON.parse(text) as Body;
  } catch {
    // Not reelay answering (a proxy, another server on the port): the status alone says it.
  }
  const {
    code,
    message,
    path,
    retryable,
    class: failureClass,
    errors,
    ...details
  } = body.error ?? {};
  return new ReelayError(
    typeof code === "string" ? code : `http_${response.status}`,
    typeof message === "string" ? message : `${response.url} answered HTTP ${response.status}.`,
    {
      status: response.status,
      path: typeof path === "string" ? path : undefined,
      retryable: typeof retryable === "boolean" ? retryable : retryableStatus(response.status),
      class: typeof failureClass === "string" ? failureClass : undefined,
      errors: Array.isArray(errors) ? (errors as Issue[]) : [],
      details,
    },
  );
}

/** Nothing answered at `baseUrl` (refused, reset, DNS): worth trying again. */
export function unreachable(baseUrl: string, cause: unknown): ReelayError {
  const reason =
    (cause as { cause?: { code?: unknown } })?.cause?.code ??
    (cause instanceof Error ? cause.message : String(cause));
  return new ReelayError("api_unreachable", `reelay did not answer at ${baseUrl} (${reason}).`, {
    retryable: true,
    details: { reason },
    cause,
  });
}
