/**
 * A request's fingerprint, and the rule for a repeated idempotency key: the same key with a different
 * request is a conflict, never a second job and never the first job passed off as the answer.
 */
import { createHash } from "node:crypto";
import { ReelayError } from "../errors.ts";
import type { Job, JobKind } from "./types.ts";

const SIGNED_QUERY = /[?&]x-amz-(signature|credential|security-token)=/i;

/** Object keys sorted at every level, and presigned URLs without their query (it changes per signing). */
export function canonical(value: unknown): unknown {
  if (typeof value === "string")
    return SIGNED_QUERY.test(value) ? value.slice(0, value.indexOf("?")) : value;
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * The fingerprint of a request: sha256 of its kind and normalized form, so two bodies that mean the
 * same job (keys reordered, a default spelled out) match and any real difference does not.
 */
export function requestHashOf(kind: JobKind, normalized: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([kind, canonical(normalized)]))
    .digest("hex");
}

/** `idempotency_conflict` (409) when the key's first job was made from a different request. */
export function assertSameRequest(
  job: Pick<Job, "id" | "requestHash">,
  requestHash: string,
  key: string,
): void {
  // A record with no request hash (written by a reelay that did not store one) keeps the first answer.
  if (job.requestHash === undefined || job.requestHash === requestHash) return;
  throw new ReelayError(
    "idempotency_conflict",
    `X-Idempotency-Key "${key}" was already used for a different request (job ${job.id}). Send the same request to get that job, or use a new key for a new one.`,
    { status: 409, path: "X-Idempotency-Key", details: { task_id: job.id } },
  );
}
