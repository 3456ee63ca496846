/**
 * The request a job holds: the normalized body as sent upstream, stored as that JSON and nothing
 * more. Which of the three it is (video, image, image edit) is read from the body itself, the way
 * validate() told them apart: the chat form's `messages` make an image request, and reference images
 * make it an edit (POST /v1/images/edits builds exactly that). A record stored before this type
 * existed carries the same JSON, so it reads the same way.
 */
import type { ImageRequest, VideoRequest } from "../contract/schemas.ts";
import type { Usage } from "../money/types.ts";

type ImageConfig = NonNullable<ImageRequest["image_config"]>;
type ReferenceImage = NonNullable<ImageConfig["reference_images"]>[number];

/** An image request with at least one reference image: an edit of those images. */
type ImageEditRequest = ImageRequest & {
  image_config: ImageConfig & { reference_images: [ReferenceImage, ...ReferenceImage[]] };
};

/** `Job.request`: the stored JSON. */
export type JobRequest = VideoRequest | ImageRequest;

/** A request with its kind said: the one place readers narrow a stored request. */
export type KindedRequest =
  | { kind: "video"; request: VideoRequest }
  | { kind: "image"; request: ImageRequest }
  | { kind: "image_edit"; request: ImageEditRequest };

export function kindedRequest(request: JobRequest): KindedRequest {
  if (!("messages" in request)) return { kind: "video", request };
  const config = request.image_config;
  const [first, ...rest] = config?.reference_images ?? [];
  if (config === undefined || first === undefined) return { kind: "image", request };
  return {
    kind: "image_edit",
    request: { ...request, image_config: { ...config, reference_images: [first, ...rest] } },
  };
}

/** Seconds of video asked for; undefined for images and for a video left to the model's default. */
export function durationOf(request: JobRequest): number | undefined {
  const typed = kindedRequest(request);
  return typed.kind === "video" ? typed.request.duration_sec : undefined;
}

/**
 * What the request asks the upstream to make, in the units generation is billed in (docs/contract.md
 * §8): seconds of video at a resolution, with or without audio; images at a resolution tier, with
 * their count of reference images.
 */
export function unitsOf(request: JobRequest): Usage {
  const typed = kindedRequest(request);
  if (typed.kind === "video") {
    return {
      unit: "video_second",
      quantity: typed.request.duration_sec ?? 0,
      resolution: typed.request.resolution ?? null,
      audio: typed.request.generate_audio === true,
    };
  }
  return {
    unit: "image",
    quantity: typed.request.output_image_count ?? 1,
    tier: typed.request.image_config?.image_size ?? null,
    referenceImages: typed.request.image_config?.reference_images?.length ?? 0,
  };
}

/**
 * A copy of the request with every string passed through `map` (material URLs are strings anywhere
 * in it: frames, references, reference images). The request itself is never modified.
 */
export function mapStrings(request: JobRequest, map: (value: string) => string): JobRequest {
  const copy = structuredClone(request);
  const walk = (holder: object): void => {
    for (const [key, value] of Object.entries(holder)) {
      if (typeof value === "string") Reflect.set(holder, key, map(value));
      else if (typeof value === "object" && value !== null) walk(value);
    }
  };
  walk(copy);
  return copy;
}
