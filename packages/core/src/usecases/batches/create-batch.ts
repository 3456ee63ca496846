/**
 * Making a batch from request lines already checked (the API's JSON or JSONL body, a multi-line
 * drop): the batch record with every line's outcome first, then one queued job per valid line
 * through the one submitJob (each reserves at admission), all put in the admission queue with one
 * wake at the end. Ids are derived from the batch id and the
 * line, so making the same batch again (a retried request, a repeated notification) finds what the
 * first attempt made and makes nothing twice.
 */
import { takeUserCall } from "../jobs/user-rate.ts";
import type { BatchStorePort, JobQueue } from "../ports.ts";
import { ulid } from "ulid";
import type { AdmissionControl } from "../admission/admission-control.ts";
import type { Issue } from "../../domain/errors.ts";
import { type SubmitDeps, submitJob } from "../jobs/submit-job.ts";
import { claimQueue, type QueueClaim } from "../jobs/queue-quota.ts";
import { jobIdFrom, ulidShapeFrom } from "../../domain/jobs/ids.ts";
import { givenOptions, type JobOptions, optionsOf } from "../../domain/jobs/job-options.ts";
import type { Metadata } from "../../domain/jobs/metadata.ts";
import type { Job, JobSource } from "../../domain/jobs/types.ts";
import type { Clock } from "../ports.ts";
import type { ValidationResult } from "../../domain/validate/validate-request.ts";
import { BATCH_ID_PREFIX, type Batch, type BatchLine } from "../../domain/batches/types.ts";

/** One request line, checked: a valid request, or why it is not one. */
export interface CheckedLine {
  line: number;
  validation?: ValidationResult;
  errors?: Issue[];
  /** Where the job comes from (a drop's line names its file). */
  source: JobSource;
  /** The job this line retries (a batch retry). */
  retryOf?: string;
  /** Its job's metadata, the line's own laid over the batch's already; absent: the batch's. */
  metadata?: Metadata;
  /** The end user its job is for, the line's own; absent: the batch's. */
  user?: string;
}

export interface CreateBatchDeps {
  batches: BatchStorePort;
  admission: Pick<AdmissionControl, "entryOf" | "store" | "wake">;
  /** What each line's submitJob needs; its jobs are queued here, with one wake for the batch. */
  submit: Omit<SubmitDeps, "starter">;
  now: Clock;
}

export interface NewBatch {
  id: string;
  source: JobSource;
  /** Each of its jobs' options (a webhook also gets the batch's own Batch Completed). */
  options?: JobOptions;
  lines: CheckedLine[];
  /** The batch this one retries. */
  retryOf?: string;
}

/** Jobs made at once while a batch is recorded: enough to keep the store busy, few enough for dynalite. */
const CREATE_CONCURRENCY = 16;

export function newBatchId(): string {
  return `${BATCH_ID_PREFIX}_${ulid()}`;
}

/** A batch id fixed by its origin (a drop's bucket, key and etag; a caller's idempotency key). */
export function batchIdFrom(parts: readonly (string | number)[]): string {
  return `${BATCH_ID_PREFIX}_${ulidShapeFrom(parts)}`;
}

function lineOf(batchId: string, checked: CheckedLine): BatchLine {
  const kind = checked.validation?.kind ?? "video";
  return checked.validation?.valid === true
    ? { line: checked.line, jobId: jobIdFrom(kind, [batchId, checked.line]) }
    : { line: checked.line, errors: checked.errors ?? checked.validation?.errors ?? [] };
}

/** The end user a line's job is for: the line's own, else the batch's. */
function userOfLine(input: NewBatch, checked: CheckedLine): string | undefined {
  return checked.user ?? input.options?.user;
}

/** Each end user's claim of places among the waiting jobs, by user (undefined: no end user). */
type Claims = Map<string | undefined, QueueClaim | undefined>;

