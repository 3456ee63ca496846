/**
 * What a stored output is, read from its own structure (the MP4 boxes, an image's header), and how
 * it compares with what the request asked for. Nothing here decodes a frame.
 */
import type { Issue } from "../errors.ts";
import { kindedRequest, type JobRequest } from "../jobs/request.ts";

export interface Media {
  /** Seconds; null for an image. */
  duration_s: number | null;
  width: number;
  height: number;
  /** ffprobe's codec name for a video (`h264`, `hevc`, `av1`, ...), the format for an image (`png`, `jpg`). */
  codec: string;
  /** Frames per second (samples over the track's duration); null for an image. */
  fps: number | null;
  bytes: number;
}

/** REELAY_VERIFY: `warn` records a mismatch as a warning; `strict` fails the job with it. */
export const VERIFY_MODES = ["warn", "strict"] as const;
export type VerifyMode = (typeof VERIFY_MODES)[number];

/**
 * How far a duration may be from the one asked before it is a mismatch: 1 s or 20 %, whichever is
 * larger. Upstreams round to their frame and audio grid (a 5 s request commonly gives 5.04 s), and
 * under `strict` a false mismatch fails a paid job, so the looser of the two bounds is the one used.
 */
function durationTolerance(askedS: number): number {
  return Math.max(1, askedS * 0.2);
}

/** Aspect ratios are compared within 3 %: 480p at 16:9 is commonly 832x480 or 854x480, not 853.3x480. */
const RATIO_TOLERANCE = 0.03;
/** The short side may differ by 2 % from the asked resolution (1080p stored as 1088 rows). */
const SIDE_TOLERANCE = 0.02;

/** `480p`..`2160p` by their short side; `4k` is 2160, `2k` 1440. Other names are not checked. */
function shortSideOf(resolution: string): number | undefined {
  const named: Record<string, number> = { "4k": 2160, "2k": 1440, "8k": 4320 };
  const lower = resolution.trim().toLowerCase();
  if (named[lower] !== undefined) return named[lower];
  const match = /^(\d{3,4})p$/.exec(lower);
  return match === null ? undefined : Number(match[1]);
}

/** `16:9` as 16/9; `adaptive`, `auto` and anything else unparsed is not checked. */
function ratioOf(aspect: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(aspect.trim());
  if (match === null) return undefined;
  const ratio = Number(match[1]) / Number(match[2]);
  return Number.isFinite(ratio) && ratio > 0 ? ratio : undefined;
}

function near(actual: number, expected: number, tolerance: number): boolean {
  return Math.abs(actual - expected) <= expected * tolerance;
}

/** What the request asked of a video's shape: each field absent when it left it to the model. */
interface AskedShape {
  durationS?: number;
  resolution?: string;
  aspectRatio?: string;
}

function askedShape(request: JobRequest): AskedShape | undefined {
  const typed = kindedRequest(request);
  if (typed.kind !== "video") return undefined;
  const { duration_sec, resolution, aspect_ratio } = typed.request;
  return {
    ...(duration_sec === undefined ? {} : { durationS: duration_sec }),
    ...(resolution === undefined ? {} : { resolution }),
    ...(aspect_ratio === undefined ? {} : { aspectRatio: aspect_ratio }),
  };
}

/** Each way the media differs from the request, in words; empty when it is what was asked. */
export function mediaDifferences(media: Media, request: JobRequest): string[] {
  const asked = askedShape(request);
  if (asked === undefined) return [];
  const differences: string[] = [];
  if (asked.durationS !== undefined && media.duration_s !== null) {
    const off = Math.abs(media.duration_s - asked.durationS);
    if (off > durationTolerance(asked.durationS))
      differences.push(`duration ${media.duration_s} s where ${asked.durationS} s was asked`);
  }
  const shortSide = Math.min(media.width, media.height);
  const side = asked.resolution === undefined ? undefined : shortSideOf(asked.resolution);
  if (side !== undefined && !near(shortSide, side, SIDE_TOLERANCE))
    differences.push(
      `resolution ${media.width}x${media.height} where ${asked.resolution} was asked`,
    );
  const ratio = asked.aspectRatio === undefined ? undefined : ratioOf(asked.aspectRatio);
  if (ratio !== undefined && !near(media.width / media.height, ratio, RATIO_TOLERANCE))
    differences.push(
      `aspect ratio ${media.width}:${media.height} where ${asked.aspectRatio} was asked`,
    );
  return differences;
}

/** The `output_mismatch` warning (or, under `strict`, the failure's message) naming what differs. */
export function mismatchIssue(differences: string[]): Issue {
  return {
    path: "",
    code: "output_mismatch",
    message: `The output differs from the request: ${differences.join("; ")}.`,
  };
}
