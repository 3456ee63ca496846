import type { DurationRule, SetRule, VideoModelSpec } from "../types.ts";
import { imageAndVideoReferences } from "./shared.ts";

// §4.8 alpha: "720p, 1080p"; "aspect_ratio examples: 16:9, 9:16, 1:1, 4:3, 3:4".
const resolutions: SetRule<string>[] = [{ values: ["720p", "1080p"], strength: "hard" }];
const aspectRatios: SetRule<string>[] = [
  {
    values: ["16:9", "9:16", "1:1", "4:3", "3:4"],
    strength: "soft",
    quote: "aspect_ratio examples",
  },
];
// "text/image about 2-15; reference about 2-10"; the other models: "same order".
const durations: DurationRule[] = [
  {
    min: 2,
    max: 15,
    strength: "soft",
    modes: ["text", "first_frame", "first_last_frame"],
    quote: "text/image about 2-15",
  },
  { min: 2, max: 10, strength: "soft", modes: ["reference"], quote: "reference about 2-10" },
];
const audio = {
  default: false,
  support: "supported",
  quote: "optional; behaviour varies by model",
} as const;
const references = imageAndVideoReferences();

const base = {
  family: "alpha",
  kind: "video",
  resolutions,
  aspectRatios,
  durations,
  audio,
  config: {},
} as const;

export const alphaModels: VideoModelSpec[] = [
  {
    ...base,
    code: "alpha-2.7",
    modes: {
      text: "allowed",
      first_frame: "allowed",
      first_last_frame: "allowed",
      reference: "allowed",
    },
    frames: {
      lastRequiresFirst: false,
      quote: "alpha-2.7 also takes first and last frames together",
    },
    // "optional driving audio / continuation": audio and video references are taken.
    references: { ...references, kinds: { ...references.kinds, audio: { strength: "soft" } } },
  },
  {
    ...base,
    code: "alpha-2.6",
    modes: { text: "allowed", first_frame: "allowed", reference: "allowed" },
    frames: { lastRequiresFirst: false, quote: "image-to-video use a first frame only" },
    references,
  },
  {
    ...base,
    code: "alpha-2.6-flash",
    note: "Capabilities list only 'accelerated image / reference': text-to-video is not offered.",
    modes: { first_frame: "allowed", reference: "allowed" },
    frames: { lastRequiresFirst: false, quote: "image-to-video use a first frame only" },
    references,
  },
  {
    ...base,
    code: "alpha-2.7-videoedit",
    modes: { video_edit: "allowed" },
    requiresPrompt: true,
    // "output about 10 at most; duration_sec=0 follows the source length".
    durations: [
      {
        min: 0,
        max: 10,
        strength: "soft",
        quote: "output about 10 at most; 0 follows the source length",
      },
    ],
    frames: { lastRequiresFirst: false },
    references: {
      kinds: {
        video: {
          min: 1,
          max: 1,
          strength: "hard",
          quote: "exactly one input_references item of type video_url",
        },
        image: {
          max: 4,
          strength: "hard",
          quote: "optional additional reference images, at most 4",
        },
      },
      objectId: "allowed",
      referenceTypes: {},
      withFrames: "not_allowed",
    },
  },
];
