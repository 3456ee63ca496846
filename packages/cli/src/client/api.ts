/**
 * The CLI's view of reelay's API: each call goes through @reelay/client (every route typed from
 * the OpenAPI document), and what is the CLI's own stays here: a failure becomes core's
 * ReelayError, so the CLI shows the same codes and exit statuses as before, and `api_unreachable`
 * says how to start reelay or which setting to check.
 */
import {
  type Answer,
  createClient,
  type Job,
  type paths,
  type ReelayClient,
  type ReelayEvent,
  type RequestBody,
  ReelayError as ClientError,
  type Upload,
  type VideoRequest,
  type WaitOptions,
  createHeaders,
} from "@reelay/client";
import { ReelayError, relayedCode } from "@reelay/core/domain";
import type { Health } from "./types.ts";

const LOCAL_API_URL = "http://127.0.0.1:4700";

export interface ApiClientOptions {
  apiUrl: string;
  apiKey: string;
}

export interface ListJobsOptions {
  limit?: number;
  cursor?: string;
  status?: string;
  /** Seconds: only jobs whose outputs expire between now and that far ahead. */
  expiring_within?: number;
  /** Only jobs carrying every pair, sent as `metadata.KEY=VALUE`. */
  metadata?: Record<string, string>;
}

export type KeyBudget = RequestBody<"/v1/keys/{id}/budget", "put">;
export type UsageReportView = Answer<"/v1/usage", "get">;
export type ApiKeyView = Answer<"/v1/keys", "get">["data"][number];
export type DeliveryView = Answer<"/v1/webhooks/deliveries", "get">["data"][number];
/** A webhook subscriber; `secret` only when just made or rotated. */
export type SubscriberView = Answer<"/v1/webhooks", "get">["data"][number] & { secret?: string };
/**
 * GET /v1/batches/{id}; POST /v1/batches?dry_run=true answers the quote's fields too, which the
 * OpenAPI document does not describe yet.
 */
export type BatchView = Answer<"/v1/batches", "post"> & {
  dry_run?: true;
  valid?: number;
  rejected?: { line: number; errors: { path: string; code: string; message: string }[] }[];
  estimate?: {
    usage: { video_seconds: number; images: number };
    cost: number | null;
    currency: string | null;
    unpriced: number;
  } | null;
};
export type TaskView = Answer<"/v1/video/tasks/{taskId}", "get">;
export type ModelsView = Answer<"/v1/models", "get">;
export type JobPage = Answer<"/v1/jobs", "get">;

const path = (id: string) => ({ params: { path: { id } } });

export class ReelayApiClient {
  readonly apiUrl: string;
  readonly #client: ReelayClient;

  constructor(options: ApiClientOptions) {
    this.apiUrl = options.apiUrl.replace(/\/+$/, "");
    this.#client = createClient({ baseUrl: this.apiUrl, apiKey: options.apiKey });
  }

