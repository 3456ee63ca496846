/**
 * A video's previews, made by the Download step right after its copy is stored: a poster frame and
 * a spritesheet, decoded from the stored copy and stored beside it (outputs/<jobId>/), listed on
 * the record with the outputs, in Download's one write (and so in the manifest it writes next).
 * Best effort: a video that does not decode, a run over its time, or too little time left in the
 * invocation leaves a `thumbnail_failed` warning, never a failed Download; the job goes on to
 * Finish with its status, charge and event as they would have been. Making them inside Download,
 * not in a state of their own, saves each job two state transitions and an invocation
 * (docs/performance.md).
 */
import { isReelayError } from "../../domain/errors.ts";
import { spritesheetKey, thumbnailKey, videoKey } from "../../domain/jobs/outputs.ts";
import { retentionTags } from "../../domain/jobs/retention.ts";
import type { Job, JobPreviews } from "../../domain/jobs/types.ts";
import type { PipelineDeps } from "../pipeline/pipeline-deps.ts";
import type { FrameRendererPort, RenderedImage } from "../ports.ts";

/** ffmpeg reads the video through this link; its one run of at most 60 s fits well inside it. */
const READ_LINK_TTL_S = 300;
/**
 * What the previews need of the invocation's time: ffmpeg's one run of at most 60 s
 * (adapters/media/ffmpeg-frames.ts), two small puts and a record write, with room to spare. A copy
 * that left less (a huge video near Download's 900 s) gets the warning instead of a timeout that
 * would fail the job.
 */
const PREVIEWS_TIME_NEEDED_MS = 75_000;

/** The warnings of a video with no thumbnail: `message`'s, replacing any an earlier attempt left. */
function failed(job: Job, message: string): Pick<Job, "warnings"> {
  const warnings = job.warnings.filter((warning) => warning.code !== "thumbnail_failed");
  return { warnings: [...warnings, { path: "", code: "thumbnail_failed", message }] };
}

/** An image stored with the job's retention tag, as its video was (the S3 lifecycle rules go by it). */
async function store(deps: PipelineDeps, job: Job, key: string, image: RenderedImage) {
  const tags = retentionTags(job);
  await deps.objects.put(key, image.bytes, {
    contentType: image.contentType,
    ...(tags === undefined ? {} : { tags }),
  });
  return {
    key,
    bytes: image.bytes.length,
    contentType: image.contentType,
    width: image.width,
    height: image.height,
  };
}

/** Makes and stores the job's previews; throws when the video does not decode. */
async function previewsOf(
  deps: PipelineDeps,
  frames: FrameRendererPort,
  job: Job,
): Promise<JobPreviews> {
  const url = await deps.objects.presignGet(videoKey(job.id), READ_LINK_TTL_S);
  const rendered = await frames.render(url, { durationS: job.media?.duration_s ?? undefined });
  const {
    bytes: _bytes,
    contentType: _type,
    width: _w,
    height: _h,
    ...grid
  } = rendered.spritesheet;
  return {
    thumbnail: await store(deps, job, thumbnailKey(job.id), rendered.thumbnail),
    spritesheet: {
      ...(await store(deps, job, spritesheetKey(job.id), rendered.spritesheet)),
      ...grid,
    },
  };
}

/**
 * A video job still downloading with its copy stored gets its previews: what to write on its record
 * with the outputs (Download's one write), the previews, or the `thumbnail_failed` warning when
 * they could not be made. Anything else (an image, a repeat that finds them made, a process with no
 * frame renderer: a local stack run with previews off, since the Download function's init requires
 * REELAY_FFMPEG_PATH) gets nothing.
 * Never throws: nothing ffmpeg or the images meet fails the Download.
 */
export async function previewsFor(
  deps: PipelineDeps,
  job: Job,
): Promise<Partial<Pick<Job, "previews" | "warnings">>> {
  const stored = job.outputs?.[0]?.key === videoKey(job.id);
  if (job.kind !== "video" || job.status !== "downloading" || !stored) return {};
  if (job.previews !== undefined || deps.frames === undefined) return {};
  const left = deps.remainingMs?.();
  if (left !== undefined && left < PREVIEWS_TIME_NEEDED_MS)
    return failed(job, "The copy left no time for the thumbnail; the video has none.");
  try {
    const previews = await previewsOf(deps, deps.frames, job);
    return { previews, warnings: job.warnings.filter((w) => w.code !== "thumbnail_failed") };
  } catch (error) {
    return failed(
      job,
      isReelayError(error) ? error.message : "The thumbnail and spritesheet could not be made.",
    );
  }
}

/**
 * Finish's part for an execution started before the previews moved into Download, whose Thumbnail
 * state failed as a whole (its function timed out, crashed, or is gone since): the job gets the
 * warning it would have left, unless the new Download made its previews.
 */
export async function noteThumbnailFailure(deps: PipelineDeps, jobId: string): Promise<void> {
  const job = await deps.jobs.require(jobId);
  if (job.kind !== "video" || job.previews !== undefined) return;
  const warned = failed(job, "The Thumbnail step did not finish; the video has no thumbnail.");
  await deps.jobs.update(job.id, warned, { unlessTerminal: true });
}
