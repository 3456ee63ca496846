import type { VideoModelSpec } from "../types.ts";
import { imageAndVideoReferences } from "./shared.ts";

export const thetaModels: VideoModelSpec[] = [
  {
    code: "theta-3.0-pro",
    family: "theta",
    kind: "video",
    // "First frame only. input_references generally unused."
    modes: { text: "allowed", first_frame: "allowed", reference: "discouraged" },
    resolutions: [{ values: ["1080p"], strength: "soft", quote: "commonly 1080p" }],
    durations: [{ values: [5, 10], strength: "hard", quote: "5 or 10" }],
    aspectRatios: [
      {
        values: ["16:9", "9:16", "1:1", "3:4", "4:3", "21:9"],
        strength: "soft",
        quote: "16:9, 9:16, 1:1, 3:4, 4:3, 21:9 and similar",
      },
    ],
    audio: { default: false, support: "unusual", quote: "audio usually off" },
    frames: { lastRequiresFirst: false, quote: "first frame only" },
    references: imageAndVideoReferences("input_references generally unused"),
    config: {},
  },
];
