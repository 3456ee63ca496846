/**
 * What the pipeline records, in one place per fact, so each is counted once whatever path made it:
 * a job's creation (the job store's create), its end (the step that recorded its terminal event,
 * usecases/jobs/job-end.ts), how soon a task's end was noticed, and each output copy.
 */
import type { Job } from "../../domain/jobs/types.ts";
import type { Metrics } from "../ports.ts";

/** A terminal job's outcome by model (failures by `error.code`) and its time from creation to end. */
export function recordJobEnd(metrics: Metrics, job: Job): void {
  const { model } = job;
  if (job.status === "succeeded") metrics.count("reelay_jobs_succeeded_total", { model });
  else if (job.status === "cancelled") metrics.count("reelay_jobs_cancelled_total", { model });
  else if (job.status === "failed")
    metrics.count("reelay_jobs_failed_total", { model, code: job.error?.code ?? "internal" });
  else return;
  const endedAt = Date.parse(job.finishedAt ?? job.updatedAt);
  const seconds = (endedAt - Date.parse(job.createdAt)) / 1000;
  if (Number.isFinite(seconds) && seconds >= 0)
    metrics.observe("reelay_job_duration_seconds", { model }, seconds);
}

/**
 * The look that saw the task done, against the latest look before it that saw it running (else the
 * create): the task ended somewhere in between, so this is the most its end can have waited to be
 * noticed. A first look placed after the task ended counts its whole wait here, as it should.
 */
export function recordDetection(
  metrics: Metrics,
  job: Pick<Job, "model" | "submittedAt">,
  times: { runningSeenAt?: string | undefined; doneSeenAt: Date },
): void {
  const since = Date.parse(times.runningSeenAt ?? job.submittedAt ?? "");
  const seconds = (times.doneSeenAt.getTime() - since) / 1000;
  if (Number.isFinite(seconds) && seconds >= 0)
    metrics.observe("reelay_detection_delay_seconds", { model: job.model }, seconds);
}

/** One output copied: its bytes, and its bytes over the copy's duration. */
export function recordCopy(metrics: Metrics, bytes: number, durationMs: number): void {
  metrics.count("reelay_copied_bytes_total", {}, bytes);
  if (durationMs > 0 && bytes > 0)
    metrics.observe("reelay_copy_throughput_bytes_per_second", {}, bytes / (durationMs / 1000));
}

/** An output that failed verification: it does not parse (output_invalid) or is not what was asked (output_mismatch). */
export function recordVerificationFailure(
  metrics: Metrics,
  job: Pick<Job, "model">,
  code: "output_invalid" | "output_mismatch",
): void {
  metrics.count("reelay_output_verification_failures_total", { model: job.model, code });
}
