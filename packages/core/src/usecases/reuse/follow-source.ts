/**
 * The flow of a job that reuses (Job.reusedFrom): Poll looks at its source job instead of an
 * upstream task, and Download copies the source's objects instead of fetching a URL. A follower
 * whose source fails fails the same way (the same code, so the same class and retry advice) and
 * uncharged, since it made no task; one whose source was cancelled or is gone fails
 * `reuse_source_ended`. Nobody takes over: `POST /v1/jobs/{id}/retry` sends it again.
 */
import type { ErrorCode } from "../../domain/error-codes.ts";
import { isReelayError, ReelayError } from "../../domain/errors.ts";
import { reusedKey } from "../../domain/jobs/outputs.ts";
import { retentionTags } from "../../domain/jobs/retention.ts";
import type { Job, JobError, JobOutput } from "../../domain/jobs/types.ts";
import type { PipelineDeps } from "../pipeline/pipeline-deps.ts";
import { CLAIM_GRACE_MS } from "./route-reuse.ts";

export type SourceVerdict =
  | { outcome: "succeeded" | "running" }
  | { outcome: "failed"; error: JobError };

function endedError(id: string, why: string): JobError {
  return {
    code: "reuse_source_ended" satisfies ErrorCode,
    message: `The job ${id} whose output this one was to reuse ${why}; nothing was charged.`,
  };
}

function ended(id: string, why: string): SourceVerdict {
  return { outcome: "failed", error: endedError(id, why) };
}

/**
 * Where the source stands, as this job's verdict. A source with no record yet is a leader between
 * its claim and its record (route-reuse.ts): waited for while this job is younger than the grace.
 */
export function verdictOf(
  job: Pick<Job, "createdAt"> & { reusedFrom: string },
  source: Job | undefined,
  now: Date,
): SourceVerdict {
  const sourceId = job.reusedFrom;
  if (source === undefined)
    return now.getTime() - Date.parse(job.createdAt) < CLAIM_GRACE_MS
      ? { outcome: "running" }
      : ended(sourceId, "no longer exists");
  if (source.status === "succeeded") return { outcome: "succeeded" };
  if (source.status === "cancelled") return ended(sourceId, "was cancelled");
  if (source.status !== "failed") return { outcome: "running" };
  const error = source.error ?? { code: "failed", message: "It failed without a reason." };
  return {
    outcome: "failed",
    error: {
      ...error,
      message: `The job ${sourceId} whose upstream task this one shared failed: ${error.message}`,
    },
  };
}

/**
 * The source's outputs copied into this job's own outputs/<id>/ (S3 CopyObject each), tagged with
 * this job's retention (domain/jobs/retention.ts), not the source's. A source
 * whose objects are gone (deleted by retention since) ends this job `reuse_source_ended` at once:
 * copying again cannot bring them back.
 */
export async function copyReused(
  deps: Pick<PipelineDeps, "jobs" | "objects">,
  job: Job & { reusedFrom: string },
): Promise<JobOutput[]> {
  const source = await deps.jobs.require(job.reusedFrom);
  const outputs: JobOutput[] = [];
  const tags = retentionTags(job);
  for (const output of source.outputs ?? []) {
    const key = reusedKey(job.id, output.key);
    try {
      await deps.objects.copy(output.key, key, tags === undefined ? {} : { tags });
    } catch (error) {
      if (!isReelayError(error, "object_not_found")) throw error;
      const { message } = endedError(source.id, "no longer has its output");
      throw new ReelayError("reuse_source_ended", message, { retryable: false, cause: error });
    }
    outputs.push({ ...output, bucket: deps.objects.bucket, key });
  }
  return outputs;
}
