/**
 * `reelay generate`'s flags as a request body of the service contract (§2.1). Material is a URL,
 * an upload:// reference, or a path on this machine, kept as given here and uploaded before the
 * create (local-material.ts).
 */
import { UsageError } from "../usage.ts";

export interface GenerateFlags {
  prompt: string | undefined;
  model: string;
  duration?: string | undefined;
  resolution?: string | undefined;
  aspect?: string | undefined;
  audio?: boolean | undefined;
  firstFrame?: string | undefined;
  lastFrame?: string | undefined;
  refs?: string[] | undefined;
  config?: string[] | undefined;
}

const VIDEO_FILE = /\.(mp4|mov|webm|mkv|m4v)(\?|#|$)/i;

/** `key=value`; the value is read as JSON when it parses (true, 3, "x", {...}), else kept as text. */
function configEntry(raw: string): [string, unknown] {
  const at = raw.indexOf("=");
  if (at <= 0) throw new UsageError(`--config wants key=value, got "${raw}".`);
  const text = raw.slice(at + 1);
  try {
    return [raw.slice(0, at), JSON.parse(text)];
  } catch {
    return [raw.slice(0, at), text];
  }
}

export function buildVideoRequest(flags: GenerateFlags): Record<string, unknown> {
  const body: Record<string, unknown> = { model: flags.model };
  if (flags.prompt !== undefined && flags.prompt !== "") body.prompt = flags.prompt;
  if (flags.duration !== undefined) {
    const seconds = Number(flags.duration);
    if (flags.duration.trim() === "" || !Number.isInteger(seconds))
      throw new UsageError(
        `--duration must be a whole number of seconds, got "${flags.duration}".`,
      );
    body.duration_sec = seconds;
  }
  if (flags.resolution !== undefined) body.resolution = flags.resolution;
  if (flags.aspect !== undefined) body.aspect_ratio = flags.aspect;
  if (flags.audio !== undefined) body.generate_audio = flags.audio;

  const frames: object[] = [];
  if (flags.firstFrame !== undefined)
    frames.push({
      type: "image_url",
      frame_type: "first_frame",
      image_url: { url: flags.firstFrame },
    });
  if (flags.lastFrame !== undefined)
    frames.push({
      type: "image_url",
      frame_type: "last_frame",
      image_url: { url: flags.lastFrame },
    });
  if (frames.length > 0) body.frame_images = frames;

  const refs = (flags.refs ?? []).map((url) => {
    return VIDEO_FILE.test(url)
      ? { type: "video_url", video_url: url }
      : { type: "image_url", image_url: { url } };
  });
  if (refs.length > 0) body.input_references = refs;

  const config = flags.config ?? [];
  if (config.length > 0) body.model_specific_config = Object.fromEntries(config.map(configEntry));
  return body;
}
