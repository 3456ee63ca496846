/**
 * `reelay generate`'s flags as a request body of the service contract (§2.1). Material must be a
 * URL: the local S3 speaks plain http, which the contract (and so validate()) refuses, so local
 * files go through `reelay drop`, where the stack itself turns them into presigned links.
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

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const VIDEO_FILE = /\.(mp4|mov|webm|mkv|m4v)(\?|#|$)/i;

function materialUrl(flag: string, value: string): string {
  if (SCHEME.test(value)) return value;
  throw new UsageError(
    `${flag} "${value}" is not a URL. generate takes https:// or asset://vidast_… URLs; for a local file, name it in a prompt file ` +
      `and drop both: \`reelay drop prompt.json ${value}\`.`,
  );
}

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
      image_url: { url: materialUrl("--first-frame", flags.firstFrame) },
    });
  if (flags.lastFrame !== undefined)
    frames.push({
      type: "image_url",
      frame_type: "last_frame",
      image_url: { url: materialUrl("--last-frame", flags.lastFrame) },
    });
  if (frames.length > 0) body.frame_images = frames;

  const refs = (flags.refs ?? []).map((value) => {
    const url = materialUrl("--ref", value);
    return VIDEO_FILE.test(url)
      ? { type: "video_url", video_url: url }
      : { type: "image_url", image_url: { url } };
  });
  if (refs.length > 0) body.input_references = refs;

  const config = flags.config ?? [];
  if (config.length > 0) body.model_specific_config = Object.fromEntries(config.map(configEntry));
  return body;
}
