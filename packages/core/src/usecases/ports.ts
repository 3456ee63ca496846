/**
 * The ports between reelay's parts: what the use cases ask of the platform without knowing which
 * one answers. The flow's ports (starter, stopper, events, waker, metrics) have an AWS side (Step
 * Functions, EventBridge) and a local side (the in-process interpreter, a JSONL file), chosen once
 * by the wiring (`wiring/wire-pipeline.ts`, `functions/support/`, `packages/local`). The stores'
 * ports (`...Port`, below) are implemented by the classes of the same name in adapters/ (DynamoDB,
 * S3, the upstream's HTTP API): the use cases are typed by these, and only the wiring names the
 * classes.
 */
import type { Circuit } from "../domain/upstreams/circuit.ts";
import type { Readable } from "node:stream";
import type { SpriteGrid } from "../domain/jobs/types.ts";
import type {
  ListOptions,
  JobPage,
  Transition,
  UpdateOptions,
} from "../domain/jobs/job-queries.ts";
import type { AdmissionState, AcquireResult, QueueEntry } from "../domain/admission/queue.ts";
import type { LearnedLimit } from "../domain/admission/settings.ts";
import type { Batch, BatchLine } from "../domain/batches/types.ts";
import type { Budget, BudgetClaim } from "../domain/money/budget-schema.ts";
import type { BucketTurn, EffectiveLimits, KeyLimits } from "../domain/keys/limits.ts";
import type { ApiKeyRecord, CreatedApiKey, NewApiKey } from "../domain/keys/api-key.ts";
import type { Estimate, Reservation } from "../domain/money/types.ts";
import type { GenerationHistory } from "../domain/polling/history.ts";
import type {
  Delivery,
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryStatus,
  DeliveryFilters,
} from "../domain/webhooks/delivery.ts";
import type { SubscriberRecord, ManagedSubscriber } from "../domain/webhooks/managed-subscriber.ts";
import type { TaskState } from "../domain/contract/responses.ts";
import type { ReelayEvent } from "../domain/events/types.ts";
import type { AuditEvent, AuditRecord } from "../domain/audit/record.ts";
import type { AuditPage, AuditQuery } from "../domain/audit/query.ts";
import type { Job } from "../domain/jobs/types.ts";
import type { MetricLabels, MetricNameOf } from "../domain/metrics/names.ts";
import type { LastProblem, RecentProblems } from "../domain/upstreams/problems.ts";

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

/** What the reuse index holds for one fingerprint in one project. */
export interface ReuseEntry {
  /**
   * The job that claimed the upstream task for the fingerprint last, and when; it may have ended
   * since, and for a moment after the claim its record may not exist yet.
   */
  leader?: { jobId: string; at: string };
  /** The newest job with the fingerprint that succeeded with an upstream task of its own, and when. */
  succeeded?: { jobId: string; at: string };
}

/** The reuse index (usecases/reuse): one item per fingerprint and project. */
export interface ReuseIndexPort {
  read(scope: string, fingerprint: string): Promise<ReuseEntry | undefined>;
  /**
   * Makes `jobId` the leader if the leader is still `expected` (absent: none yet), in one
   * conditional write; false when another job claimed it first.
   */
  claim(
    scope: string,
    fingerprint: string,
    claim: { jobId: string; at: string },
    expected?: string,
  ): Promise<boolean>;
  /** Gives the lead up, if `jobId` still holds it (its job was refused before it was recorded). */
  release(scope: string, fingerprint: string, jobId: string): Promise<void>;
  /** Records `jobId` as the newest succeeded job, unless a later one is recorded. */
  succeeded(scope: string, fingerprint: string, jobId: string, at: string): Promise<void>;
}

