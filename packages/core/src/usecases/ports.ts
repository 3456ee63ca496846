/**
 * The ports between reelay's parts: what the use cases ask of the platform without knowing which
 * one answers. The flow's ports (starter, stopper, events, waker, metrics) have an AWS side (Step
 * Functions, EventBridge) and a local side (the in-process interpreter, a JSONL file), chosen once
 * by the wiring (`wiring/wire-pipeline.ts`, `functions/support/`, `packages/local`). The `...Port`
 * interfaces (the bucket and the upstream's HTTP API below, the table's stores in store-ports.ts,
 * re-exported here) are implemented by the classes of the same name in adapters/: the use cases
 * are typed by these, and only the wiring names the classes.
 */
import type { Readable } from "node:stream";
import type { SpriteGrid } from "../domain/jobs/types.ts";
import type { TaskState } from "../domain/contract/responses.ts";
import type { ReelayEvent } from "../domain/events/types.ts";
import type { AuditEvent, AuditRecord } from "../domain/audit/record.ts";
import type { AuditPage, AuditQuery } from "../domain/audit/query.ts";
import type { Job } from "../domain/jobs/types.ts";
import type { MetricLabels, MetricNameOf } from "../domain/metrics/names.ts";

/**
 * Where a recorded job starts its way (the API, drops, batches): into the admission queue, where it
 * waits for a slot; the dispatcher then starts its execution (ExecutionStarter). Queueing a job
 * that is already queued or running adds nothing.
 */
export interface JobQueue {
  start(job: Job): Promise<void>;
}

/** Starts a job's execution, the flow (the dispatcher). Starting one that already runs is a no-op. */
export interface ExecutionStarter {
  /** AWS: StartExecution named by executionName(job); local: the flow in-process. */
  start(job: Job): Promise<void>;
}

/** Stops a cancelled job's flow. */
export interface ExecutionStopper {
  /** AWS: StopExecution of the execution of that name (executionName below); local: aborts it. No error when none runs. */
  stop(execution: string): Promise<void>;
}

/**
 * A job's execution is named by its id, and by its admission count after a 429 put it back in the
 * queue: Step Functions keeps a closed execution's name for 90 days.
 */
export function executionName(job: Pick<Job, "id" | "admissions">): string {
  return (job.admissions ?? 1) > 1 ? `${job.id}-${job.admissions}` : job.id;
}

/** Where terminal events go: the EventBridge bus on AWS, `events.jsonl` and its subscribers locally. */
export interface EventSink {
  emit(event: ReelayEvent): Promise<void>;
}

/**
 * Where audit records are announced: the EventBridge bus on AWS, `events.jsonl` locally. Apart
 * from EventSink: an audit record is no job's event, so no webhook or event stream carries it.
 */
export interface AuditBus {
  announce(event: AuditEvent): Promise<void>;
}

/** The audit log's records (adapters/dynamodb/audit-table.ts): appended, listed, never changed. */
export interface AuditStorePort {
  append(record: AuditRecord): Promise<void>;
  list(query: AuditQuery): Promise<AuditPage<AuditRecord>>;
}

/** Terminal events as they happen (the local stack's SSE stream and webhooks). */
export interface EventSource {
  /** Calls `listener` for every later terminal event; returns the unsubscribe function. */
  subscribe(listener: (event: ReelayEvent) => void): () => void;
}

/** Asks the dispatcher to admit waiting jobs: after a job is queued and after a slot is freed. */
export interface DispatchWaker {
  /**
   * AWS: an asynchronous invoke of the Dispatch function; local: a run in this process. Never waits
   * for the run. `"freed"`: only a slot came free, which matters only if jobs wait (the local
   * dispatcher skips the run when its last one found the queue empty and nothing was queued since).
   */
  wake(why?: "freed"): Promise<void>;
}

/** The time now; tests and the bench pass their own. */
export type Clock = () => Date;

