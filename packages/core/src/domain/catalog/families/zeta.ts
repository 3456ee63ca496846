import type { VideoModelSpec } from "../types.ts";

const base = {
  family: "zeta",
  kind: "video",
  modes: { text: "allowed", first_frame: "allowed", reference: "allowed" },
  resolutions: [{ values: ["480p", "720p", "1080p"], strength: "hard" }],
  // "3-15 (default commonly 5)": the global default 5 fits.
  durations: [{ min: 3, max: 15, strength: "hard" }],
  aspectRatios: [
    {
      values: ["16:9", "9:16", "1:1", "4:3", "3:4", "4:5", "5:4", "9:21", "21:9"],
      strength: "hard",
      modes: ["text", "reference"],
    },
    {
      values: [],
      strength: "soft",
      modes: ["first_frame"],
      quote: "image-to-video usually follows the first frame and the ratio should not be forced",
    },
  ],
  audio: {
    default: false,
    support: "unusual",
    quote: "generally has no native dubbing (omit or false)",
  },
  frames: { lastRequiresFirst: false, quote: "exactly 1 first frame; last_frame unsupported" },
  references: {
    kinds: { image: { min: 1, max: 9, strength: "soft", quote: "images only, about 1-9" } },
    objectId: "unusual",
    referenceTypes: {},
    withFrames: "unspecified",
    quote: "object_id / reference_type usually omitted",
  },
  config: {
    watermark: { type: "boolean", quote: "corner watermark switch" },
    seed: { type: "integer", quote: "random seed" },
  },
} as const satisfies Partial<VideoModelSpec>;

export const zetaModels: VideoModelSpec[] = [
  { ...base, code: "zeta-1.1" },
  { ...base, code: "zeta-1.0" },
];
