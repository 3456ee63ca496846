/**
 * What a job asks the upstream to make, in the units generation is billed in (docs/contract.md §8): seconds
 * of video at a resolution, with or without audio; images at a resolution tier, with their count of
 * reference images. Read from the normalized request, so it is known before anything is spent.
 */
import type { ImageRequest, VideoRequest } from "../contract/schemas.ts";
import type { JobKind } from "../jobs/types.ts";
import type { Usage } from "./types.ts";

export function usageOf(kind: JobKind, request: object): Usage {
  if (kind === "video") {
    const video = request as VideoRequest;
    return {
      unit: "video_second",
      quantity: video.duration_sec ?? 0,
      resolution: video.resolution ?? null,
      audio: video.generate_audio === true,
    };
  }
  const image = request as ImageRequest;
  return {
    unit: "image",
    quantity: image.output_image_count ?? 1,
    tier: image.image_config?.image_size ?? null,
    referenceImages: image.image_config?.reference_images?.length ?? 0,
  };
}

/** The same usage in the API's snake_case. */
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
