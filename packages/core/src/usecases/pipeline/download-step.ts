/**
 * The Download step: the task's outputs (or a reused job's source's) copied into the bucket and
 * verified, a video's previews made, and the job.json manifest written.
 */
import { isReelayError, ReelayError } from "../../domain/errors.ts";
import type { Job, JobOutput } from "../../domain/jobs/types.ts";
import { isTerminal } from "../../domain/jobs/types.ts";
import { imageKey, videoKey } from "../../domain/jobs/outputs.ts";
import { expiryOf, retentionTags } from "../../domain/jobs/retention.ts";
import type { FlowState } from "../../domain/pipeline/flow-state.ts";
import { TransientError } from "../../domain/pipeline/step-errors.ts";
import { type CopiedObject, copyUrlToS3, type KeyChoice } from "../copy/copy-output.ts";
import { deliverOutputs } from "../copy/deliver-outputs.ts";
import { writeManifest } from "../jobs/job-end.ts";
import { recordCopy, recordVerificationFailure } from "../metrics/record-metrics.ts";
import { copyReused } from "../reuse/follow-source.ts";
import { previewsFor } from "../thumbnails/make-thumbnails.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";
import { clientOf, guarded, unlessConflict } from "./step-guard.ts";
import { verifiedOutputs } from "./verify-outputs.ts";

/**
 * The look that saw the task done was given its output URLs; Download uses them for this long
 * after that look, which saves a task query per job. Older ones (a retried or resumed Download) may
 * be near expiry (docs/contract.md §8: they expire soon after success), so the task is asked again.
 */
const FRESH_URLS_MS = 60_000;

/** The poll's URLs while fresh; else fresh ones from the task itself; a synchronous image's from the state. */
function recentUrlsOf(deps: PipelineDeps, job: Job, state: FlowState): string[] | undefined {
  if (job.upstreamTaskId === undefined) return state.outputUrls ?? [];
  const seenAt =
    state.outputUrlsSeenAt === undefined ? Number.NaN : Date.parse(state.outputUrlsSeenAt);
  const fresh = deps.now().getTime() - seenAt < FRESH_URLS_MS;
  return fresh && (state.outputUrls ?? []).length > 0 ? state.outputUrls : undefined;
}

/** Fresh URLs from the task itself. */
async function askedUrlsOf(deps: PipelineDeps, job: Job): Promise<string[]> {
  if (job.upstreamTaskId === undefined) return [];
  const client = clientOf(deps, job);
  const answer =
    job.kind === "video"
      ? await client.getVideoTask(job.upstreamTaskId)
      : await client.getImageTask(job.upstreamTaskId);
  if (answer.state.state === "failed") {
    throw new ReelayError(
      "upstream_task_failed",
      answer.state.error?.message ?? "The upstream task failed.",
    );
  }
  if (answer.state.state === "running") {
    throw new TransientError(
      "output_not_ready",
      `The upstream task ${job.upstreamTaskId} shows no output yet.`,
    );
  }
  return answer.state.outputUrls;
}

/**
 * The media probe with its parsers (mp4box, image-size: a fifth of a function's code), loaded by the
 * first download rather than by every function that runs a pipeline step; the Download function
 * loads it with its module (functions/download.ts).
 */
export function loadMediaProbe(): Promise<typeof import("../../domain/media/probe.ts")> {
  return import("../../domain/media/probe.ts");
}

/**
 * One output copied and its structure read on the way (output_invalid when it does not parse),
 * counted as an upstream download (a 429 too) and by its bytes and speed.
 */
