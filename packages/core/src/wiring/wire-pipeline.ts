/**
 * The one function that puts the pipeline together from a config and a platform. The Lambda
 * functions (`functions/support/deps.ts`) and the local stack (`packages/local/src/stack.ts`) each
 * make their platform's clients once per process and hand them here, so the stores, the fetch
 * policy and the polling settings are chosen in one place for both.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { BudgetLedger } from "../adapters/dynamodb/budget-ledger.ts";
import type { PriceTable } from "../domain/money/prices.ts";
import { createCatalog } from "../domain/catalog/catalog.ts";
import type { Catalog } from "../domain/catalog/types.ts";
import { AdmissionControl } from "../usecases/admission/admission-control.ts";
import { AdmissionStore } from "../adapters/dynamodb/admission-table.ts";
import { BatchTracker } from "../usecases/batches/batch-progress.ts";
import { BatchStore } from "../adapters/dynamodb/batch-table.ts";
import type { Config } from "./config.ts";
import type { DropDeps } from "../usecases/drops/ingest.ts";
import type { SubmitDeps } from "../usecases/jobs/submit-job.ts";
import {
  CachedGenerationStats,
  GenerationStatsStore,
} from "../adapters/dynamodb/generation-stats-table.ts";
import { JobStore } from "../adapters/dynamodb/job-table.ts";
import { ApiKeyStore } from "../adapters/dynamodb/api-key-table.ts";
import { KeyLimitsStore } from "../adapters/dynamodb/key-limits-table.ts";
import { AuditStore } from "../adapters/dynamodb/audit-table.ts";
import { AuditLog } from "../usecases/audit/audit-log.ts";
import { guardedFetch } from "../adapters/net/guarded-fetch.ts";
import { type Deployment, outputFetchPolicy } from "../domain/net/policy.ts";
import type { PipelineDeps } from "../usecases/pipeline/pipeline-deps.ts";
import { POLL_WINDOW_MS } from "../domain/polling/policy.ts";
import { noMetrics } from "../usecases/ports.ts";
import type {
  AuditBus,
  DispatchWaker,
  EventSink,
  JobQueue,
  Metrics,
  UpstreamClientPort,
} from "../usecases/ports.ts";
import type { AccountAdmission } from "../usecases/admission/admission-control.ts";
import type { UpstreamAccount } from "../domain/upstreams/accounts.ts";
import { ObjectStore, type S3ClientSource } from "../adapters/s3/object-store.ts";
import { ffmpegFrames } from "../adapters/media/ffmpeg-frames.ts";
import type { UpstreamClient } from "../adapters/upstream/upstream-client.ts";

/** The clients and resource names a platform provides: the jobs table and the bucket. */
export interface PlatformClients {
  db: DynamoDBDocumentClient;
  /** A client, or what makes one at the bucket's first use (a function that seldom uses it). */
  s3: S3ClientSource;
  tableName: string;
  bucket: string;
}

export interface WiringInput {
  config: Config;
  platform: Deployment;
  clients: PlatformClients;
  events: EventSink;
  /** Where audit records are announced (the bus, not the webhooks); absent = stored only. */
  auditBus?: AuditBus;
  /** The one-account form's upstream; in a pool, the first account's (the model listing's). */
  upstream: UpstreamClient;
  /**
   * A pool's accounts in REELAY_UPSTREAMS's order (or the local stack's simulated ones), with the
   * client of each where this process calls the upstream; absent = the one-account form.
   */
  pool?: readonly PoolMember[];
  /** Wakes the platform's dispatcher (usecases/admission/dispatch.ts) after a job is queued or a slot is freed. */
  waker: DispatchWaker;
  /** Where the pipeline's metrics go (Prometheus locally, EMF on AWS); absent = none. */
  metrics?: Metrics;
  /** The Poll window's pause; the local stack passes one that its shutdown can cut short. */
  sleep?: (ms: number) => Promise<void>;
  /** The pipeline's clock; default the real one (the local stack's tests may run a faster one). */
  now?: () => Date;
}