/**
 * Where the pipeline's metrics go: the local stack's Prometheus registry (`GET /metrics`), or the
 * CloudWatch embedded metric format on AWS. Typed on the catalog (domain/metrics/names.ts), so a name
 * that is not there, or a label it does not have, fails to compile. Recording never throws and
 * never waits: a metric must not fail a job.
 */
export interface Metrics {
  count<N extends MetricNameOf<"counter">>(name: N, labels: MetricLabels<N>, n?: number): void;
  observe<N extends MetricNameOf<"histogram">>(
    name: N,
    labels: MetricLabels<N>,
    value: number,
  ): void;
  set<N extends MetricNameOf<"gauge">>(name: N, labels: MetricLabels<N>, value: number): void;
}

/** Records nothing: the default wherever no metrics are wired (tests, tools). */
export const noMetrics: Metrics = {
  count: () => undefined,
  observe: () => undefined,
  set: () => undefined,
};

/** An object in the bucket, as ObjectStorePort reports it. */
export interface ObjectInfo {
  bucket: string;
  key: string;
  bytes: number;
  contentType: string;
}

/** An encoded still image, with the dimensions read from its own header. */
export interface RenderedImage {
  bytes: Uint8Array;
  contentType: string;
  width: number;
  height: number;
}

/** Decodes a video's frames into still images (adapters/media/ffmpeg-frames.ts). */
export interface FrameRendererPort {
  /**
   * A poster frame and a spritesheet of the video at `url` (read over HTTP, nothing staged on
   * disk); rejects when the video does not decode.
   */
  render(
    url: string,
    video: { durationS: number | undefined },
  ): Promise<{ thumbnail: RenderedImage; spritesheet: RenderedImage & SpriteGrid }>;
}

export interface StoredObject extends ObjectInfo {
  sha256: string;
}

/** Object tags (S3's lifecycle rules expire outputs by them: domain/jobs/retention.ts). */
export type ObjectTags = Readonly<Record<string, string>>;

/** An object's user metadata (S3 keeps it with the object and drops it with the object). */
export type ObjectMetadata = Readonly<Record<string, string>>;

export interface CopyOptions {
  tags?: ObjectTags;
  /** Given: the copy carries this metadata and content type instead of the source's. */
  replace?: { contentType: string; metadata: ObjectMetadata };
}

export interface PresignPutOptions {
  contentType: string;
  bytes: number;
  /** Hex sha256 of the body. */
  sha256?: string;
  ttlS: number;
}

export interface PresignedPut {
  url: string;
  /** Headers the PUT must send as they are (signed in); the length is signed too. */
  headers: Record<string, string>;
}

export interface UploadOptions {
  contentType: string;
  /** When given, any other byte count fails the upload (and aborts it). */
  expectedBytes?: number;
  tags?: ObjectTags;
}

export interface CreateOptions {
  idempotencyKey: string;
  /**
   * A 429 ends the call at once instead of being retried here: admission control puts the job
   * back in its queue and holds every create back, where a retry would meet the same full upstream.
   */
  noRetryWhenRateLimited?: boolean;
  /**
   * A create the upstream certainly did not accept (a refused connection) ends the call at once,
   * marked `details.notAccepted`: in a pool the job goes to another account instead. A timeout, a
   * reset after the body was sent or a 5xx (the task may have been made) is still retried here,
   * with the same key.
   */
  noRetryWhenNotAccepted?: boolean;
}

export interface QueryOptions {
  /**
   * Epoch ms (on the client's clock) after which no attempt starts, no backoff or Retry-After is
   * slept and no answer is awaited: the call then fails with the error it last saw. For a poll that
   * must not outlive its job's deadline.
   */
  until?: number;
}

export interface TaskAnswer {
  body: unknown;
  state: TaskState;
  httpStatus: number;
}

export interface VideoCreated {
  taskId: string;
  body: unknown;
  state: TaskState;
}

