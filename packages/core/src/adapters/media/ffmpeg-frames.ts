/**
 * Frames of a stored video as still images, decoded by an ffmpeg binary: the one
 * `@ffmpeg-installer/ffmpeg` ships on the local stack, the Thumbnail function's layer on AWS (the
 * same npm package's). ffmpeg reads the video from a presigned URL with range requests, so the
 * poster frame needs only the bytes around its timestamp and nothing is staged on disk.
 */
import { execFile } from "node:child_process";
import { imageSize } from "image-size";
import { ReelayError } from "../../domain/errors.ts";
import type { FrameRendererPort, RenderedImage } from "../../usecases/ports.ts";

/** The poster frame's widest side: enough for a gallery tile or a player's poster. */
const THUMBNAIL_MAX_WIDTH = 640;
/** A spritesheet frame's width: what a scrubbing tile shows. */
const FRAME_WIDTH = 160;
const COLUMNS = 5;
const ROWS = 2;
/** One ffmpeg run's limit: a video that takes longer to decode gets no thumbnail, not a late event. */
const RUN_LIMIT_MS = 40_000;
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

function runFfmpeg(binary: string, args: string[], url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      ["-nostdin", "-hide_banner", "-v", "error", ...args],
      {
        encoding: "buffer",
        maxBuffer: MAX_IMAGE_BYTES,
        timeout: RUN_LIMIT_MS,
        killSignal: "SIGKILL",
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error === null && stdout.length > 0) {
          resolve(stdout);
          return;
        }
        const said = scrubbed(stderr.toString("utf8"), url);
        const why =
          error !== null && "killed" in error && error.killed
            ? `did not finish within ${RUN_LIMIT_MS / 1000} s`
            : `could not decode the video${said === "" ? "" : `: ${said}`}`;
        reject(new ReelayError("thumbnail_failed", `ffmpeg ${why}`));
      },
    );
  });
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
      const output = ["-f", "image2pipe", "-c:v", "mjpeg", "-"];
      // Sequential: the step's Lambda has one vCPU's worth, and each run decodes.
      const poster = await runFfmpeg(
        binary,
        [
          ...["-ss", posterAtS(durationS).toFixed(3), "-i", url, "-frames:v", "1"],
          ...["-vf", `scale='min(${THUMBNAIL_MAX_WIDTH},iw)':-2`, "-q:v", "3", ...output],
        ],
        url,
      );
      const sheet = await runFfmpeg(
        binary,
        [
          ...["-i", url, "-frames:v", "1", "-q:v", "5"],
          ...[
            "-vf",
            `fps=1/${intervalS.toFixed(6)},scale=${FRAME_WIDTH}:-2,tile=${COLUMNS}x${ROWS}`,
          ],
          ...output,
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