/** One account of a pool: its settings (never its key) and, where this process calls it, its client. */
export interface PoolMember {
  account: Omit<UpstreamAccount, "apiKey" | "url">;
  client?: UpstreamClientPort;
}

export interface Wiring {
  /** The use cases' ports, with the concrete stores behind them for the platform code beside. */
  pipeline: PipelineDeps & {
    jobs: JobStore;
    objects: ObjectStore;
    admission: AdmissionControl;
    budgets: BudgetLedger;
  };
  batches: BatchStore;
  /** What the API and drops start jobs with: into the admission queue; the dispatcher starts executions. */
  queue: JobQueue;
  /** Stored API keys, in the jobs table. */
  keys: ApiKeyStore;
  /** Limits per key: the API's call buckets, admission's waiting and in-flight counts. */
  keyLimits: KeyLimitsStore;
  /** The audit log of admin and webhook actions, in the jobs table, announced on the bus. */
  audit: AuditLog;
  /** The operator's price table; every job's estimate is made with it. */
  prices: PriceTable | undefined;
  /** The catalog with the operator's aliases and model lifecycles (REELAY_MODEL_ALIASES, REELAY_MODEL_LIFECYCLE). */
  catalog: Catalog;
  /** REELAY_RETENTION_DAYS: a job's retention when its request gives none. */
  retentionDays: number | undefined;
  /** REELAY_UPLOAD_RETENTION_DAYS: how long an upload is kept. */
  uploadRetentionDays: number;
  /** REELAY_OUTPUT_BUCKETS: the buckets a job's output.s3_prefix may name. */
  outputBuckets: readonly string[];
}

/** Stored keys and their limits (their own, else REELAY_KEY_LIMITS). */
function keyStores(input: WiringInput): { keys: ApiKeyStore; keyLimits: KeyLimitsStore } {
  const { clients } = input;
  const keys = new ApiKeyStore(clients.db, clients.tableName);
  const keyLimits = new KeyLimitsStore(clients.db, clients.tableName, {
    defaults: input.config.keyLimits,
    ownOf: (keyId) => keys.limitsOf(keyId),
    userLimitsOf: (keyId) => keys.userLimitsOf(keyId),
  });
  return { keys, keyLimits };
}

/**
 * Output downloads: loopback and http outputs (the bundled simulator) are allowed on the local stack
 * and in the rehearsal (REELAY_REHEARSAL) only.
 */
function outputFetch(config: Config, platform: Deployment) {
  return guardedFetch(
    outputFetchPolicy(config.aws.rehearsal ? "local" : platform, config.maxOutputBytes),
  );
}

/** With a pool, the steps' way to each account's client, and how many accounts a job may try. */
function poolUpstreams(pool: WiringInput["pool"], config: Config) {
  return pool === undefined
    ? {}
    : {
        upstreams: {
          client: (name: string) => pool.find((m) => m.account.name === name)?.client,
        },
        fallbackAttempts: config.fallbackAttempts,
      };
}