/** A synchronous image answer has no task id and is already succeeded. */
export interface ImageCreated {
  taskId?: string;
  body: unknown;
  state: TaskState;
}

export interface UpstreamModel {
  id: string;
  modality?: string;
}

export type * from "./store-ports.ts";

/** The bucket: outputs, manifests, drops and batch results. */
export interface ObjectStorePort {
  readonly bucket: string;
  put(
    key: string,
    body: string | Uint8Array,
    options: {
      contentType: string;
      tags?: ObjectTags;
      /** User metadata (S3's x-amz-meta-*), read back by head: lower-case names, ASCII values. */
      metadata?: ObjectMetadata;
    },
  ): Promise<void>;
  putJson(key: string, value: unknown, options?: { tags?: ObjectTags }): Promise<void>;
  /**
   * Copies an object of this bucket into another bucket, inside S3 (no bytes through here), with
   * none of its tags: the target's own rules apply there.
   */
  copyOut(key: string, target: { bucket: string; key: string }): Promise<void>;
  /** The object's bytes as a stream; `object_not_found` (404) when absent. */
  getStream(key: string): Promise<
    ObjectInfo & {
      body: Readable;
    }
  >;
  /** Size and type, or undefined when there is no such object. */
  head(key: string): Promise<
    | (ObjectInfo & {
        etag?: string;
        metadata?: ObjectMetadata;
      })
    | undefined
  >;
  delete(key: string): Promise<void>;
  /**
   * A server-side copy within the bucket (S3 CopyObject: no bytes pass through reelay) carrying
   * `tags` (none when absent), never the source's; `object_not_found` (404) when `from` is absent.
   */
  copy(from: string, to: string, options?: CopyOptions): Promise<void>;
  presignGet(key: string, ttlS: number): Promise<string>;
  /**
   * A PUT link of `key` signed for `ttlS` seconds with the content type and length (and, given,
   * the sha256) signed in, and the headers the PUT must carry: S3 refuses any other body.
   */
  presignPut(key: string, options: PresignPutOptions): Promise<PresignedPut>;
  /**
   * Streams `body` into the bucket, hashing and counting on the way: one PutObject when it is
   * smaller than a part, otherwise a multipart upload of 8 MiB parts (see partSizeFor), QUEUE_SIZE in flight while one
   * more fills. The part buffers are allocated once per upload and reused, so memory stays flat
   * whatever the size and a 1 GiB copy does not churn 128 fresh part buffers through the garbage
   * collector (lib-storage's Upload did, and spent more time collecting than copying). The body is
   * read as plain chunks (any Readable or async iterable), with no stream layer between it and the
   * part buffers. The last part is sent only after the source ended with the expected byte count,
   * so a short or long body never completes an object; on any error the multipart upload is
   * aborted, so no object and no orphaned parts are left, and the error is thrown.
   */
  uploadStream(
    key: string,
    body: AsyncIterable<Uint8Array>,
    options: UploadOptions,
  ): Promise<StoredObject>;
}

/** The upstream generation service (the contract's HTTP API). */
export interface UpstreamClientPort {
  readonly baseUrl: string;
  createVideo(body: object, opts: CreateOptions): Promise<VideoCreated>;
  getVideoTask(taskId: string, opts?: QueryOptions): Promise<TaskAnswer>;
  createImage(body: object, opts: CreateOptions): Promise<ImageCreated>;
  getImageTask(taskId: string, opts?: QueryOptions): Promise<TaskAnswer>;
  /** OpenAI-compatible multipart edit; fetch sets the multipart Content-Type with its boundary. */
  editImages(form: FormData, opts: CreateOptions): Promise<ImageCreated>;
  listModels(modality?: "video" | "image"): Promise<UpstreamModel[]>;
}

/** A pool's clients by account name (REELAY_UPSTREAMS). */
export interface UpstreamPoolPort {
  /** The account's client; undefined when no account of that name is configured. */
  client(account: string): UpstreamClientPort | undefined;
}
