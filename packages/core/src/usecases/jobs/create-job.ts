/** A validated request becomes a queued job record. */
import type { JobStorePort } from "../ports.ts";
import { ReelayError } from "../../domain/errors.ts";
import type { Reservation } from "../../domain/money/types.ts";
import { estimateOf } from "../../domain/money/estimate.ts";
import type { PriceTable } from "../../domain/money/prices.ts";
import type { ValidationResult } from "../../domain/validate/validate-request.ts";
import { newJobId } from "../../domain/jobs/ids.ts";
import { VERSION } from "../../domain/version.ts";
import { type JobOptions, keptOptions } from "../../domain/jobs/job-options.ts";
import type { Job, JobSource } from "../../domain/jobs/types.ts";
import type { ReuseSource } from "../reuse/route-reuse.ts";

export interface NewJobInput {
  validation: ValidationResult;
  source: JobSource;
  /** The caller's X-Idempotency-Key; the job id when absent. */
  idempotencyKey?: string;
  /** A derived id (e.g. jobIdFrom for drops); a fresh ulid id when absent. */
  jobId?: string;
  /** See Job.requestHash. */
  requestHash?: string;
  /** See Job.fingerprint. */
  fingerprint?: string;
  /** The job whose output this one copies (Job.reusedFrom), and its estimate, which this one takes. */
  reuse?: ReuseSource;
  /** What the caller chose (the record keeps all but reuseMaxAgeS, whose outcome is `reuse`). */
  options?: JobOptions;
  /** The batch the job is made for, and its line there. */
  batch?: { id: string; line: number };
  /** The operator's price table (REELAY_PRICES); without one the estimate has usage and no cost. */
  prices?: PriceTable;
  /** What the job's estimate reserved from its budgets, settled when it ends. */
  reservations?: Reservation[];
  /** The job this one retries. */
  retryOf?: string;
  /** Counted in its key's waiting jobs (max_queued). */
  queueCounted?: boolean;
  /** Counted in its end user's waiting jobs (user_limits.max_queued). */
  userQueueCounted?: boolean;
  /** See Job.traceparent. */
  traceparent?: string | undefined;
  now?: Date;
}

/** The queued record for a valid request; refuses an invalid one (the caller reports its errors). */
export function buildJob(input: NewJobInput): Job {
  const { validation } = input;
  if (
    !validation.valid ||
    validation.normalized === null ||
    validation.kind === null ||
    validation.model === null
  ) {
    throw new ReelayError(
      "invalid_request",
      "Only a valid request becomes a job; fix the reported errors first.",
      {
        status: 400,
        details: { errors: validation.errors },
      },
    );
  }
  const id = input.jobId ?? newJobId(validation.kind);
  const at = (input.now ?? new Date()).toISOString();
  const key = input.idempotencyKey?.trim();
  return {
    id,
    kind: validation.kind,
    status: "queued",
    model: validation.model,
    ...(validation.requestedModel === undefined
      ? {}
      : { requestedModel: validation.requestedModel }),
    mode: validation.mode ?? "text",
    request: validation.normalized,
    warnings: validation.warnings,
    ...(validation.adjustments === undefined || validation.adjustments.length === 0
      ? {}
      : { adjustments: validation.adjustments }),
    source: input.source,
    idempotencyKey: key === undefined || key === "" ? id : key,
    ...(input.requestHash === undefined ? {} : { requestHash: input.requestHash }),
    ...(input.fingerprint === undefined ? {} : { fingerprint: input.fingerprint }),
    ...(input.reuse === undefined ? {} : { reusedFrom: input.reuse.id }),
    ...keptOptions(input.options ?? {}),
    ...(input.batch === undefined ? {} : { batchId: input.batch.id, batchLine: input.batch.line }),
    attempts: 0,
    polls: 0,
    createdAt: at,
    createdByVersion: VERSION,
    updatedAt: at,
    history: [{ status: "queued", at }],
    ...(input.reservations === undefined ? {} : { reservations: input.reservations }),
    ...(input.retryOf === undefined ? {} : { retryOf: input.retryOf }),
    ...(input.queueCounted === true ? { queueCounted: true as const } : {}),
    ...(input.userQueueCounted === true ? { userQueueCounted: true as const } : {}),
    ...(input.traceparent === undefined ? {} : { traceparent: input.traceparent }),
    estimate:
      input.reuse?.estimate ??
      estimateOf({ model: validation.model, request: validation.normalized }, input.prices),
  };
}

/**
 * Records a new queued job. With a derived `jobId` the same input seen twice yields the first job
 * (`created: false`), never a second one.
 */
export async function createJob(
  store: JobStorePort,
  input: NewJobInput,
): Promise<{ job: Job; created: boolean }> {
  return store.createOrGet(buildJob(input));
}
