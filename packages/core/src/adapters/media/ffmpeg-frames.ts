/**
 * Frames of a stored video as still images, decoded by an ffmpeg binary: the one
 * `@ffmpeg-installer/ffmpeg` ships on the local stack, the Download function's layer on AWS (the
 * same npm package's). ffmpeg reads the video from a presigned URL, so nothing is staged on disk,
 * and decodes it once for both images.
 */
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { imageSize } from "image-size";
import { ReelayError } from "../../domain/errors.ts";
import type { FrameRendererPort, RenderedImage } from "../../usecases/ports.ts";

/** The poster frame's widest side: enough for a gallery tile or a player's poster. */
const THUMBNAIL_MAX_WIDTH = 640;
/** A spritesheet frame's width: what a scrubbing tile shows. */
const FRAME_WIDTH = 160;
const COLUMNS = 5;
const ROWS = 2;
/** The ffmpeg run's limit: a video that takes longer to decode gets no thumbnail, not a late event. */
const RUN_LIMIT_MS = 60_000;
/** The images are small; anything near this is not a JPEG of a frame. */
const MAX_IMAGE_BYTES = 16 * 1024 * 1024;
/** What of ffmpeg's stderr an error keeps: its last lines say why the decode failed. */
const STDERR_TAIL = 600;

/** ffmpeg's own words without the presigned URL (its query is a credential) or any other link. */
function scrubbed(stderr: string, url: string): string {
  const text = stderr
    .split(url)
    .join("<video>")
    .replace(/https?:\/\/\S+/g, "<url>");
  return text.trim().slice(-STDERR_TAIL);
}

/** Reads a stream to its end, refusing more than MAX_IMAGE_BYTES. */
async function collect(stream: Readable | null): Promise<Buffer> {
  const parts: Buffer[] = [];
  let bytes = 0;
  for await (const part of stream ?? []) {
    bytes += (part as Buffer).length;
    if (bytes > MAX_IMAGE_BYTES)
      throw new ReelayError("thumbnail_failed", "ffmpeg wrote too much.");
    parts.push(part as Buffer);
  }
  return Buffer.concat(parts);
}

/**
 * One ffmpeg run with two outputs: the poster on stdout, the spritesheet on fd 3. One process and
 * one decode of the video for both, so a job pays ffmpeg's start and the decoding once.
 */
function runFfmpeg(binary: string, args: string[], url: string): Promise<[Buffer, Buffer]> {
  const child = spawn(binary, ["-nostdin", "-hide_banner", "-v", "error", ...args], {
    stdio: ["ignore", "pipe", "pipe", "pipe"],
    // None of the parent's environment: on AWS it holds the Download function's credentials (its
    // role reads the upstream key's secret), and ffmpeg decodes the upstream's bytes. It needs
    // nothing there: the presigned URL carries its own signature.
    env: {},
    windowsHide: true,
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), RUN_LIMIT_MS);
  const outputs = Promise.all([
    collect(child.stdout),
    collect(child.stdio[3] as Readable),
    collect(child.stderr),
  ]);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  });
  return Promise.all([outputs, exited])
    .then(([[poster, sheet, stderr], code]) => {
      if (code === 0 && poster.length > 0 && sheet.length > 0)
        return [poster, sheet] as [Buffer, Buffer];
      const said = scrubbed(stderr.toString("utf8"), url);
      const why =
        code === null
          ? `did not finish within ${RUN_LIMIT_MS / 1000} s`
          : `could not decode the video${said === "" ? "" : `: ${said}`}`;
      throw new ReelayError("thumbnail_failed", `ffmpeg ${why}`);
    })
    .catch((error: unknown) => {
      if (error instanceof ReelayError) throw error;
      throw new ReelayError("thumbnail_failed", "ffmpeg could not be run.", { cause: error });
    })
    .finally(() => clearTimeout(timer));
}

/** The JPEG's dimensions from its own header; a run that wrote something else is a failure. */
function jpeg(bytes: Buffer): RenderedImage {
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    throw new ReelayError("thumbnail_failed", "ffmpeg wrote no readable JPEG.");
  }
  return { bytes, contentType: "image/jpeg", width: size.width, height: size.height };
}

/** Where the poster frame is taken: a moment in, past a fade from black, never past the middle. */
function posterAtS(durationS: number | undefined): number {
  if (durationS === undefined || !(durationS > 0)) return 0;
  return Math.min(1, durationS / 10);
}

export function ffmpegFrames(binary: string): FrameRendererPort {
  return {
    async render(url, video) {
      const frames = COLUMNS * ROWS;
      const durationS = video.durationS !== undefined && video.durationS > 0 ? video.durationS : 0;
      // Unknown length: a frame a second, the first ten seconds.
      const intervalS = durationS > 0 ? durationS / frames : 1;
      const jpegTo = (target: string, quality: number) => [
        "-frames:v",
        "1",
        "-q:v",
        String(quality),
        "-f",
        "image2pipe",
        "-c:v",
        "mjpeg",
        target,
      ];
      const graph = [
        "[0:v]split=2[a][b]",
        `[a]select='gte(t\\,${posterAtS(durationS).toFixed(3)})',scale='min(${THUMBNAIL_MAX_WIDTH},iw)':-2[poster]`,
        `[b]fps=1/${intervalS.toFixed(6)},scale=${FRAME_WIDTH}:-2,tile=${COLUMNS}x${ROWS}[sheet]`,
      ].join(";");
      const [poster, sheet] = await runFfmpeg(
        binary,
        [
          // One thread to decode and one to filter: the Download function has one vCPU (1769 MB),
          // on which more threads only contend. Same images, bit for bit; a 10 s 4k decode took
          // 4.8-5.3 CPU-s so against 6.0-6.1 with ffmpeg's own count, and half the memory.
          ...["-threads", "1", "-filter_complex_threads", "1"],
          ...["-i", url, "-filter_complex", graph],
          ...["-map", "[poster]", ...jpegTo("pipe:1", 3)],
          ...["-map", "[sheet]", ...jpegTo("pipe:3", 5)],
        ],
        url,
      );
      const thumbnail = jpeg(poster);
      const spritesheet = jpeg(sheet);
      return {
        thumbnail,
        spritesheet: {
          ...spritesheet,
          columns: COLUMNS,
          rows: ROWS,
          frames,
          frameWidth: spritesheet.width / COLUMNS,
          frameHeight: spritesheet.height / ROWS,
          intervalS,
        },
      };
    },
  };
}
