/**
 * The JSON a user writes to add or override models: `{ "models": [ ...model specs ] }`, each spec in
 * the same shape as the built-in family files (see types.ts). Optional parts get the same neutral
 * defaults a family file would write, so a small entry is enough.
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { onFirstUse } from "../on-first-use.ts";
import { lifecycleFields } from "./model-settings.ts";
import type { ModelSpec } from "./types.ts";

/** The parts the model specs share. */
function specParts() {
  const strength = z.enum(["hard", "soft"]);
  const videoMode = z.enum(["text", "first_frame", "first_last_frame", "reference", "video_edit"]);
  const support = z.enum(["allowed", "discouraged"]);
  const quote = z.string().optional();
  const when = {
    modes: z.array(videoMode).optional(),
    resolutions: z.array(z.string()).optional(),
  };

  const stringSet = z.strictObject({ values: z.array(z.string()), strength, ...when, quote });
  const numberSet = z.strictObject({
    values: z.array(z.number().int().min(0)),
    strength,
    ...when,
    quote,
  });
  const range = z.strictObject({
    min: z.number().int().min(0),
    max: z.number().int().min(0),
    strength,
    ...when,
    quote,
  });
  const count = z.strictObject({
    min: z.number().int().min(0).optional(),
    max: z.number().int().min(0).optional(),
    strength,
    quote,
  });

  const configKey = z.strictObject({
    type: z.enum(["boolean", "integer", "string", "scalar"]),
    values: z.array(z.string()).optional(),
    quote,
  });

  const base = {
    code: z.string().min(1).describe("Exact model code, or a prefix when match is 'prefix'."),
    match: z.enum(["exact", "prefix"]).optional(),
    family: z.string().min(1),
    note: z.string().optional(),
    config: z.record(z.string(), configKey).default({}),
    ...lifecycleFields(),
  };

  const referenceKinds = z.strictObject({
    image: count.optional(),
    video: count.optional(),
    audio: count.optional(),
  });
  return {
    strength,
    support,
    quote,
    stringSet,
    numberSet,
    range,
    count,
    configKey,
    base,
    referenceKinds,
  };
}

function videoModelSpecSchema(p: ReturnType<typeof specParts>) {
  const { support, quote, stringSet, numberSet, range, base, referenceKinds } = p;
  return z.strictObject({
    ...base,
    kind: z.literal("video"),
    modes: z.strictObject({
      text: support.optional(),
      first_frame: support.optional(),
      first_last_frame: support.optional(),
      reference: support.optional(),
      video_edit: support.optional(),
    }),
    requiresPrompt: z.boolean().optional(),
    resolutions: z.array(stringSet).default([]),
    durations: z.array(z.union([numberSet, range])).default([]),
    defaultDuration: z.strictObject({ value: z.number().int().min(0), quote }).optional(),
    aspectRatios: z.array(stringSet).default([]),
    audio: z
      .strictObject({ default: z.boolean(), support: z.enum(["supported", "unusual"]), quote })
      .default({ default: false, support: "supported" }),
    frames: z
      .strictObject({ lastRequiresFirst: z.boolean(), quote })
      .default({ lastRequiresFirst: false }),
    references: z
      .strictObject({
        kinds: referenceKinds,
        objectId: z.enum(["used", "allowed", "unusual", "not_used"]).default("allowed"),
        referenceTypes: z
          .strictObject({
            image: z.array(z.string()).optional(),
            video: z.array(z.string()).optional(),
            audio: z.array(z.string()).optional(),
          })
          .default({}),
        withFrames: z.enum(["not_allowed", "discouraged", "unspecified"]).default("unspecified"),
        audioOnlyNotAllowed: z.boolean().optional(),
        quote,
      })
      .optional(),
  });
}

function imageModelSpecSchema(p: ReturnType<typeof specParts>) {
  const { stringSet, count, base } = p;
  return z.strictObject({
    ...base,
    kind: z.literal("image"),
    imageSizes: z.array(stringSet).default([]),
    aspectRatios: z.array(stringSet).default([]),
    referenceImages: count.default({ min: 1, max: 7, strength: "hard" }),
  });
}

/** The file's schema, built at its first use (a catalog file is seldom given). */
export const catalogFileSchema = onFirstUse(() => {
  const parts = specParts();
  const modelSpecSchema = z.discriminatedUnion("kind", [
    videoModelSpecSchema(parts),
    imageModelSpecSchema(parts),
  ]);

  return z.strictObject({
    models: z
      .array(modelSpecSchema)
      .describe("Models to add; a code that exists replaces the built-in entry."),
  });
});

// The file schema and the hand-written types must describe the same thing.
type Parsed = z.output<ReturnType<typeof catalogFileSchema>>["models"][number];
const sameShape: [Parsed] extends [ModelSpec]
  ? [ModelSpec] extends [Parsed]
    ? true
    : false
  : false = true;
void sameShape;
