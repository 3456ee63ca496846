import { createHash } from "node:crypto";
import { ulid } from "ulid";
import { idPattern, idPatternSource } from "../ids.ts";
import type { JobKind } from "./types.ts";

const PREFIX: Record<JobKind, string> = { video: "vidtsk", image: "imgtsk" };
/** Every job id starts with one of these and "_" (the stack scopes table access by it). */
export const JOB_ID_PREFIXES: readonly string[] = Object.values(PREFIX);
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** `vidtsk_<ulid>` or `imgtsk_<ulid>`: sortable by creation time. */
export function newJobId(kind: JobKind): string {
  return `${PREFIX[kind]}_${ulid()}`;
}

/**
 * A job id fixed by its origin (e.g. bucket, key, etag, line of a drop), so the same input seen twice
 * names the same job and the conditional create refuses the second. Same shape as a ulid: 26
 * Crockford base32 characters, here taken from a sha256 of the parts.
 */
export function jobIdFrom(kind: JobKind, parts: readonly (string | number)[]): string {
  return `${PREFIX[kind]}_${ulidShapeFrom(parts)}`;
}

/** 26 Crockford base32 characters (a ulid's shape) from a sha256 of the parts. */
export function ulidShapeFrom(parts: readonly (string | number)[]): string {
  const digest = createHash("sha256")
    .update(JSON.stringify(parts.map(String)))
    .digest();
  let out = "";
  for (let i = 0; i < 26; i += 1) {
    const bit = i * 5;
    const byte = bit >> 3;
    const value = (((digest[byte] ?? 0) << 8) | (digest[byte + 1] ?? 0)) >> (11 - (bit & 7));
    out += CROCKFORD[value & 31];
  }
  return out;
}

/** A job id as a pattern source, for patterns that hold one (e.g. a listing's sort key). */
export const JOB_ID_SOURCE = idPatternSource(JOB_ID_PREFIXES);
const ID_PATTERN = idPattern(JOB_ID_PREFIXES);

export function isJobId(value: string): boolean {
  return ID_PATTERN.test(value);
}
