/**
 * Why a job failed, in classes a user can act on, and whether sending the same request again can
 * help: a content-policy refusal or an invalid request never succeeds unchanged (retrying it is
 * money thrown away); a rate limit, a transient upstream fault or a timeout may.
 */
export const FAILURE_CLASSES = [
  "invalid_request",
  "content_policy",
  "rate_limited",
  "upstream_transient",
  "upstream_failed",
  "timeout",
  "queue_timeout",
  "budget_exceeded",
  "output_unavailable",
  "internal",
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

const RETRYABLE: Record<FailureClass, boolean> = {
  invalid_request: false,
  content_policy: false,
  rate_limited: true,
  upstream_transient: true,
  upstream_failed: true,
  timeout: true,
  queue_timeout: true,
  // The same request goes through once the budget has room (a new period, a raised budget).
  budget_exceeded: true,
  output_unavailable: true,
  internal: true,
};

const BY_CODE: Record<string, FailureClass> = {
  upstream_rejected: "invalid_request",
  upstream_not_found: "invalid_request",
  invalid_request: "invalid_request",
  upstream_rate_limited: "rate_limited",
  upstream_unavailable: "upstream_transient",
  upstream_timeout: "upstream_transient",
  upstream_network: "upstream_transient",
  upstream_bad_response: "upstream_transient",
  step_failed: "upstream_transient",
  step_timeout: "upstream_transient",
  start_failed: "upstream_transient",
  upstream_auth: "internal",
  upstream_task_failed: "upstream_failed",
  // The upstream made (and billed) a file that is broken or not what was asked.
  output_invalid: "upstream_failed",
  output_mismatch: "upstream_failed",
  timeout: "timeout",
  queue_timeout: "queue_timeout",
  budget_exceeded: "budget_exceeded",
  output_not_ready: "output_unavailable",
  output_missing: "output_unavailable",
  output_unavailable: "output_unavailable",
  download_unavailable: "output_unavailable",
  download_failed: "output_unavailable",
  download_truncated: "output_unavailable",
  output_too_large: "output_unavailable",
  output_content_type: "output_unavailable",
  too_many_redirects: "output_unavailable",
  url_forbidden: "output_unavailable",
  object_too_large: "output_unavailable",
};

/** Upstreams name a moderation refusal in their own words; these are the ones in use. */
const CONTENT_POLICY =
  /content[\s_-]?polic|moderat|sensitive|safety|nsfw|inappropriate|prohibited/i;

/** The class of a failure from its code and message (an upstream's own code or words included). */
export function failureClassOf(error: { code: string; message: string }): FailureClass {
  if (CONTENT_POLICY.test(error.code) || CONTENT_POLICY.test(error.message))
    return "content_policy";
  return (
    BY_CODE[error.code] ?? (error.code.startsWith("upstream_") ? "upstream_failed" : "internal")
  );
}

export function isRetryableClass(failureClass: FailureClass): boolean {
  return RETRYABLE[failureClass];
}
