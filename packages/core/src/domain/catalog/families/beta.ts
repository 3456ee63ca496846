import type { SetRule, VideoModelSpec } from "../types.ts";

const all = ["480p", "720p", "1080p"];
const fast: SetRule<string>[] = [
  { values: ["480p", "720p"], strength: "hard", quote: "480p, 720p only" },
];
const references = {
  kinds: {
    image: { max: 9, strength: "soft", quote: "at most 9 reference images recommended" },
    video: { max: 3, strength: "hard", quote: "at most 3 reference videos" },
    audio: { strength: "soft" },
  },
  objectId: "not_used",
  referenceTypes: {},
  withFrames: "not_allowed",
  audioOnlyNotAllowed: true,
  quote: "object_id and reference_type are not used; audio-only reference is not allowed",
} as const satisfies VideoModelSpec["references"];

const base = {
  family: "beta",
  kind: "video",
  resolutions: [{ values: all, strength: "hard" }],
  // "integer 4 to 15, default 5".
  durations: [{ min: 4, max: 15, strength: "hard", quote: "integer 4 to 15" }],
  aspectRatios: [
    { values: ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9", "adaptive"], strength: "hard" },
  ],
  audio: { default: false, support: "supported" },
  frames: { lastRequiresFirst: false },
  config: {},
} as const satisfies Partial<VideoModelSpec>;

export const betaModels: VideoModelSpec[] = [
  {
    ...base,
    code: "beta-2.0-os",
    modes: { text: "allowed", first_frame: "allowed", first_last_frame: "allowed" },
  },
  {
    ...base,
    code: "beta-2.0-overseas-hc-os",
    modes: { text: "allowed", reference: "allowed" },
    references,
  },
  {
    ...base,
    code: "beta-2.0-fast-hc-os",
    modes: { reference: "allowed" },
    resolutions: fast,
    references,
  },
  {
    ...base,
    code: "beta-2.0-mini-overseas-hc-os",
    modes: { reference: "allowed" },
    resolutions: fast,
    references,
  },
];
