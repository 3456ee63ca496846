import type { Issues } from "./issues.ts";

/**
 * A job record carries its request, and DynamoDB refuses an item over 400 KB (counted in UTF-8
 * bytes; dynalite counts otherwise, so the limit is checked here rather than found there as a 503).
 * 256 KiB leaves the rest of the record room for its history, warnings, outputs and error.
 */
export const MAX_REQUEST_BYTES = 256 * 1024;

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/** `request_too_large` at the largest top-level field when the normalized request (and its warnings, stored with it) do not fit. */
export function checkRequestSize(normalized: object, issues: Issues): void {
  const total = bytesOf(normalized) + bytesOf(issues.warnings);
  if (total <= MAX_REQUEST_BYTES) return;
  const [largest = ""] =
    Object.entries(normalized)
      .map(([field, value]) => [field, bytesOf(value)] as const)
      .sort((a, b) => b[1] - a[1])[0] ?? [];
  issues.error(
    largest,
    "request_too_large",
    `The request is ${total} bytes as JSON (most of it in \`${largest}\`); at most ${MAX_REQUEST_BYTES} bytes fit in a job. Shorten it.`,
  );
}
