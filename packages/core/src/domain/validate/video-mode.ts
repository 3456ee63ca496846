import type { VideoMode, VideoModelSpec } from "../catalog/types.ts";
import { isPlainObject, type Issues } from "./issues.ts";

function items(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * §1.7: the material decides the mode. No material: text; frame_images: first_frame or
 * first_last_frame; input_references: reference (also when frames are given as well, since the
 * references then carry the request); an edit model is always video_edit. Works on raw input so
 * a mode can be reported even for a request with shape errors.
 */
export function detectVideoMode(
  body: Record<string, unknown>,
  spec: VideoModelSpec | undefined,
): VideoMode {
  if (spec?.modes.video_edit !== undefined) return "video_edit";
  if (items(body.input_references).length > 0) return "reference";
  const frames = items(body.frame_images);
  if (frames.length === 0) return "text";
  const hasLast = frames.some((frame) => isPlainObject(frame) && frame.frame_type === "last_frame");
  return hasLast ? "first_last_frame" : "first_frame";
}

const modeWords: Record<VideoMode, string> = {
  text: "text-to-video (no material)",
  first_frame: "first-frame image-to-video",
  first_last_frame: "first+last frame image-to-video",
  reference: "reference-to-video (input_references)",
  video_edit: "video edit",
};

/** Refuses a mode the model lacks, warns about one the contract says is generally unused. */
export function checkModeSupport(
  mode: VideoMode,
  spec: VideoModelSpec,
  lastFrameIndex: number,
  issues: Issues,
): void {
  const support = spec.modes[mode];
  const offered = (Object.keys(spec.modes) as VideoMode[]).map((m) => modeWords[m]).join(", ");
  if (support === undefined && mode === "first_last_frame") {
    const path = `frame_images[${lastFrameIndex}].frame_type`;
    issues.error(
      path,
      "last_frame_unsupported",
      `${spec.code} takes a first frame only: \`last_frame\` is unsupported (§4.8, §8 "last_frame only where stated"). Remove the last frame.`,
    );
  } else if (support === undefined) {
    const path = mode === "reference" ? "input_references" : mode === "text" ? "" : "frame_images";
    issues.error(
      path,
      "mode_not_supported",
      `${spec.code} does not offer ${modeWords[mode]}; it offers: ${offered}.`,
    );
  } else if (support === "discouraged") {
    const path = mode === "reference" ? "input_references" : mode === "text" ? "" : "frame_images";
    issues.warn(
      path,
      "mode_unusual",
      `${spec.code} generally does not use ${modeWords[mode]} (§4.8); the request goes on.`,
    );
  }
}
