/**
 * The upstream create of Submit, with what admission control makes of a create it refused: the job
 * back in the queue (a 429; in a pool, a create the account certainly did not accept).
 */
import { isReelayError, ReelayError } from "../../domain/errors.ts";
import { durationOf } from "../../domain/jobs/request.ts";
import type { Job } from "../../domain/jobs/types.ts";
import { jobDeadlineMs } from "../../domain/polling/policy.ts";
import { Requeued } from "../../domain/pipeline/step-errors.ts";
import type { PipelineDeps } from "./pipeline-deps.ts";
import { clientOf } from "./step-guard.ts";
import { hasUploadRefs, signUploadRefs } from "../uploads/upload-links.ts";

/** Past the job's deadline: the upstream may fetch material late in its own queue, or again. */
const UPLOAD_LINK_MARGIN_S = 3600;

/**
 * The body sent upstream: the job's request with each upload:// reference as a GET link signed
 * for the job's deadline and a margin. Made for this call only; the record keeps the reference.
 */
async function upstreamBody(deps: PipelineDeps, job: Job): Promise<Job["request"]> {
  if (!hasUploadRefs(job.request)) return job.request;
  const deadlineMs = jobDeadlineMs({
    durationSec: durationOf(job.request),
    ...(deps.jobTimeoutS === undefined ? {} : { overrideS: deps.jobTimeoutS }),
  });
  return signUploadRefs(deps.objects, job.request, deadlineMs / 1000 + UPLOAD_LINK_MARGIN_S);
}

/**
 * The upstream create. The same idempotency key on every attempt: the upstream answers a repeat
 * with the task it already made. Under admission control a 429 puts the job back in the queue; in
 * a pool, so does a create the account certainly did not accept (a refused connection, a 401/403),
 * and the job may then go to another account unless a create of it may have been accepted there:
 * an earlier Submit's (`sole` counts them), or an earlier try of this very call (the client retried
 * a timeout, a reset or a 5xx before the refusal). A create whose outcome is unknown (a timeout, a
 * reset, a 5xx: a service may make the task and then fail its answer) is retried only here, on the
 * same account, by the client and the state machine.
 */
export async function createTask(deps: PipelineDeps, job: Job) {
  const admission = deps.admission;
  const pool = admission?.isPool === true;
  const account = admission?.accountOf(job).name;
  const opts = {
    idempotencyKey: job.idempotencyKey,
    ...(admission === undefined ? {} : { noRetryWhenRateLimited: true }),
    ...(pool ? { noRetryWhenNotAccepted: true } : {}),
  };
  // This create is the only one of the job not known refused: a refusal leaves it free to move.
  const sole = job.attempts <= (job.refusedSends ?? 0) + 1;
  const client = clientOf(deps, job);
  const body = await upstreamBody(deps, job);
  try {
    const created =
      job.kind === "video"
        ? await client.createVideo(body, opts)
        : await client.createImage(body, opts);
    // Advisory: a lost update only makes a learned limit grow a little later.
    await admission?.cleanCreate(account).catch(() => undefined);
    return created;
  } catch (error) {
    if (admission === undefined) throw error;
    // Only this call's one request was refused: none of its tries may have made a task.
    const alone = sole && triesOf(error) <= 1;
    if (isRateLimited(error)) {
      const retryAfterMs = (error as ReelayError).details?.retryAfterMs;
      await admission.requeue(
        job,
        typeof retryAfterMs === "number" ? retryAfterMs : undefined,
        alone,
        error,
      );
      throw new Requeued(job.id);
    }
    if (pool && notAccepted(error)) {
      await admission.refused(job, alone, error);
      throw new Requeued(job.id);
    }
    if (pool && account !== undefined && error instanceof ReelayError && error.retryable)
      await admission.createFailed(account, error).catch(() => undefined);
    throw error;
  }
}

/** The account certainly made no task: nothing listened, or it refused the key. */
function notAccepted(error: unknown): boolean {
  if (!(error instanceof ReelayError)) return false;
  return error.code === "upstream_auth" || error.details?.notAccepted === true;
}

/** The HTTP requests the client sent for this one call (its own retries included). */
function triesOf(error: unknown): number {
  const attempts = error instanceof ReelayError ? error.details?.attempts : undefined;
  return typeof attempts === "number" ? attempts : 1;
}

function isRateLimited(error: unknown): boolean {
  return isReelayError(error, "upstream_rate_limited");
}