export function wirePipeline(input: WiringInput): Wiring {
  const { config, platform, clients } = input;
  const stats = new GenerationStatsStore(clients.db, clients.tableName);
  const metrics = input.metrics ?? noMetrics;
  const jobs = new JobStore(clients.db, clients.tableName, { metrics });
  const now = input.now ?? (() => new Date());
  const store = new AdmissionStore(clients.db, clients.tableName);
  const pool = input.pool;
  const { keys, keyLimits } = keyStores(input);
  const admission = new AdmissionControl({
    keyLimits,
    store,
    jobs,
    settings: config.admission,
    waker: input.waker,
    now,
    routing: config.routing,
    ...(pool === undefined ? {} : { accounts: pool.map((m) => accountAdmission(store, m)) }),
  });
  const batches = new BatchStore(clients.db, clients.tableName);
  const budgets = new BudgetLedger(clients.db, clients.tableName, {
    deployment: config.budget,
    keyBudgetOf: (keyId) => keys.budgetOf(keyId),
    userBudgetOf: async (keyId) => (await keys.userLimitsOf(keyId))?.budget ?? undefined,
    metrics,
  });
  return {
    prices: config.prices,
    catalog: createCatalog([], config.models),
    retentionDays: config.retentionDays,
    uploadRetentionDays: config.uploadRetentionDays,
    outputBuckets: config.outputBuckets,
    keys,
    keyLimits,
    audit: new AuditLog({
      store: new AuditStore(clients.db, clients.tableName),
      now,
      ...(input.auditBus === undefined ? {} : { bus: input.auditBus }),
    }),
    batches,
    queue: { start: (job) => admission.enqueue(job) },
    pipeline: {
      jobs,
      admission,
      batches: new BatchTracker({ batches, now, waker: input.waker }),
      budgets,
      objects: new ObjectStore(clients.s3, clients.bucket),
      upstream: input.upstream,
      ...poolUpstreams(pool, config),
      events: input.events,
      fetch: outputFetch(config, platform),
      verify: config.verify,
      now,
      ...(config.aws.ffmpegPath === undefined
        ? {}
        : { frames: ffmpegFrames(config.aws.ffmpegPath) }),
      // Locally one process runs every step, so Submit's and Poll's reads of a model's stats can
      // share one; each Lambda function is its own process and reads for itself.
      generationStats: platform === "local" ? new CachedGenerationStats(stats) : stats,
      pollWindowMs: POLL_WINDOW_MS,
      metrics,
      ...(input.sleep === undefined ? {} : { sleep: input.sleep }),
      ...(config.jobTimeoutS === undefined ? {} : { jobTimeoutS: config.jobTimeoutS }),
    },
  };
}

/** A pool account's admission: its own item (the one-account form's keeps the old one). */
function accountAdmission(store: AdmissionStore, member: PoolMember): AccountAdmission {
  const { account } = member;
  return {
    name: account.name,
    store: store.forAccount(account.name),
    settings: {
      ...(account.concurrency === undefined ? {} : { concurrency: account.concurrency }),
      ...(account.ratePerS === undefined ? {} : { ratePerS: account.ratePerS }),
    },
    weight: account.weight,
    ...(account.models === undefined ? {} : { models: account.models }),
    ...(account.prices === undefined ? {} : { prices: account.prices }),
  };
}

/** `{prices}` when the deployment has a price table, else nothing (the deps' field is optional). */
export function pricesOf(wiring: Pick<Wiring, "prices">): { prices?: PriceTable } {
  return wiring.prices === undefined ? {} : { prices: wiring.prices };
}

/** What a drop needs on either platform: the queue for one request, a batch for a file of several. */
export function dropDepsFrom(wiring: Wiring, defaultModel: string): DropDeps {
  const { objects, admission, now } = wiring.pipeline;
  return {
    objects,
    submit: submitDepsFrom(wiring),
    defaultModel,
    catalog: wiring.catalog,
    batches: { batches: wiring.batches, admission, now },
  };
}

/** What the one submitJob needs on either platform: jobs go into the admission queue. */
function submitDepsFrom(wiring: Wiring): SubmitDeps {
  const { jobs, budgets, events, batches, metrics, now, admission } = wiring.pipeline;
  const served = admission.served;
  return {
    jobs,
    budgets,
    events,
    now,
    starter: wiring.queue,
    batches,
    metrics,
    ...pricesOf(wiring),
    ...(served === undefined ? {} : { served }),
    ...(admission.keyLimits === undefined ? {} : { keyLimits: admission.keyLimits }),
    ...(wiring.retentionDays === undefined ? {} : { retentionDays: wiring.retentionDays }),
  };
}
