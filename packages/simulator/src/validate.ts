import { HttpError, isObject } from "./http-io.ts";
import { hasModel } from "./models.ts";
import type { ModelEntry } from "./types.ts";

function bad(code: string, message: string): HttpError {
  return new HttpError(400, code, message);
}

function requireModel(
  body: Record<string, unknown>,
  models: readonly ModelEntry[],
  modality: ModelEntry["modality"],
): string {
  const model = body.model;
  if (model === undefined || model === null || model === "")
    throw bad("model_required", "Field `model` is required");
  if (typeof model !== "string") throw bad("invalid_model", "Field `model` must be a string");
  if (!hasModel(models, model, modality)) {
    throw bad(
      "model_not_found",
      `Model \`${model}\` is not available for ${modality} generation on this account`,
    );
  }
  return model;
}

function nonEmptyArray(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}

export interface VideoCreate {
  body: Record<string, unknown>;
  model: string;
  prompt: string;
}

/** The create checks the upstream itself makes (section 7 of the interface), no more. */
export function validateVideoCreate(body: unknown, models: readonly ModelEntry[]): VideoCreate {
  if (!isObject(body)) throw bad("invalid_body", "Request body must be a JSON object");
  const model = requireModel(body, models, "video");
  const prompt = body.prompt;
  if (prompt !== undefined && typeof prompt !== "string")
    throw bad("invalid_prompt", "Field `prompt` must be a string");
  const hasMaterial = nonEmptyArray(body.frame_images) || nonEmptyArray(body.input_references);
  if ((prompt === undefined || prompt.trim() === "") && !hasMaterial) {
    throw bad(
      "prompt_required",
      "Field `prompt` is required when neither `frame_images` nor `input_references` is given",
    );
  }
  const msc = body.model_specific_config;
  if (msc !== undefined && !isObject(msc))
    throw bad("invalid_model_specific_config", "Field `model_specific_config` must be an object");
  if (msc !== undefined && "logo_add" in msc) {
    throw bad("unsupported_config_key", "`model_specific_config.logo_add` is not supported");
  }
  return { body, model, prompt: prompt ?? "" };
}

export interface ImageCreate {
  body: Record<string, unknown>;
  model: string;
  prompt: string;
  count: number;
}

const MAX_IMAGES = 10;

function imageCount(value: unknown, field: string): number {
  if (value === undefined || value === null) return 1;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_IMAGES) {
    throw bad(
      "invalid_image_count",
      `Field \`${field}\` must be an integer from 1 to ${MAX_IMAGES}`,
    );
  }
  return value;
}

function messagesPrompt(messages: unknown): string {
  if (!Array.isArray(messages) || messages.length === 0)
    throw bad("messages_required", "Field `messages` must be a non-empty array");
  const parts: string[] = [];
  for (const m of messages) {
    if (!isObject(m))
      throw bad(
        "invalid_messages",
        "Every item of `messages` must be an object with `role` and `content`",
      );
    if (typeof m.content === "string") parts.push(m.content);
    else if (Array.isArray(m.content)) {
      for (const p of m.content) if (isObject(p) && typeof p.text === "string") parts.push(p.text);
    }
  }
  return parts.join("\n");
}

/** Image generation through chat/completions (section 2.6). */
export function validateChatImage(body: unknown, models: readonly ModelEntry[]): ImageCreate {
  if (!isObject(body)) throw bad("invalid_body", "Request body must be a JSON object");
  const model = requireModel(body, models, "image");
  const modalities = body.modalities;
  if (!Array.isArray(modalities) || !modalities.includes("image")) {
    throw bad("invalid_modalities", 'Field `modalities` must contain "image"');
  }
  if (body.stream === true)
    throw bad("stream_unsupported", "Field `stream` must be false or omitted for image generation");
  const prompt = messagesPrompt(body.messages);
  const config = body.image_config;
  if (config !== undefined && !isObject(config))
    throw bad("invalid_image_config", "Field `image_config` must be an object");
  if (config !== undefined && "custom_size" in config) {
    throw bad(
      "unsupported_custom_size",
      "`image_config.custom_size` is unsupported; use `image_config.image_size`",
    );
  }
  const refs = config?.reference_images;
  if (refs !== undefined && (!Array.isArray(refs) || refs.length < 1 || refs.length > 7)) {
    throw bad("invalid_reference_images", "`image_config.reference_images` must hold 1 to 7 items");
  }
  return { body, model, prompt, count: imageCount(body.output_image_count, "output_image_count") };
}

/** images/edits, OpenAI-compatible multipart: 1-7 images, a prompt, an image model. */
export function validateImageEdit(form: FormData, models: readonly ModelEntry[]): ImageCreate {
  const images = [...form.getAll("image"), ...form.getAll("image[]")].filter(
    (v) => typeof v !== "string",
  );
  if (images.length < 1 || images.length > 7)
    throw bad("invalid_images", "Give 1 to 7 files in `image` / `image[]`");
  const prompt = form.get("prompt");
  if (typeof prompt !== "string" || prompt.trim() === "")
    throw bad("prompt_required", "Field `prompt` is required");
  const modelField = form.get("model");
  const model = requireModel(
    { model: typeof modelField === "string" ? modelField : undefined },
    models,
    "image",
  );
  const nField = form.get("n");
  const n = typeof nField === "string" && nField !== "" ? Number(nField) : undefined;
  const size = form.get("size");
  const responseFormat = form.get("response_format");
  const body = {
    model,
    prompt,
    n: n ?? 1,
    images: images.length,
    ...(typeof size === "string" ? { size } : {}),
    ...(typeof responseFormat === "string" ? { response_format: responseFormat } : {}),
  };
  return { body, model, prompt, count: imageCount(n, "n") };
}
