/**
 * What a job looks like from outside: the service contract's task shape (for clients written for
 * the upstream) and reelay's own JobView. Output links are presigned GETs of the S3 copies.
 */
import { type AdmissionControl, type ObjectStorePort, priorityOf } from "@reelay/core/usecases";
import {
  type Priority,
  type Job,
  type JobError,
  type JobOutput,
  type JobPreviews,
  type Media,
  type ClassifiedError,
  classifiedError,
  type MoneyView,
  moneyView,
  mapStrings,
  attemptsView,
  type AttemptView,
  DEFAULT_ACCOUNT,
  linkTtlS,
  outputsExpired,
  targetUri,
} from "@reelay/core/domain";

interface OutputView extends Omit<JobOutput, "sourceUrlHost"> {
  /** Presigned GET; null when the object lives in a bucket this API does not sign for. */
  url: string | null;
  expiresAt: string | null;
}

/** The job record as the API shows it: internal fields (lastError, eventEmittedAt) left out. */
export interface JobView
  extends MoneyView,
    Pick<
      Job,
      | "id"
      | "kind"
      | "status"
      | "model"
      | "mode"
      | "request"
      | "warnings"
      | "adjustments"
      | "source"
      | "idempotencyKey"
      | "polls"
      | "history"
      | "retryOf"
      | "retriedBy"
      | "webhook"
    > {
  upstreamTaskId: string | null;
  /** The name the request gave for the model: an alias or a sunset model's; else `model` itself. */
  requested_model: string;
  /** The account the job's task is on and the task's id there; null before it was admitted. */
  upstream: { account: string; task_id: string | null } | null;
  /** Each upstream attempt: tries on other accounts whose task failed, then the current one. */
  attempts: AttemptView[];
  priority: Priority;
  /** While the job waits for an upstream slot: its place among the caller's waiting jobs. */
  queue_position?: number;
  /** The job whose output this one copies instead of an upstream task (reuse). */
  reused_from?: string;
  /** sha256 of the model, the normalized request and its materials: what reuse matches on. */
  fingerprint?: string;
  /** The end user the job was made for (user / X-Reelay-User); absent when none was named. */
  user?: string;
  outputs: OutputView[];
  /** What the stored output is, read from its own structure; null until downloaded. */
  media: Media | null;
  /** Days its outputs are kept once stored (retention_days or REELAY_RETENTION_DAYS); null = for good. */
  retention_days: number | null;
  /** The reelay release that made the job; null for a job made before releases were recorded. */
  created_by_version: string | null;
  /** When its outputs expire; null while there are none, or when they are kept for good. */
  expires_at: string | null;
  /** True once expires_at has passed: the record stays, its outputs have no links. */
  outputs_expired: boolean;
  /** Where its outputs are copied besides reelay's bucket (output.s3_prefix); null for nowhere. */
  output_target: { s3_prefix: string } | null;
  /** The caller's own string pairs (metadata / X-Reelay-Metadata), as given; {} when none. */
  metadata: Record<string, string>;
  /** A succeeded video's poster frame and spritesheet, each with a presigned GET; null when it has none. */
  previews: PreviewsView | null;
  /** With its failure class and whether the same request may succeed later. */
  error: ClassifiedError | null;
  timings: {
    createdAt: string;
    updatedAt: string;
    submittedAt: string | null;
    upstreamDoneAt: string | null;
    finishedAt: string | null;
    deadlineAt: string | null;
    totalMs: number | null;
  };
}

type PreviewsView = {
  [V in keyof JobPreviews]: JobPreviews[V] & { url: string };
};

/** Signed like the outputs, and only once the job succeeded (the content route serves the same). */
async function previewsView(job: Job, signer: Presigner): Promise<PreviewsView | null> {
  const previews = job.previews;
  if (previews === undefined || job.status !== "succeeded") return null;
  const sign = (key: string) => signer.objects.presignGet(key, signer.ttlS);
  const [thumbnail, spritesheet] = await Promise.all([
    sign(previews.thumbnail.key),
    sign(previews.spritesheet.key),
  ]);
  return {
    thumbnail: { ...previews.thumbnail, url: thumbnail },
    spritesheet: { ...previews.spritesheet, url: spritesheet },
  };
}

/** The contract's task record (docs/contract.md §2.5), status names reelay's own (all terminal ones are in §3's list). */
export interface TaskView {
  service_task: { task_id: string; status: string; output?: { video_url: string } };
  task_id: string;
  status: string;
  video_url?: string;
  output?: { url: string; bytes: number; sha256: string; content_type: string; expires_at: string };
  error: JobError | null;
  queue_position?: number;
}

export interface Presigner {
  objects: ObjectStorePort;
  ttlS: number;
  now: () => Date;
}

/** A link that never outlives the object: cut to the job's expires_at, none once it passed. */
async function presign(
  job: Pick<Job, "expiresAt">,
  output: JobOutput,
  signer: Presigner,
): Promise<{ url: string; expiresAt: string } | undefined> {
  if (output.bucket !== signer.objects.bucket) return undefined;
  const now = signer.now();
  const ttlS = linkTtlS(job, signer.ttlS, now);
  if (ttlS < 1) return undefined;
  const expiresAt = new Date(now.getTime() + ttlS * 1000).toISOString();
  return { url: await signer.objects.presignGet(output.key, ttlS), expiresAt };
}

const SIGNED_QUERY = /[?&]x-amz-(signature|credential|security-token)=/i;

/**
 * Presigned material URLs (drops pass S3 objects upstream that way) carry a credential and, on
 * Lambda, a session token in their query: a job view shows where they point, never the query.
 */
