/**
 * Request shapes of the service contract (§2.1-2.4 video, §2.6 image). These describe shape only;
 * the per-model rules live in the catalog and validate/. They are plain zod objects with
 * descriptions because the OpenAPI document is generated from them, built at their first use: zod's
 * constructors over every field would otherwise run at every cold start, also in the functions
 * that never parse a request (Poll, Download, ...).
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { onFirstUse } from "../on-first-use.ts";

function frameImageSchema() {
  return z
    .object({
      type: z.literal("image_url").describe("Fixed value `image_url`."),
      frame_type: z.enum(["first_frame", "last_frame"]).describe("`first_frame` or `last_frame`."),
      image_url: z
        .object({
          url: z.string().describe("Public HTTPS image URL, or `asset://vidast_<asset_id>`."),
        })
        .describe("The frame image."),
    })
    .describe("A first or last frame image (§2.2).");
}

function inputReferenceSchema() {
  return z
    .object({
      type: z
        .enum(["image_url", "video_url", "audio_url"])
        .describe(
          "`image_url` or `video_url` (§2.3); `audio_url` for models that take audio references (§4.8 beta, alpha-2.7).",
        ),
      image_url: z
        .object({ url: z.string().describe("HTTPS or `asset://vidast_<asset_id>`.") })
        .optional()
        .describe("Required when type is `image_url`."),
      video_url: z
        .string()
        .optional()
        .describe("Required when type is `video_url`; HTTPS or `asset://vidast_<asset_id>`."),
      audio_url: z.string().optional().describe("Required when type is `audio_url`; HTTPS."),
      object_id: z
        .string()
        .optional()
        .describe(
          "Images of the same subject carry the same id; the prompt may cite `@<object_id>`.",
        ),
      reference_type: z
        .string()
        .optional()
        .describe(
          "Reference semantics: asset/style (mu), subject/background (eta), feature/base (lambda, video).",
        ),
    })
    .describe("A reference image, video or audio (§2.3).");
}

function providerSchema() {
  return z
    .object({
      raw_passthrough: z.boolean().optional().describe("Does not take part in create mapping."),
    })
    .describe("Provider options (§2.1).");
}

function modelSpecificConfigSchema() {
  return z
    .record(z.string(), z.unknown())
    .describe("Model-specific keys from the model's allow-list; `logo_add` is unsupported.");
}

function buildVideoRequestSchema() {
  return z
    .object({
      model: z.string().min(1).describe("Video model code."),
      prompt: z
        .string()
        .optional()
        .describe("Required when neither frame_images nor input_references is given."),
      duration_sec: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe("Seconds. Default 5, bounded by the model."),
      resolution: z.string().optional().describe("e.g. 480p, 720p, 1080p (some models 540p, 4k)."),
      aspect_ratio: z.string().optional().describe("e.g. 16:9, 9:16, 1:1 (more per model)."),
      generate_audio: z.boolean().optional().describe("Default false (kappa: true)."),
      frame_images: z.array(frameImageSchema()).optional().describe("First/last frame images."),
      input_references: z
        .array(inputReferenceSchema())
        .optional()
        .describe("Reference images, videos or audio."),
      model_specific_config: modelSpecificConfigSchema().optional(),
      provider: providerSchema().optional(),
    })
    .describe("Create a video generation task (§2.1).");
}

function imageMessageSchema() {
  return z
    .object({
      role: z.string().min(1).describe("Message role, e.g. user."),
      content: z.string().describe("The prompt."),
    })
    .describe("A chat message carrying the prompt.");
}

function referenceImageSchema() {
  return z
    .object({
      type: z.literal("url").describe("Fixed value `url`."),
      url: z.string().describe("Publicly reachable HTTPS image URL."),
      text: z.string().describe("The role of the image, e.g. 'the product to place'."),
    })
    .describe("A reference image for generation or editing (§2.6, §4.5).");
}

function imageConfigSchema() {
  return z
    .object({
      image_size: z.string().optional().describe("For deltaq2-image: 1080p, 2K or 4K."),
      aspect_ratio: z
        .string()
        .optional()
        .describe("Commonly auto, 16:9, 9:16, 1:1, 3:4, 4:3, 21:9, 2:3, 3:2."),
      output_format: z.literal("url").optional().describe("`url` is used."),
      reference_images: z
        .array(referenceImageSchema())
        .min(1)
        .max(7)
        .optional()
        .describe("1 to 7 reference images."),
      custom_size: z.unknown().optional().describe("Unsupported; use image_size."),
    })
    .describe("Image options (§2.6).");
}

function buildImageRequestSchema() {
  return z
    .object({
      model: z.string().min(1).describe("Image model code."),
      messages: z
        .array(imageMessageSchema())
        .min(1)
        .describe("Items with role and string content (the prompt)."),
      modalities: z.array(z.string()).describe("Must contain `image`; commonly [image, text]."),
      stream: z.boolean().optional().describe("Must be false or omitted."),
      image_config: imageConfigSchema().optional(),
      model_specific_config: modelSpecificConfigSchema().optional(),
      output_image_count: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe("Images per call, default 1."),
    })
    .describe("Generate or edit images through the chat form (§2.6).");
}

/** The video request body (§2.1): the one validate() parses with and the OpenAPI document shows. */
export const videoRequestSchema = onFirstUse(buildVideoRequestSchema);
/** The image request body (§2.6). */
export const imageRequestSchema = onFirstUse(buildImageRequestSchema);

export type FrameImage = z.infer<ReturnType<typeof frameImageSchema>>;
export type InputReference = z.infer<ReturnType<typeof inputReferenceSchema>>;
export type VideoRequest = z.infer<ReturnType<typeof buildVideoRequestSchema>>;
export type ImageRequest = z.infer<ReturnType<typeof buildImageRequestSchema>>;
