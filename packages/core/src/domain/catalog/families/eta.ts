import type { SetRule, VideoModelSpec } from "../types.ts";

const base = {
  family: "eta",
  kind: "video",
  durations: [
    { min: 4, max: 10, strength: "hard", quote: "4-10" },
    { values: [4, 5, 6, 8, 10], strength: "soft", quote: "commonly 4, 5, 6, 8, 10" },
  ],
  aspectRatios: [
    {
      values: ["16:9", "9:16", "1:1"],
      strength: "soft",
      modes: ["text"],
      quote: "for text commonly 16:9, 9:16, 1:1",
    },
  ],
  frames: { lastRequiresFirst: false },
  config: { tasks_priority: { type: "scalar", quote: "optional task priority" } },
} as const satisfies Partial<VideoModelSpec>;

const references = {
  kinds: { image: { strength: "soft" } },
  objectId: "allowed",
  referenceTypes: { image: ["subject", "background"] },
  withFrames: "discouraged",
  quote: "first frame is not generally mixed with multi-image reference",
} as const satisfies VideoModelSpec["references"];

// etanew-c1 and v5.6 say "same order" for resolution: soft.
const sameOrder: SetRule<string>[] = [
  { values: ["480p", "720p", "1080p"], strength: "soft", quote: "same order" },
];

const multiImage = {
  ...base,
  modes: { text: "allowed", first_frame: "allowed", reference: "allowed" },
  resolutions: sameOrder,
  references,
} as const satisfies Partial<VideoModelSpec>;

export const etaModels: VideoModelSpec[] = [
  {
    ...base,
    code: "etanew-v6.0",
    modes: { text: "allowed", first_frame: "allowed" },
    resolutions: [{ values: ["480p", "720p", "1080p"], strength: "hard" }],
    audio: { default: false, support: "supported", quote: "audio can be on for v6.0 and c1" },
  },
  {
    ...multiImage,
    code: "etanew-c1",
    audio: { default: false, support: "supported", quote: "audio can be on for v6.0 and c1" },
  },
  {
    ...multiImage,
    code: "etanew-v5.6",
    audio: { default: false, support: "unusual", quote: "v5.6 is usually off; mostly silent" },
  },
];
