/** What the API needs, passed in, so one app runs on Lambda (AWS clients) and in the local stack. */
import type {
  AuditLog,
  SubmitDeps,
  AdmissionControl,
  BatchTracker,
  CancelDeps,
  Clock,
  EventSink,
  EventSource,
  ExecutionStopper,
  JobQueue,
  Metrics,
  DeliveryTarget,
  KeyLimitsPort,
  ApiKeyStorePort,
  BatchStorePort,
  BudgetLedgerPort,
  DeliveryStorePort,
  JobStorePort,
  ObjectStorePort,
  SubscriberStorePort,
} from "@reelay/core/usecases";
import type {
  Budget,
  KeyLimits,
  PriceTable,
  Deployment,
  Scope,
  Catalog,
  OnSunset,
} from "@reelay/core/domain";

export interface Caller {
  keyId: string;
  /** The key's budget, when it has one: every create reserves from it. */
  budget?: Budget;
  /** What the key may do (route-scopes.ts); absent: LEGACY_SCOPES, all for the deployment's key. */
  scopes?: readonly Scope[];
  /** The key's project; absent: alone in its own (named by its id). The deployment key sees all. */
  project?: string;
  /** The key's own limits, each over REELAY_KEY_LIMITS's (limits.ts). */
  limits?: KeyLimits;
  /** What a create on a model past its sunset does: refused (absent), or its successor runs. */
  onSunset?: OnSunset;
}

/** The webhook delivery log and replay (routes/webhooks/handlers.ts). */
export interface WebhookApiDeps {
  store: DeliveryStorePort;
  /** REELAY_WEBHOOK_SCHEDULE: a replay gets the full schedule. */
  schedule: readonly number[];
  now: Clock;
  /** Every subscriber now; without it a replay goes to the event's earlier ones. */
  targets?: () => Promise<DeliveryTarget[]>;
  /** Managed subscribers (POST /v1/webhooks), with where reelay runs (for the URL check). */
  managed: { store: SubscriberStorePort; deployment: Deployment };
  /** Sweeps at once (local stack); on AWS the next scheduled sweep sends it. */
  wake?: () => void;
}

export interface ApiDeps {
  jobs: JobStorePort;
  /** The operator's price table (REELAY_PRICES), for each job's estimate. */
  prices?: PriceTable;
  /** The keys' and the deployment's budget ledgers. */
  budgets: BudgetLedgerPort;
  /** Presigns GETs for outputs. */
  objects: ObjectStorePort;
  starter: JobQueue;
  /** A bearer token to its caller, or undefined for an unknown token. */
  authenticate(token: string): Promise<Caller | undefined>;
  /** Stored API keys: /v1/keys lets the admin key create, list and revoke them. */
  keys: ApiKeyStorePort;
  /** Limits per key (rate and burst here, max_queued through submitJob). */
  keyLimits: KeyLimitsPort;
  /** The audit log: admin and webhook actions are recorded, and GET /v1/audit lists them. */
  audit: AuditLog;
  /** For validate(); the built-in catalog when absent. */
  catalog?: Catalog;
  /** REELAY_RETENTION_DAYS: a job's retention when its request gives none; absent = kept for good. */
  retentionDays?: number;
  /** REELAY_OUTPUT_BUCKETS: the buckets output.s3_prefix may name; absent = none. */
  outputBuckets?: readonly string[];
  /** REELAY_UPLOAD_RETENTION_DAYS: how long an upload is kept; default 7. */
  uploadRetentionDays?: number;
  /** Lifetime of presigned output URLs; default 3600. */
  presignTtlS?: number;
  /** Extra fields for /healthz (local: the S3 endpoint and bucket). */
  health?: () => Promise<Record<string, unknown>>;
  /** When given, GET /v1/events streams terminal events as Server-Sent Events. */
  eventStream?: EventSource;
  /** Where the terminal event goes for a job the API itself ends (cancel, start_failed). */
  events: EventSink;
  /**
   * Stops a cancelled job's execution (AWS: StopExecution; local: aborts it). Without it a cancel
   * still ends the job, and its execution stops at its next step.
   */
  stopper?: ExecutionStopper;
  /** Admission control: frees a cancelled job's slot and tells a waiting job's place in the queue. */
  admission: AdmissionControl;
  /** Batches: /v1/batches makes and shows them. */
  batches: BatchStorePort;
  /** Counts a batch job the API itself ends (cancel, start_failed) toward its batch (NO_BATCHES: none). */
  batchTracker: Pick<BatchTracker, "jobEnded">;
  /** The delivery log (/v1/webhooks/deliveries, /v1/events/{id}/replay) and the managed subscribers. */
  webhooks: WebhookApiDeps;
  /** Heartbeat period of the event streams; default 15 000. */
  sseHeartbeatMs?: number;
  /** How often a job's or batch's stream (routes/follow/handlers.ts) reads its record; default 1000. */
  streamPollMs?: number;
  /**
   * Set behind a proxy that buffers responses (API Gateway): a job's or batch's stream then ends
   * after its first frames, or after this many ms without one, and the client reconnects. Unset:
   * a stream stays open until the job or batch ends.
   */
  streamMaxMs?: number;
  /** Largest accepted request body in bytes; default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Longest opt-in wait of POST /v1/images/edits in seconds; default 60. On AWS, API Gateway ends
   * a request at 30 s, so the function asks for less.
   */
  maxWaitS?: number;
  now?: Clock;
  /**
   * The upstream's own model listing, merged into GET /v1/models; the catalog alone when absent. A
   * pool gives one per account, and each model then says which accounts serve it.
   */
  upstreamModels?: UpstreamModelLister | readonly AccountModelLister[];
  /** How long GET /v1/models waits for the upstream's listing; default 3000. */
  upstreamModelsTimeoutMs?: number;
  /** Counts the jobs the API itself ends (cancel, start_failed); noMetrics for none. */
  metrics: Metrics;
  /**
   * The Prometheus text for GET /metrics (admin key only), with its content type; without it the
   * route does not exist (AWS: the metrics go to CloudWatch as EMF).
   */
  scrape?: () => Promise<{ contentType: string; text: string }>;
  /**
   * Answers one MCP request over streamable HTTP (@reelay/mcp's handleMcpRequest); without it
   * POST /mcp does not exist. The local stack gives it; the Lambda function does not, so its
   * bundle (and every cold start) stays without the MCP SDK.
   */
  mcp?: McpHandler;
  /** Where an unexpected error (a 500) is told to the operator; default console.error. */
  reportError?: (message: string, error: unknown) => void;
}

