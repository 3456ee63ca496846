/**
 * A job's metadata: the caller's own string pairs (an order number, a customer reference), kept on
 * the job and its batch and shown back as given in its view, job.json, its terminal event and
 * webhooks, and its batch's results; `GET /v1/jobs?metadata.KEY=VALUE` lists by it. It is the
 * app's own data, so reelay neither reads nor hides it. Its limits keep a record, an event and a
 * listing filter small whatever a caller sends.
 */
import { ReelayError, shownInput } from "../errors.ts";

export const MAX_METADATA_PAIRS = 16;
export const MAX_METADATA_KEY = 40;
export const MAX_METADATA_VALUE = 500;

export type Metadata = Record<string, string>;

/** A key as a field path shows it: whole up to 64 characters, cut (marked "...") past that. */
function shownKey(key: string): string {
  return key.length > 64 ? `${key.slice(0, 64)}...` : key;
}

function invalidMetadata(message: string, path: string): ReelayError {
  return new ReelayError("invalid_metadata", message, { status: 400, path });
}

/** A key's refusal, or undefined when it is one: 1 to MAX_METADATA_KEY characters. */
export function metadataKeyProblem(key: string): string | undefined {
  if (key.length === 0) return "a metadata key is at least one character";
  if (key.length > MAX_METADATA_KEY)
    return `the metadata key ${shownInput(key)} is ${key.length} characters; at most ${MAX_METADATA_KEY}`;
  return undefined;
}

function checkedPair(key: string, value: unknown, field: string): [string, string] {
  const path = `${field}.${shownKey(key)}`;
  const keyProblem = metadataKeyProblem(key);
  if (keyProblem !== undefined) throw invalidMetadata(`${field}: ${keyProblem}.`, path);
  if (typeof value !== "string")
    throw invalidMetadata(
      `${field}: the value of ${shownInput(key)} must be a string, not ${value === null ? "null" : typeof value}.`,
      path,
    );
  if (value.length > MAX_METADATA_VALUE)
    throw invalidMetadata(
      `${field}: the value of ${shownInput(key)} is ${value.length} characters; at most ${MAX_METADATA_VALUE}.`,
      path,
    );
  return [key, value];
}

/** Refuses more than MAX_METADATA_PAIRS, naming the first key past the limit. */
function checkCount(keys: readonly string[], field: string): void {
  const over = keys[MAX_METADATA_PAIRS];
  if (over === undefined) return;
  throw invalidMetadata(
    `${field} holds at most ${MAX_METADATA_PAIRS} pairs; it has ${keys.length}, ${shownInput(over)} the first past the limit.`,
    `${field}.${shownKey(over)}`,
  );
}

/**
 * The metadata given at `field` (`metadata`, `X-Reelay-Metadata`), checked: an object of at most
 * MAX_METADATA_PAIRS string values, keys of 1 to MAX_METADATA_KEY characters, values of at most
 * MAX_METADATA_VALUE. A refusal is 400 `invalid_metadata` whose path names the key.
 */
export function checkMetadata(value: unknown, field: string): Metadata {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw invalidMetadata(
      `${field} must be a JSON object of string pairs, such as {"order": "42"}.`,
      field,
    );
  const entries = Object.entries(value as Record<string, unknown>);
  checkCount(
    entries.map(([key]) => key),
    field,
  );
  return Object.fromEntries(entries.map(([key, pair]) => checkedPair(key, pair, field)));
}

/**
 * A batch line's metadata: its own pairs laid over its batch's (a line's value wins for a key they
 * share); the result is held to the same limits, refused at `field`, the line's own field.
 */
export function mergedMetadata(
  batch: Metadata | undefined,
  line: Metadata,
  field: string,
): Metadata {
  const merged = { ...batch, ...line };
  checkCount(Object.keys(merged), field);
  return merged;
}