  /** Runs `run`, its failure as the CLI reports it. */
  async #guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.#failure(error);
    }
  }

  /** One route of the client; its answer's body. */
  #call<T>(call: (client: ReelayClient) => Promise<{ data?: T }>): Promise<T> {
    return this.#guard(async () => (await call(this.#client)).data as T);
  }

  #failure(error: unknown): unknown {
    if (!(error instanceof ClientError)) return error;
    if (error.code === "api_unreachable") return unreachable(this.apiUrl, error);
    return new ReelayError(relayedCode(error.code), error.message, {
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.path === undefined ? {} : { path: error.path }),
      details: { ...error.details, errors: error.errors },
      retryable: error.retryable,
      cause: error,
    });
  }

  health(): Promise<Health> {
    return this.#call((c) => c.GET("/healthz"));
  }

  /** `tags`: the job's metadata (X-Reelay-Metadata) and the end user it is for (X-Reelay-User). */
  createVideo(
    body: unknown,
    idempotencyKey?: string,
    tags: {
      metadata?: Record<string, string> | undefined;
      user?: string | undefined;
      fit?: "nearest" | undefined;
    } = {},
  ) {
    return this.#call((c) =>
      c.POST("/v1/video/generations", {
        body: body as VideoRequest,
        params: { header: createHeaders({ idempotencyKey, ...tags }) },
      }),
    );
  }

  /** POST /v1/uploads: the file's bytes, stored; its `url` is the upload:// reference. */
  createUpload(bytes: Uint8Array, name: string): Promise<Upload> {
    return this.#guard(() => this.#client.uploads.create(bytes, { name }));
  }

  getVideoTask(id: string): Promise<TaskView> {
    return this.#call((c) =>
      c.GET("/v1/video/tasks/{taskId}", { params: { path: { taskId: id } } }),
    );
  }

  getJob(id: string): Promise<Job> {
    return this.#call((c) => c.GET("/v1/jobs/{id}", path(id)));
  }

  /** Follows the job until it ends, riding out a restart of the local stack. */
  waitFor(id: string, options: WaitOptions): Promise<Job> {
    return this.#guard(() => this.#client.waitFor(id, options));
  }

  listJobs(options: ListJobsOptions = {}): Promise<JobPage> {
    const { metadata, ...rest } = options;
    const pairs = Object.entries(metadata ?? {}).map(([key, value]) => [`metadata.${key}`, value]);
    const query = { ...rest, ...Object.fromEntries(pairs) } as NonNullable<
      RequestQuery<"/v1/jobs">
    >;
    return this.#call((c) => c.GET("/v1/jobs", { params: { query } }));
  }

  /** POST /v1/batches with a JSONL or `{"requests": [...]}` text, as read from a file. */
  createBatch(
    text: string,
    options: { dryRun?: boolean; priority?: string } = {},
  ): Promise<BatchView> {
    return this.#guard(() =>
      this.#client.batches.create(text, {
        dryRun: options.dryRun,
        priority: options.priority as "high" | "normal" | "low" | undefined,
      }),
    );
  }

  usage(query: Record<string, string>): Promise<UsageReportView> {
    const typed = query as NonNullable<RequestQuery<"/v1/usage">>;
    return this.#call((c) => c.GET("/v1/usage", { params: { query: typed } }));
  }

  /** GET /v1/audit with its filters (action, from, to, limit, cursor). */
  audit(query: Record<string, string>): Promise<Answer<"/v1/audit", "get">> {
    const typed = query as NonNullable<RequestQuery<"/v1/audit">>;
    return this.#call((c) => c.GET("/v1/audit", { params: { query: typed } }));
  }

  /** POST /v1/batches/{id}/retry: a new batch of the batch's retryable failures. */
  retryBatch(id: string): Promise<BatchView> {
    return this.#call((c) => c.POST("/v1/batches/{id}/retry", path(id))) as Promise<BatchView>;
  }

  getBatch(id: string): Promise<BatchView> {
    return this.#call((c) => c.GET("/v1/batches/{id}", path(id))) as Promise<BatchView>;
  }

  /** GET /metrics (admin key): Prometheus text; a deployment without the route answers 404. */
  metrics(): Promise<string> {
    return this.#call((c) => c.GET("/metrics", { parseAs: "text" }));
  }

  /** The results as JSONL text, one line per request line. */
  batchResults(id: string): Promise<string> {
    return this.#call((c) => c.GET("/v1/batches/{id}/results", { ...path(id), parseAs: "text" }));
  }

  /** POST /v1/keys/{id}/webhook-secret: a new webhook secret for the key, answered once. */
  rotateKeyWebhookSecret(id: string): Promise<{ id: string; webhook_secret: string }> {
    // The OpenAPI document gives this answer no schema.
    return this.#call((c) => c.POST("/v1/keys/{id}/webhook-secret", path(id))) as Promise<{
      id: string;
      webhook_secret: string;
    }>;
  }

  /** The key and its webhook secret are in this answer only (the document marks them optional). */
  createKey(
    name: string,
    budget?: KeyBudget,
    access: {
      scopes?: string[];
      project?: string;
      limits?: Record<string, number | null>;
      expires_at?: string;
      on_sunset?: string;
    } = {},
  ): Promise<ApiKeyView & { key: string; webhook_secret: string }> {
    const body = { name, ...(budget === undefined ? {} : { budget }), ...access };
    return this.#call((c) =>
      c.POST("/v1/keys", { body: body as RequestBody<"/v1/keys", "post"> }),
    ) as Promise<ApiKeyView & { key: string; webhook_secret: string }>;
  }

  async listKeys(): Promise<ApiKeyView[]> {
    return (await this.#call((c) => c.GET("/v1/keys"))).data;
  }

  retryJob(id: string, changes?: Record<string, unknown>) {
    const body = (changes ?? {}) as RequestBody<"/v1/jobs/{id}/retry", "post">;
    return this.#call((c) => c.POST("/v1/jobs/{id}/retry", { ...path(id), body }));
  }

  /** Sets the key's budget; null removes it. */
  setKeyBudget(id: string, budget: KeyBudget | null) {
    return budget === null
      ? this.#call((c) => c.DELETE("/v1/keys/{id}/budget", path(id)))
      : this.#call((c) => c.PUT("/v1/keys/{id}/budget", { ...path(id), body: budget }));
  }

  /** PUT /v1/keys/{id}/limits, or DELETE (null): the key's own limits. */
  setKeyLimits(id: string, limits: Record<string, number | null> | null) {
    return limits === null
      ? this.#call((c) => c.DELETE("/v1/keys/{id}/limits", path(id)))
      : this.#call((c) => c.PUT("/v1/keys/{id}/limits", { ...path(id), body: limits }));
  }

  async deliveries(filters: {
    status?: string;
    event?: string;
    limit?: number;
  }): Promise<DeliveryView[]> {
    const query = Object.fromEntries(
      Object.entries(filters).filter(([, value]) => value !== undefined),
    ) as NonNullable<RequestQuery<"/v1/webhooks/deliveries">>;
    return (await this.#call((c) => c.GET("/v1/webhooks/deliveries", { params: { query } }))).data;
  }

  addSubscriber(input: { url: string; events?: string[]; description?: string }) {
    const body = input as RequestBody<"/v1/webhooks", "post">;
    return this.#call((c) => c.POST("/v1/webhooks", { body }));
  }

  async subscribers(): Promise<SubscriberView[]> {
    return (await this.#call((c) => c.GET("/v1/webhooks"))).data;
  }

  removeSubscriber(id: string) {
    return this.#call((c) => c.DELETE("/v1/webhooks/{id}", path(id)));
  }

  rotateSubscriber(id: string) {
    return this.#call((c) => c.POST("/v1/webhooks/{id}/rotate", path(id)));
  }

  retryDelivery(id: string) {
    return this.#call((c) => c.POST("/v1/webhooks/deliveries/{id}/retry", path(id)));
  }

  async replayEvent(eventId: string, subscriber?: string): Promise<DeliveryView[]> {
    const body = subscriber === undefined ? {} : { subscriber };
    return (await this.#call((c) => c.POST("/v1/events/{id}/replay", { ...path(eventId), body })))
      .data;
  }

  /** GET /v1/models: the catalog merged with each account's own listing (warnings name the ones that did not answer). */
  models(modality?: "video" | "image"): Promise<ModelsView> {
    const query = modality === undefined ? {} : { params: { query: { modality } } };
    return this.#call((c) => c.GET("/v1/models", query));
  }

  /** GET /v1/upstreams (the deployment's own key): the pool's accounts. */
  upstreams(): Promise<Answer<"/v1/upstreams", "get">> {
    return this.#call((c) => c.GET("/v1/upstreams"));
  }

  revokeKey(id: string) {
    return this.#call((c) => c.DELETE("/v1/keys/{id}", path(id)));
  }

  /** The event stream, until the server closes it or `signal` aborts. */
  async *events(
    options: { signal?: AbortSignal; lastEventId?: string; onOpen?: () => void } = {},
  ): AsyncGenerator<ReelayEvent> {
    try {
      yield* this.#client.events(options);
    } catch (error) {
      throw this.#failure(error);
    }
  }
}

type RequestQuery<Path extends "/v1/jobs" | "/v1/usage" | "/v1/webhooks/deliveries" | "/v1/audit"> =
  paths[Path]["get"]["parameters"]["query"];

function unreachable(apiUrl: string, error: ClientError): ReelayError {
  const reason = String(error.details.reason ?? error.message);
  const hint =
    apiUrl === LOCAL_API_URL || /^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(apiUrl)
      ? " — start it with `npm start`"
      : ` (${reason}); check REELAY_API_URL`;
  return new ReelayError("api_unreachable", `reelay is not running at ${apiUrl}${hint}`, {
    retryable: true,
    cause: error.cause,
    details: { reason },
  });
}
