/**
 * The operator's word on the catalog's names: aliases (REELAY_MODEL_ALIASES, `{alias: model}`) and
 * each model's lifecycle (REELAY_MODEL_LIFECYCLE, `{model: {deprecated_at, sunset_at, successor}}`).
 * Each is read as JSON here; checkModelSettings then holds them against the catalog, so an alias
 * to an unknown model, or one that hides a real model code, stops the process as it starts.
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all of it).
import * as z from "zod";
import type { ErrorCode } from "../error-codes.ts";
import { ReelayError, shownInput } from "../errors.ts";
import { formatPath } from "../validate/issues.ts";
import { onFirstUse } from "../on-first-use.ts";
import type { ModelLifecycle, ModelSpec } from "./types.ts";

export interface ModelSettings {
  /** Alias to model code; over the built-in aliases. */
  aliases: Record<string, string>;
  /** Model code to its lifecycle; over what the model's own entry says. */
  lifecycle: Record<string, ModelLifecycle>;
}

export const NO_MODEL_SETTINGS: ModelSettings = { aliases: {}, lifecycle: {} };

/** An ISO date (`2027-01-31`) or date and time with its offset (`2027-01-31T00:00:00Z`). */
const isoTime = onFirstUse(() =>
  z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: "must be an ISO date or date-time, e.g. 2027-01-31 or 2027-01-31T00:00:00Z",
  }),
);

/** The three lifecycle fields, shared by a catalog file's model entry and REELAY_MODEL_LIFECYCLE. */
export function lifecycleFields() {
  return {
    deprecated_at: isoTime().optional(),
    sunset_at: isoTime().optional(),
    successor: z.string().min(1).optional(),
  };
}

const aliasesSchema = onFirstUse(() => z.record(z.string().min(1), z.string().min(1)));
const lifecycleSchema = onFirstUse(() =>
  z.record(z.string().min(1), z.strictObject(lifecycleFields())),
);

function parseJson<T>(text: string, origin: string, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ReelayError("invalid_config", `${origin} is not valid JSON.`, {
      path: origin,
      cause: error,
    });
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = formatPath(issue?.path ?? []);
  throw new ReelayError(
    "invalid_config",
    `${origin}${where === "" ? "" : ` at ${where}`}: ${issue?.message ?? "invalid"}.`,
    { path: where === "" ? origin : `${origin}.${where}` },
  );
}

/** REELAY_MODEL_ALIASES: a JSON object of alias to model code. */
export function parseModelAliases(text: string, origin: string): Record<string, string> {
  return parseJson(text, origin, aliasesSchema());
}

/** REELAY_MODEL_LIFECYCLE: a JSON object of model code to `{deprecated_at, sunset_at, successor}`. */
export function parseModelLifecycle(text: string, origin: string): Record<string, ModelLifecycle> {
  return parseJson(text, origin, lifecycleSchema()) as Record<string, ModelLifecycle>;
}

/** Where a bad name came from, so the error names the setting (or the catalog file) to fix. */
interface Origin {
  code: ErrorCode;
  path: string;
}

function refuse(origin: Origin, key: string, message: string): never {
  throw new ReelayError(origin.code, message, { path: `${origin.path}.${key}` });
}

/** The aliases against the catalog: each names a model, and none hides a model code. */
export function checkAliases(
  aliases: Record<string, string>,
  get: (code: string) => ModelSpec | undefined,
  origin: Origin,
): void {
  for (const [alias, model] of Object.entries(aliases)) {
    const shadowed = get(alias);
    if (shadowed !== undefined)
      refuse(
        origin,
        alias,
        `${origin.path}: the alias ${shownInput(alias)} is also a model code (${shadowed.code}); an alias may not hide a model. Pick another name.`,
      );
    if (get(model) === undefined)
      refuse(
        origin,
        alias,
        `${origin.path}: the alias ${shownInput(alias)} names ${shownInput(model)}, which is not a model in the catalog.`,
      );
  }
}

/** A lifecycle against the catalog: a known model, a known successor other than itself, dates in order. */
export function checkLifecycle(
  model: string,
  lifecycle: ModelLifecycle,
  get: (code: string) => ModelSpec | undefined,
  origin: Origin,
): void {
  if (get(model) === undefined)
    refuse(origin, model, `${origin.path}: ${shownInput(model)} is not a model in the catalog.`);
  const { successor, deprecated_at, sunset_at } = lifecycle;
  if (successor !== undefined && (get(successor) === undefined || successor === model))
    refuse(
      origin,
      model,
      `${origin.path}: the successor of ${model}, ${shownInput(successor)}, must be another model in the catalog.`,
    );
  if (
    deprecated_at !== undefined &&
    sunset_at !== undefined &&
    Date.parse(sunset_at) < Date.parse(deprecated_at)
  )
    refuse(origin, model, `${origin.path}: ${model}'s sunset_at is before its deprecated_at.`);
}
