import type { VideoModelSpec } from "../types.ts";

const base = {
  family: "epsilon",
  kind: "video",
  // "First frame only; last frame generally unsupported" and §8 "last_frame only where stated":
  // the hard words win, so first_last_frame is refused.
  modes: { text: "allowed", first_frame: "allowed" },
  resolutions: [{ values: ["720p", "1080p"], strength: "hard" }],
  aspectRatios: [
    { values: ["16:9", "9:16", "1:1"], strength: "soft", quote: "commonly 16:9, 9:16, 1:1" },
  ],
  audio: { default: false, support: "unusual", quote: "native dubbing is normally not generated" },
  frames: { lastRequiresFirst: false, quote: "first frame only" },
  config: { enhance_prompt: { type: "scalar", quote: "optional (prompt enhancement)" } },
} as const satisfies Partial<VideoModelSpec>;

export const epsilonModels: VideoModelSpec[] = [
  {
    ...base,
    code: "epsilon-2.3",
    durations: [
      { values: [6, 10], strength: "hard", quote: "6 or 10" },
      { values: [6], strength: "soft", resolutions: ["1080p"], quote: "1080p commonly only 6" },
    ],
  },
  {
    ...base,
    code: "epsilon-2.3-fast",
    durations: [{ values: [6], strength: "soft", quote: "commonly 6" }],
  },
  {
    ...base,
    code: "epsilonnew-1",
    durations: [{ min: 4, max: 10, strength: "soft", quote: "about 4-10" }],
  },
];
