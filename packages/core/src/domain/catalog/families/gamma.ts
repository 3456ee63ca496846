import type { VideoModelSpec } from "../types.ts";

const references = {
  kinds: { image: { strength: "soft" } },
  objectId: "allowed",
  // "An image item may carry reference_type (value asset seen)".
  referenceTypes: { image: ["asset"] },
  withFrames: "not_allowed",
  quote: "do not mix reference images with frame_images",
} as const satisfies VideoModelSpec["references"];

const base = {
  family: "gamma",
  kind: "video",
  durations: [
    { values: [4, 6, 8], strength: "hard", quote: "must be 4, 6 or 8" },
    {
      values: [8],
      strength: "soft",
      modes: ["reference"],
      quote: "reference-image mode usually fixes duration at 8 seconds",
    },
  ],
  defaultDuration: { value: 8, quote: "default understood as 8" },
  aspectRatios: [{ values: ["16:9", "9:16"], strength: "hard", quote: "only 16:9 or 9:16" }],
  audio: { default: false, support: "supported", quote: "optional, given explicitly true/false" },
  frames: {
    lastRequiresFirst: true,
    quote: "last_frame requires a first_frame in the same request",
  },
  config: {},
  note: "First-frame image: about 20 MB maximum per image (not checkable from a URL).",
} as const satisfies Partial<VideoModelSpec>;

const modes = { text: "allowed", first_frame: "allowed", first_last_frame: "allowed" } as const;

export const gammaModels: VideoModelSpec[] = [
  {
    ...base,
    code: "gamma-3.1",
    modes: { ...modes, reference: "allowed" },
    resolutions: [{ values: ["720p", "1080p", "4k"], strength: "hard" }],
    references,
  },
  {
    ...base,
    code: "gamma-3.1-fast",
    modes: { ...modes, reference: "allowed" },
    resolutions: [
      { values: ["720p", "1080p", "4k"], strength: "hard", quote: "same as gamma-3.1" },
      { values: ["720p", "1080p"], strength: "soft", quote: "720p, 1080p recommended" },
    ],
    references,
  },
  {
    ...base,
    code: "gamma-3.1-lite",
    modes,
    resolutions: [{ values: ["720p", "1080p"], strength: "hard", quote: "720p, 1080p (no 4k)" }],
  },
];