async function meteredCopy(
  deps: PipelineDeps,
  job: Job,
  url: string,
  key: KeyChoice,
): Promise<CopiedObject> {
  const { metrics } = deps;
  const operation = "download";
  const started = performance.now();
  metrics.count("reelay_upstream_requests_total", { operation });
  try {
    const { mediaProbe } = await loadMediaProbe();
    const copied = await copyUrlToS3(
      deps.fetch,
      url,
      deps.objects,
      key,
      mediaProbe(job.kind),
      retentionTags(job),
    );
    recordCopy(metrics, copied.bytes, performance.now() - started);
    return copied;
  } catch (error) {
    if (error instanceof ReelayError && error.status === 429)
      metrics.count("reelay_upstream_429_total", { operation });
    if (isReelayError(error, "output_invalid"))
      recordVerificationFailure(metrics, job, "output_invalid");
    throw error;
  }
}

async function copyOutputs(deps: PipelineDeps, job: Job, urls: string[]): Promise<JobOutput[]> {
  if (urls.length === 0)
    throw new ReelayError(
      "output_missing",
      `The upstream task for ${job.id} succeeded without an output URL.`,
    );
  const outputs: JobOutput[] = [];
  for (const [index, url] of (job.kind === "video" ? urls.slice(0, 1) : urls).entries()) {
    const key =
      job.kind === "video"
        ? videoKey(job.id)
        : (contentType: string) => imageKey(job.id, index, contentType, url);
    const copied = await meteredCopy(deps, job, url, key);
    outputs.push({
      bucket: copied.bucket,
      key: copied.key,
      bytes: copied.bytes,
      sha256: copied.sha256,
      contentType: copied.contentType,
      sourceUrlHost: copied.sourceUrlHost,
      ...(copied.media === undefined ? {} : { media: copied.media }),
    });
  }
  return outputs;
}

/** The task's outputs fetched into the bucket, with the poll's URLs while fresh. */
async function downloadOutputs(
  deps: PipelineDeps,
  job: Job,
  state: FlowState,
): Promise<JobOutput[]> {
  const recent = recentUrlsOf(deps, job, state);
  try {
    return await copyOutputs(deps, job, recent ?? (await askedUrlsOf(deps, job)));
  } catch (error) {
    // The poll's URLs were refused (expired after all): once more with fresh ones.
    if (recent === undefined || job.upstreamTaskId === undefined) throw error;
    if (!isReelayError(error, "output_unavailable")) throw error;
    return copyOutputs(deps, job, await askedUrlsOf(deps, job));
  }
}

/**
 * Streams every output into outputs/<jobId>/ (a job that reuses copies its source's instead), reading its structure on the way (output_invalid,
 * and output_mismatch as a warning or under REELAY_VERIFY=strict a failure), makes a video's
 * previews from the stored copy (usecases/thumbnails/make-thumbnails.ts), and writes the job.json
 * manifest.
 */
export function download(deps: PipelineDeps, state: FlowState): Promise<FlowState> {
  return guarded(deps, state, "download", async (span) => {
    const toDownloading = () =>
      deps.jobs.transition(state.jobId, { from: ["queued", "running"], to: "downloading" });
    let job = (await unlessConflict(toDownloading())) ?? (await deps.jobs.require(state.jobId));
    if (isTerminal(job.status)) {
      throw new ReelayError(
        "job_conflict",
        `Job ${job.id} is already ${job.status}; nothing to download.`,
        { details: { status: job.status } },
      );
    }
    if (job.status !== "downloading") job = await toDownloading();
    span.noteJob(job);
    const outputs =
      job.reusedFrom === undefined
        ? await downloadOutputs(deps, job, state)
        : await copyReused(deps, { ...job, reusedFrom: job.reusedFrom });
    const delivered = await deliverOutputs(deps, job, verifiedOutputs(deps, job, outputs));
    // A video's poster and spritesheet, from the copy just stored (best effort: a warning at worst),
    // recorded in the same write as the outputs.
    const previews = await previewsFor(deps, { ...job, ...delivered });
    job = await deps.jobs.update(
      job.id,
      { ...delivered, ...previews, ...expiryOf(job, deps.now()) },
      { unlessTerminal: true },
    );
    await writeManifest(deps, job);
    return { ...state, outcome: "succeeded", waitSeconds: 0 };
  });
}
