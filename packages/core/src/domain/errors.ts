/**
 * One error type for every layer. The API, the CLI, rejected drops and the state machine all
 * report the same stable `code`, so a user can search for it and a script can branch on it. Codes
 * come from the registry (error-codes.ts), which also gives each its usual status and retryability.
 */
import { type ErrorCode, errorCodeInfo, type RelayedCode } from "./error-codes.ts";

/** A problem with one field of a request: an error (the request is refused) or a warning. */
export interface Issue {
  /** Field path as a person would write it, e.g. `frame_images[1].frame_type`; "" for the whole body. */
  path: string;
  /** Stable machine-readable code, e.g. `duration_not_allowed`. */
  code: ErrorCode;
  /** A sentence a person understands, naming the allowed values where there are any. */
  message: string;
}

export interface ReelayErrorOptions {
  path?: string;
  /** True when the same call may succeed if tried again later (429, 5xx, network); the code's by default. */
  retryable?: boolean;
  /** HTTP status this error maps to on reelay's own API, or the upstream's status; the code's by default. */
  status?: number;
  /** Extra structured data that is safe to show (never secrets). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class ReelayError extends Error {
  readonly code: ErrorCode | RelayedCode;
  readonly path: string | undefined;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode | RelayedCode, message: string, options: ReelayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const info = errorCodeInfo(code);
    this.name = "ReelayError";
    this.code = code;
    this.path = options.path;
    this.retryable = options.retryable ?? info?.retryable ?? false;
    this.status = options.status ?? info?.status;
    this.details = options.details;
  }

  toJSON(): { code: string; message: string; path?: string; retryable: boolean } {
    return {
      code: this.code,
      message: this.message,
      ...(this.path === undefined ? {} : { path: this.path }),
      retryable: this.retryable,
    };
  }
}

/** Whether `value` is a ReelayError, and when a code is given, one with that code. */
export function isReelayError(value: unknown): value is ReelayError;
export function isReelayError<Code extends ErrorCode>(
  value: unknown,
  code: Code,
): value is ReelayError & { readonly code: Code };
export function isReelayError(value: unknown, code?: ErrorCode): boolean {
  return value instanceof ReelayError && (code === undefined || value.code === code);
}

/** The most of a caller's own text (an id, a path) an error message repeats: enough to recognise it. */
const SHOWN_INPUT_CHARS = 64;

/**
 * A caller-chosen text as an error message repeats it: cut to `max` characters (marked "..."), and
 * quoted, so control characters are escaped and where it ends is plain. An answer never carries a
 * long text back whole, however long the id in the URL.
 */
export function shownInput(raw: string, max = SHOWN_INPUT_CHARS): string {
  return JSON.stringify(raw.length > max ? `${raw.slice(0, max)}...` : raw);
}

/**
 * 400 `invalid_request` for a request with these issues: the first one's message and path, all in
 * details. A model past its sunset answers `model_sunset` instead, a code a client can act on.
 */
export function invalidRequest(errors: Issue[]): ReelayError {
  const [first] = errors;
  const more = errors.length > 1 ? ` (+${errors.length - 1} more)` : "";
  return new ReelayError(
    first?.code === "model_sunset" ? "model_sunset" : "invalid_request",
    `${first?.message ?? "The request is not valid."}${more}`,
    {
      status: 400,
      ...(first === undefined ? {} : { path: first.path }),
      details: { errors },
    },
  );
}