/** The job records: one item per job, moved between statuses by conditional writes. */
export interface JobStorePort {
  readonly tableName: string;
  /** The reuse index, beside the records in the same table. */
  readonly reuse: ReuseIndexPort;
  /** Writes a new job; `job_exists` (409) when the id is taken. */
  create(job: Job): Promise<Job>;
  /** Creates the job, or returns the one already recorded under its id (same input seen twice). */
  createOrGet(job: Job): Promise<{
    job: Job;
    created: boolean;
  }>;
  get(id: string): Promise<Job | undefined>;
  /**
   * Deletes a finished job's record (retention), only once its terminal event was sent, so a job
   * still owed its event is never forgotten. False when the record is gone or not yet done with.
   */
  removeFinished(id: string): Promise<boolean>;
  /** The jobs among `ids` that exist, read 100 at a time (BatchGetItem's limit), in no set order. */
  getMany(ids: readonly string[]): Promise<Job[]>;
  require(id: string): Promise<Job>;
  /**
   * Newest first. With filters, DynamoDB filters after reading, so pages are filled by reading on
   * until `limit` jobs match; the cursor is the last job returned, so the next page starts right
   * after it whatever was skipped.
   */
  list(options?: ListOptions): Promise<JobPage>;
  /**
   * Every job created in [from, to) (ISO times), oldest first, optionally only one key's; a range
   * of more than `max` jobs is 400 usage_range_too_large rather than a report that never ends.
   */
  createdBetween(range: {
    from: string;
    to: string;
    apiKeyId?: string;
    project?: string;
    max: number;
  }): AsyncGenerator<Job>;
  /**
   * Moves a job from one of `from` to `to`, appending to its history, in one conditional write.
   * `job_conflict` (409, details.status = the current status) when the job is not in `from`.
   */
  transition(id: string, transition: Transition): Promise<Job>;
  /** A conditional patch that never changes status; see UpdateOptions for the conditions. */
  update(id: string, patch: Partial<Job>, options?: UpdateOptions): Promise<Job>;
}

/** Admission's shared state: the slots in flight, the learned limit and the queue. */
/** One slot write's terms (AdmissionStorePort.acquire). */
export interface AcquireOptions {
  limit: number;
  now: number;
  spacingMs: number;
  lane: string;
  /** A half-open circuit's probe: the circuit to write with the slot, taken only while no other probe is under way. */
  probe?: Circuit;
}

export interface AdmissionStorePort {
  state(): Promise<AdmissionState>;
  /**
   * The state this process read at most `maxAgeMs` ago (with its own writes since applied), else a fresh read. For a writer whose
   * write is conditional anyway (learn: on learnedVersion), so a stale copy costs a lost race, never
   * a wrong limit; on the local stack the dispatcher's reads usually serve it.
   */
  recentState(maxAgeMs: number): Promise<AdmissionState>;
  /** The admission item with an empty holder map, so slot writes can address `held.<jobId>`. */
  ensure(): Promise<void>;
  /**
   * Takes a slot for `jobId` when fewer than `limit` are held and no create is due later than
   * `now`; the next create is then due `spacingMs` later, and the lane becomes the cursor.
   */
  acquire(jobId: string, opts: AcquireOptions): Promise<AcquireResult>;
  /** Replaces the circuit when it is still `from`; false when another writer moved it. */
  setCircuit(from: Circuit, to: Circuit): Promise<boolean>;
  /** Keeps the queue's round-robin cursor (a pool's dispatch; one account's acquire moves it itself). */
  setCursor(lane: string): Promise<void>;
  /** Frees the job's slot; true when it held one. */
  release(jobId: string): Promise<boolean>;
  /**
   * Replaces the learned limit when it is still at `version`. Another writer may have moved it
   * first: this change is then dropped, which only makes the limit adapt a step later.
   */
  learn(version: number, next: LearnedLimit): Promise<boolean>;
  /** No admission before `until` (epoch ms); a hold only ever moves the next create later. */
  hold(until: number): Promise<void>;
  /** Counts one problem of the account in its minute and keeps it as the last error (domain/upstreams/problems.ts). */
  recordProblem(problem: LastProblem, now: number): Promise<void>;
  /** The account's problems over the window ending at `now`. */
  problems(now: number): Promise<RecentProblems>;
  enqueue(entry: QueueEntry): Promise<void>;
  dequeue(jobId: string): Promise<void>;
  entry(jobId: string): Promise<QueueEntry | undefined>;
  /**
   * The head of the first lane after `cursor`, wrapping to the first lane; undefined = empty queue.
   * The queue's head comes first: an empty queue (most dispatch runs' last look) is one Query.
   * Entries in `pending` (being admitted by this run, not yet out of the queue) are passed over.
   */
  next(
    cursor: string,
    pending?: ReadonlySet<string>,
    skipLanes?: ReadonlySet<string>,
  ): Promise<QueueEntry | undefined>;
  /** How many entries of the same lane come before this one (approximate under concurrent change). */
  ahead(entry: QueueEntry): Promise<number>;
  /** How many jobs wait in the queue. */
  queued(): Promise<number>;
  /** Every waiting entry, oldest lane order; for the sweep and the metrics. */
  entries(): AsyncGenerator<QueueEntry>;
}

