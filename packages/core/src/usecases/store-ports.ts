/**
 * The stores' ports: the records reelay keeps in its one table (jobs, admission, batches, budgets,
 * key limits, generation stats, webhook deliveries and subscribers, API keys, the reuse index),
 * implemented by the DynamoDB classes of the same name in adapters/dynamodb. Re-exported by
 * ports.ts, the one file the adapters and use cases import ports from.
 */
import type { Circuit } from "../domain/upstreams/circuit.ts";
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
import type { BucketTurn, EffectiveLimits, KeyLimits } from "../domain/keys/key-limits.ts";
import type { UserLimits } from "../domain/keys/end-users.ts";
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
import type { Job } from "../domain/jobs/types.ts";
import type { LastProblem, RecentProblems } from "../domain/upstreams/problems.ts";

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
  /** The entry's stream (domain/admission/queue.ts: queueStreamOf), which becomes the cursor. */
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
  claimsOf(job: Pick<Job, "source" | "user">): Promise<BudgetClaim[]>;
  /** The budget of the key's end user (its user_limits.budget), read now; undefined = none. */
  userClaimOf(
    keyId: string | undefined,
    user: string | undefined,
  ): Promise<BudgetClaim | undefined>;
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
 * Limits per key (domain/keys/key-limits.ts), on one item per lane (a key id; `local`, the deployment's
 * key; `drop`; a key's end user, domain/keys/end-users.ts), so every API instance and dispatcher
 * counts against the same numbers.
 */
export interface KeyLimitsPort {
  /**
   * The lane's limits: a stored key's own over REELAY_KEY_LIMITS, the deployment's for its own key
   * and drops, the key's user_limits for an end user's lane. `own` is the key's record's limits when
   * the caller has them (else read, kept a few seconds).
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
  /** Its user_limits (limits for each of its end users). */
  userLimitsOf(id: string): Promise<UserLimits | undefined>;
  /** Set (undefined: remove) the key's budget, whose current period keeps what it used, or limits. */
  setBudget(id: string, budget: Budget | undefined): Promise<ApiKeyRecord>;
  setLimits(id: string, limits: KeyLimits | undefined): Promise<ApiKeyRecord>;
  /** Marks the key revoked (kept for the audit trail); revoking twice keeps the first time. */
  revoke(id: string): Promise<ApiKeyRecord>;
  /** A new secret for the key's jobs' own webhooks (the current one signs beside it for 24 h). */
  rotateWebhookSecret(id: string): Promise<string>;
  webhookSecretsOf(id: string): Promise<string[]>;
}
