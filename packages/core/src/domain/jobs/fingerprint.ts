/**
 * A request's fingerprint for reuse (docs/api.md, reuse): sha256 over the model, the normalized request
 * (keys sorted and defaults applied, as validate() leaves it; reelay's own options such as priority
 * or reuse are never part of it) and each material's sha256 where reelay holds its bytes. Two jobs
 * with the same fingerprint asked the upstream for the same thing.
 *
 * A material reelay stored itself (an image edit's upload) is known by its bytes: its URL names a
 * per-job object, so the URL is replaced by `sha256:<hex>`. A material the caller linked is known
 * by its URL without a presigned query (request-hash.ts canonical()): reelay never fetched it.
 */
import { createHash } from "node:crypto";
import { canonical } from "./request-hash.ts";

/** Material URLs in the normalized request, each with the sha256 of the bytes behind it. */
export type MaterialDigests = ReadonlyMap<string, string>;

function withDigests(value: unknown, digests: MaterialDigests): unknown {
  if (typeof value === "string") {
    const sha256 = digests.get(value);
    return sha256 === undefined ? value : `sha256:${sha256}`;
  }
  if (Array.isArray(value)) return value.map((item) => withDigests(item, digests));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withDigests(item, digests)]),
    );
  return value;
}

/** The hex sha256 fingerprint of a validated request. */
export function fingerprintOf(
  request: { kind: string; model: string; normalized: unknown },
  digests: MaterialDigests = new Map(),
): string {
  const body = canonical(withDigests(request.normalized, digests));
  return createHash("sha256")
    .update(JSON.stringify(["fp1", request.kind, request.model, body]))
    .digest("hex");
}

/** Reuse stays within a project: another project's output is never handed out (keys/projects.ts). */
export function reuseScopeOf(source: {
  type: string;
  project?: string;
  apiKeyId?: string;
}): string {
  return source.project ?? source.apiKeyId ?? source.type;
}
