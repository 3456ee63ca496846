/**
 * The shape of reelay's ids: a prefix, "_", then 26 Crockford base32 characters (a ulid, or a
 * digest in a ulid's shape). One definition for jobs, keys and batches, and for the routes that
 * check an id before looking it up.
 */
const ULID_SHAPE = "[0-9A-HJKMNP-TV-Z]{26}";

/** The pattern (unanchored source) of an id with one of these prefixes. */
export function idPatternSource(prefixes: readonly string[]): string {
  return `(?:${prefixes.join("|")})_${ULID_SHAPE}`;
}

/** An anchored test for an id with one of these prefixes. */
export function idPattern(prefixes: readonly string[]): RegExp {
  return new RegExp(`^${idPatternSource(prefixes)}$`);
}
