/**
 * The job flow's Thumbnail step, between Download and Finish: a video's poster frame and
 * spritesheet, decoded from the stored copy and stored beside it (outputs/<jobId>/), listed on the
 * record and in the manifest. Everything here is best effort: a video that does not decode, or any
 * other failure of this step, leaves a `thumbnail_failed` warning and the job goes on to Finish
 * with its status, charge and event as they would have been.
 */
import { isReelayError } from "../../domain/errors.ts";
import { spritesheetKey, thumbnailKey, videoKey } from "../../domain/jobs/outputs.ts";
import { retentionTags } from "../../domain/jobs/retention.ts";
import type { Job, JobPreviews } from "../../domain/jobs/types.ts";
import type { FlowState } from "../../domain/pipeline/flow-state.ts";
import type { PipelineDeps } from "../pipeline/pipeline-deps.ts";
import { writeManifest } from "../pipeline/terminal.ts";
import type { RenderedImage } from "../ports.ts";

/** ffmpeg reads the video through this link; its one run of at most 60 s fits well inside it. */
const READ_LINK_TTL_S = 300;

/** The warning a video with no thumbnail carries, replacing any an earlier attempt left. */
async function warn(deps: PipelineDeps, job: Job, message: string): Promise<void> {
  const warnings = job.warnings.filter((warning) => warning.code !== "thumbnail_failed");
  await deps.jobs.update(
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
 * job cancelled meanwhile, a repeat that finds them made) passes through untouched.
 */
export async function thumbnail(deps: PipelineDeps, state: FlowState): Promise<FlowState> {
  const job = await deps.jobs.require(state.jobId);
  const stored = job.outputs?.[0]?.key === videoKey(job.id);
  if (job.kind !== "video" || job.status !== "downloading" || !stored) return state;
  if (job.previews !== undefined) return state;
  let previews: JobPreviews;
  try {
    previews = await previewsOf(deps, job);
  } catch (error) {
    const message = isReelayError(error)
      ? error.message
      : "The thumbnail and spritesheet could not be made.";
    await warn(deps, job, message);
    return state;
  }
  const warnings = job.warnings.filter((warning) => warning.code !== "thumbnail_failed");
  const updated = await deps.jobs.update(job.id, { previews, warnings }, { unlessTerminal: true });
  await writeManifest(deps, updated);
  return state;
}

/**
 * Finish's part when the Thumbnail state itself failed (its function timed out or crashed, so it
 * could not say so): the job gets the warning it would have left.
 */
export async function noteThumbnailFailure(deps: PipelineDeps, jobId: string): Promise<void> {
  const job = await deps.jobs.require(jobId);
  if (job.kind !== "video" || job.previews !== undefined) return;
  await warn(deps, job, "The Thumbnail step did not finish; the video has no thumbnail.");
}
