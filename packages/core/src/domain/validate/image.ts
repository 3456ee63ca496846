import type { ImageMode, ImageModelSpec } from "../catalog/types.ts";
import type { ImageRequest } from "../contract/schemas.ts";
import { checkModelConfig } from "./config-keys.ts";
import { type Issues, listValues, shown } from "./issues.ts";
import { firstBroken } from "./rules.ts";
import { checkUrl } from "./url.ts";

/** §4.5: reference images turn a generation into an edit; there is no separate action. */
export function detectImageMode(body: Record<string, unknown>): ImageMode {
  const config = body.image_config;
  const refs =
    typeof config === "object" && config !== null
      ? (config as Record<string, unknown>).reference_images
      : undefined;
  return Array.isArray(refs) && refs.length > 0 ? "edit" : "text";
}

/** §2.6, §4.5 and §8 image rules for a request whose shape is valid; returns it normalised. */
export function checkImage(
  req: ImageRequest,
  rawConfig: unknown,
  spec: ImageModelSpec,
  issues: Issues,
): ImageRequest {
  if (!req.modalities.includes("image")) {
    issues.error(
      "modalities",
      "modalities_missing_image",
      `\`modalities\` must contain "image" (commonly ["image", "text"]), got ${JSON.stringify(req.modalities).slice(0, 80)}.`,
    );
  }
  if (req.stream === true) {
    issues.error(
      "stream",
      "stream_not_supported",
      "`stream` must be false or omitted for image generation (§2.6, §8).",
    );
  }
  if (!req.messages.some((message) => message.content.trim() !== "")) {
    issues.error(
      "messages",
      "prompt_required",
      "`messages` must carry the prompt: at least one item needs non-empty `content`.",
    );
  }

  const config = req.image_config;
  if (config?.custom_size !== undefined) {
    issues.error(
      "image_config.custom_size",
      "custom_size_unsupported",
      `\`image_config.custom_size\` is unsupported; use \`image_config.image_size\`${spec.imageSizes[0] === undefined ? "" : ` (${listValues(spec.imageSizes[0].values)})`}.`,
    );
  }
  if (config?.image_size !== undefined) {
    const broken = firstBroken(spec.imageSizes, config.image_size);
    if (broken !== undefined) {
      issues.report(
        broken.rule.strength,
        "image_config.image_size",
        ["image_size_not_allowed", "image_size_unusual"],
        `\`image_config.image_size\` ${shown(config.image_size)} is not offered by ${spec.code}; allowed: ${broken.allowedText}.`,
      );
    }
  }
  if (config?.aspect_ratio !== undefined) {
    const broken = firstBroken(spec.aspectRatios, config.aspect_ratio);
    if (broken !== undefined) {
      issues.report(
        broken.rule.strength,
        "image_config.aspect_ratio",
        ["aspect_ratio_not_allowed", "aspect_ratio_unusual"],
        `\`image_config.aspect_ratio\` ${shown(config.aspect_ratio)} is ${broken.rule.strength === "hard" ? "not allowed" : "unusual"} for ${spec.code}; allowed: ${broken.allowedText}.`,
      );
    }
  }
  const refs = config?.reference_images ?? [];
  const count = spec.referenceImages;
  if (
    refs.length > 0 &&
    ((count.min !== undefined && refs.length < count.min) ||
      (count.max !== undefined && refs.length > count.max))
  ) {
    issues.report(
      count.strength,
      "image_config.reference_images",
      ["reference_count_not_allowed", "reference_count_unusual"],
      `\`image_config.reference_images\` must hold ${count.min ?? 0} to ${count.max ?? "any number of"} images for ${spec.code}, got ${refs.length}.`,
    );
  }
  // §2.4 lists asset:// for video material only; image references are public URLs.
  for (const [index, ref] of refs.entries()) {
    checkUrl(ref.url, `image_config.reference_images[${index}].url`, false, issues);
  }

  checkModelConfig(rawConfig, spec.config, spec.code, issues);
  return { ...req, output_image_count: req.output_image_count ?? 1 };
}
