/**
 * Shape checking: runs a request schema and turns zod's issues into reelay Issues with our codes
 * and sentences a person understands; reports fields the schema does not define as warnings.
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { formatPath, isPlainObject, type Issues, listValues, shown, typeName } from "./issues.ts";

const expectedNames: Record<string, string> = {
  int: "a whole number",
  number: "a number",
  string: "a string",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  record: "an object",
};

/** The raw value at a path, own properties only (never the prototype chain). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function reportZodIssue(issue: z.core.$ZodIssue, raw: unknown, issues: Issues): void {
  const path = formatPath(issue.path);
  const field = `\`${path === "" ? "body" : path}\``;
  const value = valueAt(raw, issue.path);
  const present = value !== undefined || hasKey(raw, issue.path);
  switch (issue.code) {
    case "invalid_type": {
      const expected = expectedNames[issue.expected] ?? issue.expected;
      if (!present)
        issues.error(path, "missing_field", `${field} is required; it must be ${expected}.`);
      else
        issues.error(path, "invalid_type", `${field} must be ${expected}, got ${typeName(value)}.`);
      return;
    }
    case "invalid_value": {
      const allowed = issue.values.filter(
        (v): v is string | number => typeof v === "string" || typeof v === "number",
      );
      if (!present)
        issues.error(
          path,
          "missing_field",
          `${field} is required; allowed values: ${listValues(allowed)}.`,
        );
      else if (allowed.length > 0 && typeof value !== typeof allowed[0]) {
        issues.error(
          path,
          "invalid_type",
          `${field} must be a ${typeof allowed[0]} (${listValues(allowed)}), got ${typeName(value)}.`,
        );
      } else
        issues.error(
          path,
          "invalid_value",
          `${field} must be ${listValues(allowed)}, got ${shown(value)}.`,
        );
      return;
    }
    case "too_small":
    case "too_big": {
      const small = issue.code === "too_small";
      const bound = Number(
        small ? (issue as { minimum: unknown }).minimum : (issue as { maximum: unknown }).maximum,
      );
      if (issue.origin === "array") {
        const count = Array.isArray(value) ? value.length : 0;
        issues.error(
          path,
          small ? "too_few_items" : "too_many_items",
          `${field} must have ${small ? "at least" : "at most"} ${bound} item${bound === 1 ? "" : "s"}, got ${count}.`,
        );
      } else if (issue.origin === "string") {
        issues.error(path, "invalid_value", `${field} must not be empty.`);
      } else {
        issues.error(
          path,
          "out_of_range",
          `${field} must be ${small ? "at least" : "at most"} ${bound}, got ${String(value)}.`,
        );
      }
      return;
    }
    default:
      issues.error(path, "invalid_value", `${field} is not valid: ${issue.message}.`);
  }
}

function hasKey(root: unknown, path: readonly PropertyKey[]): boolean {
  const parent = valueAt(root, path.slice(0, -1));
  const last = path[path.length - 1];
  return (
    last !== undefined &&
    typeof parent === "object" &&
    parent !== null &&
    Object.hasOwn(parent, last)
  );
}

/** Walks the schema alongside the value and warns about keys the schema does not know. */
function warnUnknownKeys(
  schema: z.ZodType,
  value: unknown,
  path: PropertyKey[],
  issues: Issues,
): void {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault)
    inner = inner.unwrap() as z.ZodType;
  if (inner instanceof z.ZodObject && isPlainObject(value)) {
    const shape = inner.shape as Record<string, z.ZodType>;
    for (const key of Object.keys(value)) {
      const field = shape[key];
      if (field === undefined || !Object.hasOwn(shape, key)) {
        const where = formatPath([...path, key]);
        issues.warn(
          where,
          "unknown_field",
          `\`${where}\` is not a field of this request; it is left out.`,
        );
      } else warnUnknownKeys(field, value[key], [...path, key], issues);
    }
  } else if (inner instanceof z.ZodArray && Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      warnUnknownKeys(inner.element as z.ZodType, item, [...path, index], issues);
    }
  }
}

/** Parses `raw` with `schema`; returns the data, or undefined after reporting the shape errors. */
export function checkShape<T>(schema: z.ZodType<T>, raw: unknown, issues: Issues): T | undefined {
  warnUnknownKeys(schema, raw, [], issues);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) reportZodIssue(issue, raw, issues);
  return undefined;
}
