import type { VideoModelSpec } from "../types.ts";

/*
 * §4.8 "lambda and mu families: only named in the reference-type table and examples". The contract
 * gives no model codes, so each of these families is one prefix entry (`lambda-`, `mu-`). With no
 * stated bounds only the general rules and the §2.3 reference_type table apply.
 */
export const openFamily = {
  kind: "video",
  match: "prefix",
  modes: {
    text: "allowed",
    first_frame: "allowed",
    first_last_frame: "allowed",
    reference: "allowed",
  },
  resolutions: [],
  durations: [],
  aspectRatios: [],
  audio: { default: false, support: "supported" },
  frames: { lastRequiresFirst: false },
} as const satisfies Partial<VideoModelSpec>;