/** One MCP request answered, its tools calling the API at `baseUrl` with the caller's `apiKey`. */
export type McpHandler = (
  request: Request,
  options: {
    baseUrl: string;
    apiKey: string;
    fetch: (request: Request) => Promise<Response>;
    maxWaitS?: number | undefined;
  },
) => Promise<Response>;

/** Local stack: UpstreamClient.listModels. Its failure only adds a warning to the listing. */
export type UpstreamModelLister = (
  modality?: "video" | "image",
) => Promise<{ id: string; modality?: string }[]>;

/** One account's listing, limited to the models its REELAY_UPSTREAMS entry names (all when absent). */
export interface AccountModelLister {
  account: string;
  models?: readonly string[];
  list: UpstreamModelLister;
}

/** ApiDeps with every default filled in. */
export type ResolvedDeps = ApiDeps &
  Required<
    Pick<ApiDeps, "presignTtlS" | "sseHeartbeatMs" | "streamPollMs" | "maxBodyBytes" | "now">
  >;

export const DEFAULTS = {
  presignTtlS: 3600,
  sseHeartbeatMs: 15_000,
  streamPollMs: 1000,
  maxBodyBytes: 1024 * 1024,
} as const;

export function resolveDeps(deps: ApiDeps): ResolvedDeps {
  return {
    ...deps,
    presignTtlS: deps.presignTtlS ?? DEFAULTS.presignTtlS,
    sseHeartbeatMs: deps.sseHeartbeatMs ?? DEFAULTS.sseHeartbeatMs,
    streamPollMs: deps.streamPollMs ?? DEFAULTS.streamPollMs,
    maxBodyBytes: deps.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    now: deps.now ?? (() => new Date()),
  };
}

/** What cancelJob needs, from the API's deps: a cancel frees the slot and counts on the batch. */
export function cancelDepsOf(deps: ResolvedDeps): CancelDeps {
  return {
    jobs: deps.jobs,
    now: deps.now,
    events: deps.events,
    batches: deps.batchTracker,
    budgets: deps.budgets,
    metrics: deps.metrics,
    admission: deps.admission,
    ...(deps.stopper === undefined ? {} : { stopper: deps.stopper }),
  };
}

/** What submitJob needs, from the API's deps. */
export function submitDepsOf(deps: ResolvedDeps): SubmitDeps {
  return {
    jobs: deps.jobs,
    budgets: deps.budgets,
    starter: deps.starter,
    now: deps.now,
    events: deps.events,
    batches: deps.batchTracker,
    metrics: deps.metrics,
    ...(deps.prices === undefined ? {} : { prices: deps.prices }),
    // In a pool, a model no account serves is refused at the door (400), not failed at admission.
    ...(deps.admission.served === undefined ? {} : { served: deps.admission.served }),
    keyLimits: deps.keyLimits,
    ...(deps.retentionDays === undefined ? {} : { retentionDays: deps.retentionDays }),
  };
}

/** Hono context variables set by the auth middleware. */
export interface ApiEnv {
  Variables: { caller: Caller };
}
