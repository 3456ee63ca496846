/**
 * validate(): everything reelay can know about a request before any money is spent. It never
 * throws: whatever arrives, the answer is a ValidationResult.
 */
import { defaultCatalog } from "../catalog/catalog.ts";
import type { Catalog, ImageMode, Kind, ModelSpec, VideoMode } from "../catalog/types.ts";
import {
  type ModelChoice,
  type ModelChoiceOptions,
  resolveRequestModel,
} from "../catalog/resolve-request.ts";
import { imageRequestSchema, videoRequestSchema } from "../contract/schemas.ts";
import type { Issue } from "../errors.ts";
import type { JobRequest } from "../jobs/request.ts";
import { type Adjustment, type FitMode, fitRequest } from "./fit.ts";
import { checkImage, detectImageMode } from "./image.ts";
import { Issues, isPlainObject, listValues, typeName } from "./issues.ts";
import { checkShape } from "./shape.ts";
import { checkRequestSize } from "./size.ts";
import { checkVideo } from "./video.ts";
import { detectVideoMode } from "./video-mode.ts";

export { ValidationCodes } from "./codes.ts";

export interface ValidationResult extends ModelChoice {
  valid: boolean;
  kind: Kind | null;
  /** video: text | first_frame | first_last_frame | reference | video_edit; image: text | edit. */
  mode: VideoMode | ImageMode | null;
  model: string | null;
  errors: Issue[];
  warnings: Issue[];
  /** The request with defaults filled in and unknown fields left out; null when invalid. */
  normalized: JobRequest | null;
  /**
   * With fit: the values fit moved, none when the request was valid as asked; absent without fit,
   * and when fitting could not make the request valid (it is then refused as asked).
   */
  adjustments?: Adjustment[];
}

export interface ValidateOptions extends ModelChoiceOptions {
  catalog?: Catalog;
  /** "nearest": refused durations, resolutions and ratios move to the nearest allowed (fit.ts). */
  fit?: FitMode | undefined;
}

/** Image when the body has the chat form's fields or names an image model; else video. */
function detectKind(body: Record<string, unknown>, spec: ModelSpec | undefined): Kind {
  if (Object.hasOwn(body, "messages") || Object.hasOwn(body, "modalities")) return "image";
  return spec?.kind === "image" ? "image" : "video";
}

function lookUp(
  body: Record<string, unknown>,
  catalog: Catalog,
  issues: Issues,
): ModelSpec | undefined {
  const model = body.model;
  if (typeof model !== "string" || model === "") return undefined;
  const spec = catalog.get(model);
  if (spec === undefined) {
    const matches = catalog.closeMatches(model);
    const hint =
      matches.length > 0
        ? ` Did you mean ${listValues(matches)}?`
        : " List the models with `GET /v1/models`.";
    issues.error("model", "unknown_model", `Unknown model '${model.slice(0, 100)}'.${hint}`);
  }
  return spec;
}

function run(
  input: unknown,
  catalog: Catalog,
  issues: Issues,
): Omit<ValidationResult, "valid" | "errors" | "warnings"> {
  if (!isPlainObject(input)) {
    issues.error(
      "",
      "invalid_body",
      `The request body must be a JSON object, got ${typeName(input)}.`,
    );
    return { kind: null, mode: null, model: null, normalized: null };
  }
  const spec = lookUp(input, catalog, issues);
  const kind = detectKind(input, spec);
  const model = typeof input.model === "string" && input.model !== "" ? input.model : null;

  if (kind === "image") {
    const mode = detectImageMode(input);
    const req = checkShape(imageRequestSchema(), input, issues);
    if (spec !== undefined && spec.kind !== "image") {
      issues.error(
        "model",
        "model_kind_mismatch",
        `'${spec.code}' is a video model; the image form (messages, modalities) needs an image model such as ${listValues(catalog.list("image").map((s) => s.code))}.`,
      );
      return { kind, mode, model, normalized: null };
    }
    if (req === undefined || spec === undefined) return { kind, mode, model, normalized: null };
    return {
      kind,
      mode,
      model,
      normalized: checkImage(req, input.model_specific_config, spec, issues),
    };
  }

  const videoSpec = spec?.kind === "video" ? spec : undefined;
  const mode = detectVideoMode(input, videoSpec);
  const req = checkShape(videoRequestSchema(), input, issues);
  if (req === undefined || videoSpec === undefined) return { kind, mode, model, normalized: null };
  return {
    kind,
    mode,
    model,
    normalized: checkVideo(req, input.model_specific_config, videoSpec, mode, issues),
  };
}

/**
 * The request checked as asked; with fit, one refused as asked is fitted (fit.ts) and checked
 * again, and it is the fitted request that goes on when that one is valid. Otherwise the refusal
 * is the request's own, as without fit.
 */
export function validate(input: unknown, options: ValidateOptions = {}): ValidationResult {
  const asked = validateAsAsked(input, options);
  if (options.fit === undefined) return asked;
  if (asked.valid) return { ...asked, adjustments: [] };
  if (!isPlainObject(input) || typeof input.model !== "string") return asked;
  const spec = (options.catalog ?? defaultCatalog).get(input.model);
  if (spec === undefined) return asked;
  const fitted = fitRequest(input, spec);
  if (fitted.adjustments.length === 0) return asked;
  const result = validateAsAsked(fitted.request, options);
  return result.valid ? { ...result, adjustments: fitted.adjustments } : asked;
}

function validateAsAsked(input: unknown, options: ValidateOptions): ValidationResult {
  const issues = new Issues();
  let outcome: Omit<ValidationResult, "valid" | "errors" | "warnings">;
  try {
    const catalog = options.catalog ?? defaultCatalog;
    // The model asked for is resolved once, here: every later check and the job see the model run.
    const resolved = resolveRequestModel(input, catalog, options, issues);
    outcome = { ...run(resolved.input, catalog, issues), ...resolved.choice };
    if (issues.errors.length === 0 && outcome.normalized !== null)
      checkRequestSize(outcome.normalized, issues);
  } catch (error) {
    // A bug here must refuse the request, not crash the handler that called us.
    issues.error(
      "",
      "internal_error",
      `The request could not be validated (${error instanceof Error ? error.message.slice(0, 200) : "unknown error"}); it is refused.`,
    );
    outcome = { kind: null, mode: null, model: null, normalized: null };
  }
  const valid = issues.errors.length === 0;
  return {
    valid,
    ...outcome,
    errors: issues.errors,
    warnings: issues.warnings,
    normalized: valid ? outcome.normalized : null,
  };
}
