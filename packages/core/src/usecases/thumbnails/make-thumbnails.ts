/**
 * A video's previews, made by the Download step right after its copy is stored: a poster frame and
 * a spritesheet, decoded from the stored copy and stored beside it (outputs/<jobId>/), listed on the
 * record (and so in the manifest Download writes next). Best effort: a video that does not
 * decode, a run over its time, or too little time left in the invocation leaves a
 * `thumbnail_failed` warning, never a failed Download; the job goes on to Finish with its status,
 * charge and event as they would have been. Making them inside Download, not in a state of their
 * own, saves each job two state transitions and an invocation (docs/performance.md).
 */
import { isReelayError } from "../../domain/errors.ts";
import { spritesheetKey, thumbnailKey, videoKey } from "../../domain/jobs/outputs.ts";
import { retentionTags } from "../../domain/jobs/retention.ts";
import type { Job, JobPreviews } from "../../domain/jobs/types.ts";
import type { PipelineDeps } from "../pipeline/pipeline-deps.ts";
import type { RenderedImage } from "../ports.ts";

/** ffmpeg reads the video through this link; its one run of at most 60 s fits well inside it. */
const READ_LINK_TTL_S = 300;
/**
 * What the previews need of the invocation's time: ffmpeg's one run of at most 60 s
 * (adapters/media/ffmpeg-frames.ts), two small puts and a record write, with room to spare. A copy
 * that left less (a huge video near Download's 900 s) gets the warning instead of a timeout that
 * would fail the job.
 */
const PREVIEWS_TIME_NEEDED_MS = 75_000;

/** The warning a video with no thumbnail carries, replacing any an earlier attempt left. */
function warn(deps: PipelineDeps, job: Job, message: string): Promise<Job> {
  const warnings = job.warnings.filter((warning) => warning.code !== "thumbnail_failed");
  return deps.jobs.update(
    job.id,
    { warnings: [...warnings, { path: "", code: "thumbnail_failed", message }] },
    { unlessTerminal: true },
  );
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
async function previewsOf(deps: PipelineDeps, job: Job): Promise<JobPreviews> {
  const frames = deps.frames;
  if (frames === undefined) throw new Error("This process has no frame renderer.");
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
 * A video job still downloading with its copy stored gets its previews; anything else (an image, a
 * job cancelled meanwhile, a repeat that finds them made) is returned untouched. Returns the record
 * as it then stands, with the previews or the warning. Nothing ffmpeg or the images meet fails the
 * Download; the record write fails as Download's own writes do (a job cancelled meanwhile, a
 * database error that outlived its retries).
 */
export async function makePreviews(deps: PipelineDeps, job: Job): Promise<Job> {
  const stored = job.outputs?.[0]?.key === videoKey(job.id);
  if (job.kind !== "video" || job.status !== "downloading" || !stored) return job;
  if (job.previews !== undefined) return job;
  const left = deps.remainingMs?.();
  if (left !== undefined && left < PREVIEWS_TIME_NEEDED_MS)
    return warn(deps, job, "The copy left no time for the thumbnail; the video has none.");
  let previews: JobPreviews;
  try {
    previews = await previewsOf(deps, job);
  } catch (error) {
    const message = isReelayError(error)
      ? error.message
      : "The thumbnail and spritesheet could not be made.";
    return warn(deps, job, message);
  }
  const warnings = job.warnings.filter((warning) => warning.code !== "thumbnail_failed");
  return deps.jobs.update(job.id, { previews, warnings }, { unlessTerminal: true });
}

/**
 * Finish's part for an execution started before the previews moved into Download, whose Thumbnail
 * state failed as a whole (its function timed out, crashed, or is gone since): the job gets the
 * warning it would have left, unless the new Download made its previews.
 */
export async function noteThumbnailFailure(deps: PipelineDeps, jobId: string): Promise<void> {
  const job = await deps.jobs.require(jobId);
  if (job.kind !== "video" || job.previews !== undefined) return;
  await warn(deps, job, "The Thumbnail step did not finish; the video has no thumbnail.");
}
