/**
 * The version of the shape of everything reelay stores: the jobs table's items and the objects it
 * writes for people and tools to read (a job's job.json, a batch's results.jsonl, a rejected drop's
 * .error.json). One number for all of them, not one per kind: a release either changes what it
 * stores or it does not, the CHANGELOG names the one number, and "which release can read this
 * data" is one comparison.
 *
 * Version 1 is 0.1.0's shape, which carries no version: an item or object without one is version
 * 1. Version 2 is version 1 with the version written on it. A reader accepts the current version
 * and the previous one (the release before, whose items and step inputs are still about while an
 * upgrade finishes) and refuses anything else with `schema_version_unsupported`: an item written by
 * a newer release is never read as if it were this one's.
 */
import { ReelayError } from "./errors.ts";

export const SCHEMA_VERSION = 2;
/** What a stored item or object without a version is: 0.1.0's shape. */
const UNVERSIONED_SCHEMA = 1;
/** The oldest version this release reads. */
const OLDEST_READABLE_SCHEMA = SCHEMA_VERSION - 1;

/** The attribute on the jobs table's items (their attributes are camelCase). */
export const ITEM_VERSION_ATTRIBUTE = "schemaVersion";
/** The field on the objects whose fields are snake_case (results.jsonl lines, .error.json). */
export const OBJECT_VERSION_FIELD = "schema_version";

/**
 * The version `value` (an item's attribute or an object's field, named by `field`) says, once
 * checked readable. `what` names the item or object in the error, never its content.
 */
export function readableVersion(
  value: unknown,
  what: string,
  field: string = ITEM_VERSION_ATTRIBUTE,
): number {
  if (value === undefined || value === null) return UNVERSIONED_SCHEMA;
  if (
    typeof value === "number" &&
    Number.isInteger(value) &&
    value >= OLDEST_READABLE_SCHEMA &&
    value <= SCHEMA_VERSION
  )
    return value;
  const shown = typeof value === "number" ? String(value) : `a ${typeof value}`;
  throw new ReelayError(
    "schema_version_unsupported",
    `${what} has schema version ${shown}; this release of reelay reads versions ${OLDEST_READABLE_SCHEMA} to ${SCHEMA_VERSION}. It was written by another release: upgrade to a release that reads it (the CHANGELOG says which) or run that release's migration.`,
    { path: field },
  );
}
