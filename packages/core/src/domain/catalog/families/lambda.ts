import type { VideoModelSpec } from "../types.ts";
import { imageAndVideoReferences } from "./shared.ts";
import { openFamily } from "./open-family.ts";

export const lambdaModels: VideoModelSpec[] = [
  {
    ...openFamily,
    code: "lambda-",
    family: "lambda",
    note: "No codes in the contract: any code starting 'lambda-' resolves here. Examples use 16:9 and 5 s.",
    // "feature / base: lambda family, type=video_url".
    references: { ...imageAndVideoReferences(), referenceTypes: { video: ["feature", "base"] } },
    config: {
      scene_type: { type: "string", quote: "e.g. text_to_video" },
      enhance_prompt: { type: "scalar", quote: "e.g. Enabled" },
    },
  },
];