/** Batch records and their lines. */
export interface BatchStorePort {
  /** Records the batch and its lines; the same batch made again (a repeated drop) finds the first. */
  createOrGet(
    batch: Batch,
    lines: BatchLine[],
  ): Promise<{
    batch: Batch;
    created: boolean;
  }>;
  get(id: string): Promise<Batch | undefined>;
  require(id: string): Promise<Batch>;
  /** Every line, in order. */
  lines(batch: Pick<Batch, "id" | "total">): Promise<BatchLine[]>;
  /** Newest first; `apiKeyId` keeps one caller's batches, `project` one project's. */
  list(opts: { limit: number; apiKeyId?: string; project?: string }): Promise<Batch[]>;
  /** Batches not announced yet (a crash may leave one finished but unannounced), for the sweep. */
  open(): Promise<Batch[]>;
  /** One more of the batch's jobs ended; the batch as it now stands. */
  jobEnded(id: string, at: string): Promise<Batch>;
  /** Sets `field` (finishedAt, announcedAt, cancelledAt) once; false when it was set already. */
  setOnce(
    id: string,
    field: "finishedAt" | "announcedAt" | "cancelledAt",
    at: string,
    extra?: Partial<Pick<Batch, "ended">>,
  ): Promise<boolean>;
  /**
   * Claims the batch's announcement for one completer: true for the caller whose `claim` (the time,
   * then something unique to the caller) is stored, replacing none or one older than `staleBefore`
   * (left by a completer that crashed); false for the others, also after a lost and retried answer.
   */
  claimAnnouncement(id: string, claim: string, staleBefore: string): Promise<boolean>;
  /** Marks the batch due for completion (every job ended), for the dispatcher's next run. */
  markDue(id: string): Promise<void>;
  due(): Promise<string[]>;
  clearDue(id: string): Promise<void>;
}

/** Budget reservations: reserved at creation or admission, settled to the cost when a job ends. */
export interface BudgetLedgerPort {
  get deployment(): Budget | undefined;
  /** The budgets over a job made by `keyId` whose budget (if any) is already known. */
  claimsFor(keyId: string | undefined, keyBudget: Budget | undefined): BudgetClaim[];
  /** The budgets over a queued job, its key's read now (batch and drop jobs reserve at admission). */
  claimsOf(job: Pick<Job, "source">): Promise<BudgetClaim[]>;
  /**
   * Reserves the job's estimate from every claim, or none: a refusal gives back what the earlier
   * claims reserved and throws 402 budget_exceeded naming what remains of the budget that refused.
   */
  reserve(claims: BudgetClaim[], estimate: Estimate, now: Date): Promise<Reservation[]>;
  /** What the ledger holds: settled spend plus open reservations, in millionths. */
  used(ledger: string): Promise<number>;
  /** Gives reservations back whole (the job was never made). */
  release(reservations: readonly Reservation[]): Promise<void>;
  /**
   * Settles an ended job's reservations to what it cost: money to its cost, units to its usage when
   * charged; nothing was spent when nothing was charged.
   */
  settle(job: Job): Promise<void>;
}

/**
 * Limits per key (domain/keys/limits.ts), on one item per lane (a key id; `local`, the deployment's
 * key; `drop`), so every API instance and dispatcher counts against the same numbers.
 */
export interface KeyLimitsPort {
  /**
   * The lane's limits: a stored key's own over REELAY_KEY_LIMITS, the deployment's for its own key
   * and drops. `own` is the key's record's when the caller has it (else read, kept a few seconds).
   */
  limitsOf(lane: string, own?: KeyLimits): Promise<EffectiveLimits>;
  /** One call against the lane's bucket, in one conditional write. */
  take(lane: string, limits: { rate: number; burst: number }, now: number): Promise<BucketTurn>;
  /** Counts `n` more of the lane's jobs waiting if that stays within `max`; false, and nothing counted, if not. */
  claimQueued(lane: string, n: number, max: number): Promise<boolean>;
  /** Gives back `n` counted places: jobs that were not made after all. */
  releaseQueued(lane: string, n: number): Promise<void>;
  /**
   * A place among the lane's jobs in flight for `jobId`, if fewer than `max` hold one (a job
   * holding one already keeps it). Places of jobs that `holding` says hold no upstream slot, taken
   * over STALE_IN_FLIGHT_MS ago, are given back first: a slot freed anywhere frees the place. When
   * none is free, `retryInMs` says when the first such place will be old enough to give back.
   */
  acquireInFlight(
    lane: string,
    jobId: string,
    max: number,
    now: number,
    holding: (jobId: string) => boolean,
  ): Promise<{ taken: boolean; retryInMs?: number }>;
  /** Gives the job's place back (its upstream slot was not taken after all). */
  releaseInFlight(lane: string, jobId: string): Promise<void>;
}

/** Observed generation times per model and duration, for the predicted first wait. */
export interface GenerationStatsStorePort {
  /** What has been recorded under `key`; undefined before the first sample. */
  history(key: string): Promise<GenerationHistory | undefined>;
  /** Adds one generation time (ms) under `key`. */
  record(key: string, ms: number): Promise<void>;
}

