import type { Usage } from "./types.ts";

/** A usage (domain/jobs/request.ts unitsOf) in the API's snake_case. */
export function usageView(usage: Usage): Record<string, unknown> {
  return usage.unit === "video_second"
    ? {
        unit: usage.unit,
        quantity: usage.quantity,
        resolution: usage.resolution,
        audio: usage.audio,
      }
    : {
        unit: usage.unit,
        quantity: usage.quantity,
        tier: usage.tier,
        reference_images: usage.referenceImages,
      };
}