/**
 * One call from each end user's rate, and the valid lines counted among the key's waiting jobs
 * (and each end user's), one claim per end user: all fit, or nothing is made (429).
 */
async function claimAll(deps: CreateBatchDeps, input: NewBatch): Promise<Claims> {
  const counts = new Map<string | undefined, number>();
  for (const checked of input.lines)
    if (checked.validation?.valid === true) {
      const user = userOfLine(input, checked);
      counts.set(user, (counts.get(user) ?? 0) + 1);
    }
  if (counts.size === 0) counts.set(input.options?.user, 0);
  const claims: Claims = new Map();
  const exists = async () => (await deps.batches.get(input.id)) !== undefined;
  try {
    for (const [user, count] of counts) {
      await takeUserCall(deps.submit.keyLimits, input.source, user, deps.now());
      const claim = await claimQueue(deps.submit.keyLimits, input.source, count, exists, user);
      claims.set(user, claim);
    }
  } catch (error) {
    await giveBackAll(claims);
    throw error;
  }
  return claims;
}

async function giveBackAll(claims: Claims): Promise<void> {
  for (const claim of claims.values()) await claim?.giveBack();
}

export async function createBatch(
  deps: CreateBatchDeps,
  input: NewBatch,
): Promise<{ batch: Batch; created: boolean }> {
  const at = deps.now().toISOString();
  const lines = input.lines.map((checked) => lineOf(input.id, checked));
  const jobs = lines.filter((line) => line.jobId !== undefined).length;
  const claims = await claimAll(deps, input);
  try {
    return await recordBatch(deps, input, { at, lines, jobs }, claims);
  } finally {
    await giveBackAll(claims);
  }
}

async function recordBatch(
  deps: CreateBatchDeps,
  input: NewBatch,
  { at, lines, jobs }: { at: string; lines: BatchLine[]; jobs: number },
  claims: Claims,
): Promise<{ batch: Batch; created: boolean }> {
  const recorded = await deps.batches.createOrGet(
    {
      id: input.id,
      total: lines.length,
      jobs,
      rejected: lines.length - jobs,
      source: input.source,
      ...givenOptions(input.options ?? {}),
      ...(input.retryOf === undefined ? {} : { retryOf: input.retryOf }),
      createdAt: at,
      updatedAt: at,
      ended: 0,
    },
    lines,
  );
  // Made again after a crash, or the same request again: the jobs still missing are made now.
  const valid = input.lines.filter((checked) => checked.validation?.valid === true);
  for (let start = 0; start < valid.length; start += CREATE_CONCURRENCY) {
    await Promise.all(
      valid
        .slice(start, start + CREATE_CONCURRENCY)
        .map((checked) =>
          makeJob(deps, recorded.batch, checked, claims.get(userOfLine(input, checked))),
        ),
    );
  }
  await deps.admission.wake();
  return recorded;
}

async function makeJob(
  deps: CreateBatchDeps,
  batch: Batch,
  checked: CheckedLine,
  claim: QueueClaim | undefined,
): Promise<Job> {
  const validation = checked.validation as ValidationResult;
  // Queued without a wake each: createBatch wakes the dispatcher once for the whole batch.
  const queue: JobQueue = {
    start: (job) => deps.admission.store.enqueue(deps.admission.entryOf(job)),
  };
  const { job } = await submitJob(
    { ...deps.submit, starter: queue },
    {
      validation,
      source: checked.source,
      jobId: jobIdFrom(validation.kind ?? "video", [batch.id, checked.line]),
      batch: { id: batch.id, line: checked.line },
      options: {
        ...optionsOf(batch),
        ...(checked.metadata === undefined ? {} : { metadata: checked.metadata }),
        ...(checked.user === undefined ? {} : { user: checked.user }),
      },
      ...(checked.retryOf === undefined ? {} : { retryOf: checked.retryOf }),
      ...(claim === undefined ? {} : { queueClaim: claim }),
    },
  );
  return job;
}