/** Webhook deliveries: one per (event, subscriber), claimed under a lease by a sweep. */
export interface DeliveryStorePort {
  /** Writes a new delivery; false when one with its id exists (an event enqueued twice). */
  add(delivery: Delivery): Promise<boolean>;
  get(id: string): Promise<Delivery | undefined>;
  /** Pending deliveries whose next attempt is at or before `now`, soonest first. */
  due(now: Date, limit: number): Promise<Delivery[]>;
  /**
   * Takes a due delivery for one attempt: its next attempt moves to `leaseUntil`, so no other sweep
   * takes it meanwhile. Undefined when another sweep or a retry changed it first.
   */
  claim(delivery: Delivery, leaseUntil: Date): Promise<ClaimedDelivery | undefined>;
  /**
   * Appends an attempt to a claimed delivery and moves it on: delivered, dead, or pending until
   * `nextAttemptAt`. False when the lease was lost (a retry reset it meanwhile).
   */
  record(
    claimed: ClaimedDelivery,
    attempt: DeliveryAttempt,
    next: {
      status: DeliveryStatus;
      nextAttemptAt?: string;
    },
  ): Promise<boolean>;
  /**
   * Makes a delivery due now for one more attempt (a dead one gets exactly one; a pending one keeps
   * what its schedule had left). `delivery_not_found` for an unknown id.
   */
  retry(id: string, now: Date): Promise<Delivery>;
  /**
   * Deletes up to `limit` delivered or dead deliveries that ended before `before`; answers how many.
   * Their index entries sort by the time they ended, so the oldest are found first.
   */
  purge(before: Date, limit: number): Promise<number>;
  /** Newest first (by creation), across the statuses asked for. */
  list(filters?: DeliveryFilters): Promise<Delivery[]>;
}

/** Webhook subscribers made through the API, with their signing secrets. */
export interface SubscriberStorePort {
  create(
    input: Pick<SubscriberRecord, "url" | "events" | "description" | "ownerKeyId" | "project">,
    now: Date,
  ): Promise<{
    record: SubscriberRecord;
    secret: string;
  }>;
  get(id: string): Promise<ManagedSubscriber | undefined>;
  /** Every subscriber, oldest first; `project` keeps one project's. */
  list(project?: string): Promise<ManagedSubscriber[]>;
  /** The subscriber of this owner, or webhook_subscriber_not_found (another key's is not shown either). */
  owned(id: string, project: string): Promise<ManagedSubscriber>;
  remove(id: string, project: string): Promise<SubscriberRecord>;
  /** A new secret; the current one keeps signing for 24 h beside it, older ones stop. */
  rotate(id: string, project: string, now: Date): Promise<string>;
}

/** Stored API keys, kept hashed: the key itself is shown once, at create, and never stored. */
export interface ApiKeyStorePort {
  create(input: NewApiKey): Promise<CreatedApiKey>;
  /** The live key's record; undefined for an unknown or revoked key, 401 key_expired if expired. */
  verify(key: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, revoked ones included, newest first. */
  list(): Promise<ApiKeyRecord[]>;
  /** A key's budget and own limits by its id, from a listing a few seconds old at most. */
  budgetOf(id: string): Promise<Budget | undefined>;
  limitsOf(id: string): Promise<KeyLimits | undefined>;
  /** Set (undefined: remove) the key's budget, whose current period keeps what it used, or limits. */
  setBudget(id: string, budget: Budget | undefined): Promise<ApiKeyRecord>;
  setLimits(id: string, limits: KeyLimits | undefined): Promise<ApiKeyRecord>;
  /** Marks the key revoked (kept for the audit trail); revoking twice keeps the first time. */
  revoke(id: string): Promise<ApiKeyRecord>;
  /** A new secret for the key's jobs' own webhooks (the current one signs beside it for 24 h). */
  rotateWebhookSecret(id: string): Promise<string>;
  webhookSecretsOf(id: string): Promise<string[]>;
}

/** The bucket: outputs, manifests, drops and batch results. */
export interface ObjectStorePort {
  readonly bucket: string;
  put(
    key: string,
    body: string | Uint8Array,
    options: {
      contentType: string;
      tags?: ObjectTags;
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
      })
    | undefined
  >;
  delete(key: string): Promise<void>;
  /**
   * A server-side copy within the bucket (S3 CopyObject: no bytes pass through reelay) carrying
   * `tags` (none when absent), never the source's; `object_not_found` (404) when `from` is absent.
   */
  copy(from: string, to: string, options?: { tags?: ObjectTags }): Promise<void>;
  presignGet(key: string, ttlS: number): Promise<string>;
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
