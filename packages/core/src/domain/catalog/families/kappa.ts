import type { VideoModelSpec } from "../types.ts";
import { imageAndVideoReferences } from "./shared.ts";

export const kappaModels: VideoModelSpec[] = [
  {
    code: "kappa-omni-flash-preview",
    family: "kappa",
    kind: "video",
    // "First frame only; first+last interpolation unsupported."
    modes: { text: "allowed", first_frame: "allowed", reference: "allowed" },
    resolutions: [{ values: ["720p"], strength: "hard", quote: "resolution fixed 720p" }],
    durations: [{ min: 3, max: 10, strength: "hard", quote: "must be 3 to 10" }],
    aspectRatios: [{ values: ["16:9", "9:16"], strength: "hard", quote: "only 16:9 or 9:16" }],
    audio: {
      default: true,
      support: "supported",
      quote: "audio on by default; explicit false asks for silent semantics",
    },
    frames: { lastRequiresFirst: false, quote: "first+last interpolation unsupported" },
    references: imageAndVideoReferences("usable for multi-image or video reference"),
    config: {
      task: {
        type: "string",
        values: ["text_to_video", "image_to_video", "reference_to_video"],
        quote: "normally inferred from material",
      },
    },
  },
];
