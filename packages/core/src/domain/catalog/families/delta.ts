import type { VideoModelSpec } from "../types.ts";

const references = {
  kinds: { image: { max: 7, strength: "soft", quote: "commonly at most about 7" } },
  // "object_id groups images of one subject ... reference_type normally omitted".
  objectId: "used",
  referenceTypes: {},
  withFrames: "unspecified",
} as const satisfies VideoModelSpec["references"];

const base = {
  family: "delta",
  kind: "video",
  resolutions: [{ values: ["540p", "720p", "1080p"], strength: "hard" }],
  aspectRatios: [
    {
      values: ["16:9", "9:16", "1:1", "3:4", "4:3"],
      strength: "soft",
      quote: "commonly 16:9, 9:16, 1:1 (some 3:4, 4:3)",
    },
  ],
  audio: { default: false, support: "supported" },
  frames: { lastRequiresFirst: false },
  references,
  config: {},
} as const satisfies Partial<VideoModelSpec>;

const q2 = {
  ...base,
  modes: { text: "allowed", reference: "allowed" },
  durations: [{ min: 1, max: 10, strength: "hard" }],
} as const satisfies Partial<VideoModelSpec>;

const q3 = {
  ...base,
  // "reference-led": text alone is not what these models are for.
  modes: { text: "discouraged", reference: "allowed" },
  durations: [{ min: 3, max: 16, strength: "hard" }],
} as const satisfies Partial<VideoModelSpec>;

export const deltaModels: VideoModelSpec[] = [
  ...["deltaq2", "deltaq2-pro", "deltaq2-turbo"].map((code) => ({ ...q2, code })),
  ...["deltaq3", "deltaq3-pro", "deltaq3-turbo", "deltaq3-pro-fast", "deltaq3-mix"].map((code) => ({
    ...q3,
    code,
  })),
];
