import type { VideoModelSpec } from "../types.ts";
import { openFamily } from "./open-family.ts";

export const muModels: VideoModelSpec[] = [
  {
    ...openFamily,
    code: "mu-",
    family: "mu",
    note:
      "No codes in the contract: any code starting 'mu-' resolves here. Examples use asset / style " +
      "references and 8 s. The config examples belong to the lambda model, so mu allow-lists no keys.",
    references: {
      kinds: { image: { strength: "soft" } },
      objectId: "allowed",
      // "asset / style: mu family (multi-image)".
      referenceTypes: { image: ["asset", "style"] },
      withFrames: "unspecified",
    },
    config: {},
  },
];
