/**
 * X-Idempotency-Key on reelay's own API. The job id is derived from (caller, key), so a repeat finds
 * the first job through the conditional create, concurrent repeats included (the conflict rule for
 * a repeat with another request is core's domain/jobs/request-hash.ts). The derived id (not the
 * caller's raw key) is what goes upstream as the idempotency key: two callers who happen to pick the
 * same key must never share an upstream task.
 */
import { jobIdFrom, type JobKind, ReelayError } from "@reelay/core/domain";

export const IDEMPOTENCY_HEADER = "x-idempotency-key";
const MAX_KEY_LENGTH = 255;

/** The trimmed key, undefined when none was sent; `invalid_idempotency_key` for an unusable one. */
export function readIdempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const key = value.trim();
  if (key === "" || key.length > MAX_KEY_LENGTH) {
    throw new ReelayError(
      "invalid_idempotency_key",
      `X-Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`,
      {
        status: 400,
        path: "X-Idempotency-Key",
      },
    );
  }
  return key;
}

export function idempotentJobId(kind: JobKind, keyId: string, key: string): string {
  return jobIdFrom(kind, ["api", keyId, key]);
}
