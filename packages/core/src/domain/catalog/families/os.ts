import type { VideoModelSpec } from "../types.ts";
import { imageAndVideoReferences } from "./shared.ts";

export const osModels: VideoModelSpec[] = [
  {
    code: "os-2",
    family: "os",
    kind: "video",
    // "First frame only. input_references generally unused."
    modes: { text: "allowed", first_frame: "allowed", reference: "discouraged" },
    resolutions: [{ values: ["720p"], strength: "soft", quote: "commonly 720p" }],
    durations: [{ values: [4, 8, 12], strength: "hard", quote: "must be 4, 8 or 12" }],
    aspectRatios: [
      {
        values: ["16:9", "9:16"],
        strength: "soft",
        modes: ["text"],
        quote: "for text commonly 16:9, 9:16",
      },
      {
        values: [],
        strength: "soft",
        modes: ["first_frame"],
        quote: "image-to-video usually follows the first frame",
      },
    ],
    audio: { default: false, support: "supported" },
    frames: { lastRequiresFirst: false, quote: "first frame only" },
    references: imageAndVideoReferences("input_references generally unused"),
    config: {
      input_compliance_check: { type: "boolean", quote: "compliance switch" },
      output_compliance_check: { type: "boolean", quote: "compliance switch" },
    },
  },
];
