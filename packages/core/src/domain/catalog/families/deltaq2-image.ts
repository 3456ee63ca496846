import type { ImageModelSpec } from "../types.ts";

export const deltaImageModels: ImageModelSpec[] = [
  {
    code: "deltaq2-image",
    family: "delta",
    kind: "image",
    imageSizes: [
      {
        values: ["1080p", "2K", "4K"],
        strength: "hard",
        quote: "for model deltaq2-image: 1080p, 2K or 4K",
      },
    ],
    aspectRatios: [
      {
        values: ["auto", "16:9", "9:16", "1:1", "3:4", "4:3", "21:9", "2:3", "3:2"],
        strength: "soft",
        quote: "commonly auto, 16:9, 9:16, 1:1, 3:4, 4:3, 21:9, 2:3, 3:2",
      },
    ],
    referenceImages: { min: 1, max: 7, strength: "hard", quote: "array of 1 to 7 items" },
    config: {
      seed: { type: "integer", quote: "optional integer for reproducing similar results" },
    },
  },
];
