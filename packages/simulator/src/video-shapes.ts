/**
 * Real MP4s of the shape a request asks for (duration, resolution, aspect ratio), so a client that
 * reads the file's structure, or decodes it, finds what it asked for. Each shape is encoded once by
 * the ffmpeg that @ffmpeg-installer ships (a registry package with the binary, so a fresh clone
 * needs nothing else) and kept in the machine's temp dir, shared by every simulator on it.
 * A still test pattern at a low frame rate keeps the encode cheap: 720p 8 s takes about 0.2 s of
 * CPU, 4k 16 s about 3 s.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface VideoShape {
  durationS: number;
  width: number;
  height: number;
}

/** Frames per second of every generated clip. */
const FPS = 8;
/** Bumped when the encoding changes, so an older cached file is not served. */
const VERSION = 1;
const LONGEST_S = 60;

const cache = new Map<string, Buffer>();

let ffmpegPath: string | undefined;

/**
 * The binary that encodes the clips: `path`, else the one chosen before, else @ffmpeg-installer's,
 * loaded only then: a bundle of the simulator (the deployed one) has no node_modules to find
 * that one in, and names its layer's instead. startSimulator calls it.
 */
export async function useFfmpeg(path?: string): Promise<void> {
  ffmpegPath = path ?? ffmpegPath ?? (await import("@ffmpeg-installer/ffmpeg")).default.path;
}

function ffmpeg(): string {
  if (ffmpegPath === undefined)
    throw new Error("No ffmpeg chosen: startSimulator calls useFfmpeg.");
  return ffmpegPath;
}

function even(n: number): number {
  return Math.max(2, Math.round(n / 2) * 2);
}

function shortSideOf(resolution: unknown): number | undefined {
  if (typeof resolution !== "string") return undefined;
  const lower = resolution.trim().toLowerCase();
  const named: Record<string, number> = { "4k": 2160, "2k": 1440 };
  if (named[lower] !== undefined) return named[lower];
  const match = /^(\d{3,4})p$/.exec(lower);
  return match === null ? undefined : Number(match[1]);
}

function ratioOf(aspect: unknown): number | undefined {
  if (typeof aspect !== "string") return undefined;
  const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(aspect.trim());
  if (match === null) return undefined;
  const ratio = Number(match[1]) / Number(match[2]);
  return Number.isFinite(ratio) && ratio > 0 ? ratio : undefined;
}

/**
 * The shape a video request asks for; undefined when it names none of duration, resolution and
 * aspect ratio (the committed fixture is served then). `durationS` overrides the request's: the
 * `output_duration_s` directive serves a clip of another length than asked.
 */
export function shapeOf(request: unknown, durationS?: number): VideoShape | undefined {
  const body = (typeof request === "object" && request !== null ? request : {}) as Record<
    string,
    unknown
  >;
  const asked = typeof body.duration_sec === "number" ? body.duration_sec : undefined;
  const side = shortSideOf(body.resolution);
  const ratio = ratioOf(body.aspect_ratio);
  if (durationS === undefined && asked === undefined && side === undefined && ratio === undefined)
    return undefined;
  const short = side ?? 180;
  const r = ratio ?? 16 / 9;
  return {
    durationS: Math.min(LONGEST_S, Math.max(0.5, durationS ?? asked ?? 2)),
    width: even(r >= 1 ? short * r : short),
    height: even(r >= 1 ? short : short / r),
  };
}

/** The clip's bytes: from memory, else the temp dir, else encoded now (and kept in both). */
export function clipOf(shape: VideoShape): Buffer {
  const name = `v${VERSION}-${shape.width}x${shape.height}-${shape.durationS}s-${FPS}fps.mp4`;
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const dir = join(tmpdir(), "reelay-sim-videos");
  const path = join(dir, name);
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    // Encoded aside and renamed: another process reading the same shape never sees half a file.
    const partial = `${path}.${process.pid}.${Date.now()}.part.mp4`;
    execFileSync(ffmpeg(), [
      ...["-y", "-loglevel", "error", "-f", "lavfi"],
      ...[
        "-i",
        `smptebars=size=${shape.width}x${shape.height}:rate=${FPS}:duration=${shape.durationS}`,
      ],
      ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "ultrafast", "-crf", "40"],
      ...["-g", "1000", "-movflags", "+faststart", "-an", partial],
    ]);
    renameSync(partial, path);
  }
  const bytes = readFileSync(path);
  cache.set(name, bytes);
  return bytes;
}