function withoutSignature(value: string): string {
  if (!SIGNED_QUERY.test(value)) return value;
  const at = value.indexOf("?");
  return `${value.slice(0, at)}?(signature removed)`;
}

function ms(from: string, to: string | undefined): number | null {
  if (to === undefined) return null;
  const span = Date.parse(to) - Date.parse(from);
  return Number.isFinite(span) ? Math.max(0, span) : null;
}

/** A job's outputs as its view shows them: each with a link while the job is succeeded. */
function outputsView(job: Job, signer: Presigner): Promise<OutputView[]> {
  return Promise.all(
    (job.outputs ?? []).map(async (output): Promise<OutputView> => {
      const link = job.status === "succeeded" ? await presign(job, output, signer) : undefined;
      return {
        bucket: output.bucket,
        key: output.key,
        bytes: output.bytes,
        sha256: output.sha256,
        contentType: output.contentType,
        ...(output.media === undefined ? {} : { media: output.media }),
        ...(output.delivered === undefined ? {} : { delivered: output.delivered }),
        url: link?.url ?? null,
        expiresAt: link?.expiresAt ?? null,
      };
    }),
  );
}

export async function jobView(job: Job, signer: Presigner): Promise<JobView> {
  const outputs = await outputsView(job, signer);
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    model: job.model,
    requested_model: job.requestedModel ?? job.model,
    mode: job.mode,
    request: mapStrings(job.request, withoutSignature),
    warnings: job.warnings,
    ...(job.adjustments === undefined ? {} : { adjustments: job.adjustments }),
    source: job.source,
    idempotencyKey: job.idempotencyKey,
    upstreamTaskId: job.upstreamTaskId ?? null,
    upstream:
      job.upstreamAccount === undefined && job.upstreamTaskId === undefined
        ? null
        : { account: job.upstreamAccount ?? DEFAULT_ACCOUNT, task_id: job.upstreamTaskId ?? null },
    priority: priorityOf(job),
    attempts: attemptsView(job),
    polls: job.polls,
    outputs,
    media: job.media ?? null,
    retention_days: job.retentionDays ?? null,
    created_by_version: job.createdByVersion ?? null,
    expires_at: job.expiresAt ?? null,
    outputs_expired: outputsExpired(job, signer.now()),
    output_target:
      job.outputTarget === undefined ? null : { s3_prefix: targetUri(job.outputTarget) },
    metadata: job.metadata ?? {},
    previews: await previewsView(job, signer),
    error: job.error === undefined ? null : classifiedError(job.error),
    ...moneyView(job),
    ...(job.retryOf === undefined ? {} : { retryOf: job.retryOf }),
    ...(job.retriedBy === undefined ? {} : { retriedBy: job.retriedBy }),
    ...(job.reusedFrom === undefined ? {} : { reused_from: job.reusedFrom }),
    ...(job.fingerprint === undefined ? {} : { fingerprint: job.fingerprint }),
    ...(job.webhook === undefined ? {} : { webhook: job.webhook }),
    ...(job.user === undefined ? {} : { user: job.user }),
    history: job.history,
    timings: {
      createdAt: job.createdAt,
      updatedAt: job.updatedAt,
      submittedAt: job.submittedAt ?? null,
      upstreamDoneAt: job.upstreamDoneAt ?? null,
      finishedAt: job.finishedAt ?? null,
      deadlineAt: job.deadlineAt ?? null,
      totalMs: ms(job.createdAt, job.finishedAt),
    },
  };
}

/**
 * The video and output fields appear only on success: a client of the contract ends polling as
 * soon as a video URL appears, so none may appear earlier.
 */
export async function taskView(job: Job, signer: Presigner): Promise<TaskView> {
  const first = job.outputs?.[0];
  const link =
    job.status === "succeeded" && first !== undefined
      ? await presign(job, first, signer)
      : undefined;
  const base = { task_id: job.id, status: job.status };
  const error =
    job.status === "failed" || job.status === "cancelled"
      ? (job.error ?? { code: job.status, message: `The job is ${job.status}.` })
      : null;
  if (link === undefined || first === undefined)
    return { service_task: { ...base }, ...base, error };
  return {
    service_task: { ...base, output: { video_url: link.url } },
    ...base,
    video_url: link.url,
    output: {
      url: link.url,
      bytes: first.bytes,
      sha256: first.sha256,
      content_type: first.contentType,
      expires_at: link.expiresAt,
    },
    error,
  };
}

/** The answer to a create, video or image: the task id at `service_task.task_id` and top level (docs/contract.md §2.5). */
export function createdView(job: Job): {
  service_task: { task_id: string; status: string };
  task_id: string;
  status: string;
  model: string;
  requested_model: string;
  warnings: Job["warnings"];
  adjustments?: Job["adjustments"];
  estimate: MoneyView["estimate"] & { usage: MoneyView["usage"] };
} {
  const task = { task_id: job.id, status: job.status };
  const money = moneyView(job);
  return {
    service_task: task,
    ...task,
    model: job.model,
    requested_model: job.requestedModel ?? job.model,
    warnings: job.warnings,
    ...(job.adjustments === undefined ? {} : { adjustments: job.adjustments }),
    estimate: { usage: money.usage, ...money.estimate },
  };
}

/** Adds `queue_position` to a view of a job that waits for an upstream slot. */
export async function withQueuePosition<T extends object>(
  view: T,
  job: Job,
  admission: AdmissionControl,
): Promise<T & { queue_position?: number }> {
  const position = await admission.position(job);
  return position === undefined ? view : { ...view, queue_position: position };
}
