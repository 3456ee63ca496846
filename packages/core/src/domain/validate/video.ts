import type { VideoMode, VideoModelSpec } from "../catalog/types.ts";
import type { VideoRequest } from "../contract/schemas.ts";
import { checkModelConfig } from "./config-keys.ts";
import type { Issues } from "./issues.ts";
import { checkFrames, checkFramesWithReferences, checkReferences } from "./video-material.ts";
import { checkModeSupport } from "./video-mode.ts";
import { checkVideoParams } from "./video-params.ts";

const TASK_FOR_MODE: Partial<Record<VideoMode, string>> = {
  text: "text_to_video",
  first_frame: "image_to_video",
  reference: "reference_to_video",
};

/** kappa's `task` is "normally inferred from material": one that contradicts the material warns. */
function checkTaskMatchesMode(task: unknown, mode: VideoMode, issues: Issues): void {
  const expected = TASK_FOR_MODE[mode];
  if (typeof task !== "string" || expected === undefined || task === expected) return;
  if (!Object.values(TASK_FOR_MODE).includes(task)) return;
  issues.warn(
    "model_specific_config.task",
    "config_task_mismatch",
    `\`model_specific_config.task\` is "${task}" but the material selects ${mode} mode (task \`${expected}\`); the task is normally inferred from the material.`,
  );
}

/** Every per-model rule for a video request whose shape is already valid; returns it normalised. */
export function checkVideo(
  req: VideoRequest,
  rawConfig: unknown,
  spec: VideoModelSpec,
  mode: VideoMode,
  issues: Issues,
): VideoRequest {
  const frames = req.frame_images ?? [];
  const refs = req.input_references ?? [];

  if (mode === "video_edit" && frames.length > 0) {
    issues.error(
      "frame_images",
      "mode_not_supported",
      `${spec.code} edits a video: give the source as an input_references item of type video_url; frame_images are not accepted.`,
    );
  } else if (mode !== "video_edit") {
    checkModeSupport(
      mode,
      spec,
      Math.max(
        0,
        frames.findIndex((f) => f.frame_type === "last_frame"),
      ),
      issues,
    );
  }

  const hasPrompt = req.prompt !== undefined && req.prompt.trim() !== "";
  if (!hasPrompt && (mode === "text" || spec.requiresPrompt === true)) {
    const why =
      mode === "text"
        ? "no frame_images or input_references are given"
        : `${spec.code} requires a prompt`;
    issues.error("prompt", "prompt_required", `\`prompt\` is required: ${why} (§2.1, §4.8).`);
  } else if (!hasPrompt) {
    issues.warn(
      "prompt",
      "prompt_recommended",
      "`prompt` is recommended even with material (§2.1); the model works from the material alone.",
    );
  }

  checkFrames(frames, spec, issues);
  if (frames.length > 0 && refs.length > 0 && mode !== "video_edit")
    checkFramesWithReferences(refs, spec, issues);
  if (refs.length > 0 || mode === "video_edit") checkReferences(refs, spec, issues);

  const filled = checkVideoParams(req, spec, { mode, resolution: req.resolution }, issues);
  checkModelConfig(rawConfig, spec.config, spec.code, issues);
  checkTaskMatchesMode(req.model_specific_config?.task, mode, issues);

  const normalized: VideoRequest = { ...req, ...filled };
  if (filled.resolution === undefined) delete normalized.resolution;
  return normalized;
}
