import type { VideoModelSpec } from "../types.ts";
import { openFamily } from "./open-family.ts";

export const lambdaModels: VideoModelSpec[] = [
  {
    ...openFamily,
    code: "lambda-",
    family: "lambda",
    note: "No codes in the contract: any code starting 'lambda-' resolves here. Examples use 16:9 and 5 s.",
    references: {
      kinds: { image: { strength: "soft" }, video: { strength: "soft" } },
      objectId: "allowed",
      // "feature / base: lambda family, type=video_url".
      referenceTypes: { video: ["feature", "base"] },
      withFrames: "unspecified",
    },
    config: {
      scene_type: { type: "string", quote: "e.g. text_to_video" },
      enhance_prompt: { type: "scalar", quote: "e.g. Enabled" },
    },
  },
];
