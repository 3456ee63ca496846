/**
 * A small HTTP client for reelay's API. Every failure is a ReelayError: `api_unreachable` when
 * nothing answers (the CLI says how to start reelay), `unauthorized` for a wrong key, and for any
 * other refusal the API's own `{error: {code, message, errors}}`, so the CLI shows the same codes.
 */
import type { AuditRecord, UsageReport } from "@reelay/core/domain";
import { ReelayError, relayedCode, type Issue } from "@reelay/core";
import { readSse, type SseMessage } from "./sse.ts";
import type { CreatedTask, Health, JobPage, JobView, TaskView } from "./types.ts";

const LOCAL_API_URL = "http://127.0.0.1:4700";

export interface ApiClientOptions {
  apiUrl: string;
  apiKey: string;
}

export interface ListJobsOptions {
  limit?: number;
  cursor?: string;
  status?: string;
}

export interface KeyBudget {
  amount: number;
  unit: "currency" | "units";
  period: string;
}

/** GET /v1/usage. */
export interface UsageReportView extends UsageReport {
  from: string;
  to: string;
  group_by: string;
  currency: string | null;
  budgets: (KeyBudget & {
    budget: "key" | "deployment";
    id: string | null;
    used: number;
    remaining: number;
  })[];
}

export interface ApiKeyView {
  id: string;
  name: string;
  hint: string;
  createdAt: string;
  revokedAt?: string;
  expires_at?: string;
  last_used_at?: string;
  /** `used` is this period's spend and open reservations. */
  budget?: KeyBudget & { used?: number };
}

/** One webhook delivery from GET /v1/webhooks/deliveries, with every attempt. */
export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  subscriber: string;
  url: string;
  status: "pending" | "delivered" | "dead";
  attempts: { at: string; latencyMs: number; status?: number; error?: string }[];
  nextAttemptAt?: string;
  createdAt: string;
}

/** A managed webhook subscriber; `secret` only when just made or rotated. */
export interface SubscriberView {
  id: string;
  url: string;
  events?: string[];
  description: string;
  createdAt: string;
  secret?: string;
}

/** A body sent as it is (a batch file's text), not as JSON. */
class RawBody {
  constructor(readonly text: string) {}
}

/** GET /v1/batches/{id}; with dry_run, the quote's fields instead. */
export interface BatchView {
  id: string;
  status: "in_progress" | "completed";
  total: number;
  counts: Record<string, number>;
  created_at: string;
  finished_at: string | null;
  eta_seconds: number | null;
  results: { bucket: string; key: string } | null;
  dry_run?: true;
  valid?: number;
  rejected?: { line: number; errors: { path: string; code: string; message: string }[] }[];
  estimate?: {
    usage: { video_seconds: number; images: number };
    cost: number | null;
    currency: string | null;
    unpriced: number;
  } | null;
}

export class ReelayApiClient {
  readonly apiUrl: string;
  readonly #apiKey: string;

  constructor(options: ApiClientOptions) {
    this.apiUrl = options.apiUrl.replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
  }

  health(): Promise<Health> {
    return this.#json<Health>("GET", "/healthz");
  }

  createVideo(body: unknown, idempotencyKey?: string): Promise<CreatedTask> {
    return this.#json<CreatedTask>(
      "POST",
      "/v1/video/generations",
      body,
      idempotencyKey === undefined ? {} : { "X-Idempotency-Key": idempotencyKey },
    );
  }

  getVideoTask(id: string): Promise<TaskView> {
    return this.#json<TaskView>("GET", `/v1/video/tasks/${encodeURIComponent(id)}`);
  }

  getJob(id: string): Promise<JobView> {
    return this.#json<JobView>("GET", `/v1/jobs/${encodeURIComponent(id)}`);
  }

  listJobs(options: ListJobsOptions = {}): Promise<JobPage> {
    const query = new URLSearchParams();
    if (options.limit !== undefined) query.set("limit", String(options.limit));
    if (options.cursor !== undefined) query.set("cursor", options.cursor);
    if (options.status !== undefined) query.set("status", options.status);
    const suffix = query.size > 0 ? `?${query}` : "";
    return this.#json<JobPage>("GET", `/v1/jobs${suffix}`);
  }

  /** POST /v1/batches with a JSONL or `{"requests": [...]}` text, as read from a file. */
  createBatch(
    text: string,
    options: { dryRun?: boolean; priority?: string } = {},
  ): Promise<BatchView> {
    const query = options.dryRun === true ? "?dry_run=true" : "";
    return this.#json<BatchView>("POST", `/v1/batches${query}`, new RawBody(text), {
      ...(options.priority === undefined ? {} : { "X-Reelay-Priority": options.priority }),
    });
  }

  /** GET /v1/audit with its filters (action, from, to, limit, cursor). */
  audit(
    query: Record<string, string>,
  ): Promise<{ data: AuditRecord[]; next_cursor: string | null }> {
    const suffix = Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : "";
    return this.#json("GET", `/v1/audit${suffix}`);
  }

  usage(query: Record<string, string>): Promise<UsageReportView> {
    return this.#json<UsageReportView>("GET", `/v1/usage?${new URLSearchParams(query)}`);
  }

  /** POST /v1/batches/{id}/retry: a new batch of the batch's retryable failures. */
  retryBatch(id: string): Promise<BatchView> {
    return this.#json<BatchView>("POST", `/v1/batches/${encodeURIComponent(id)}/retry`, {});
  }

  getBatch(id: string): Promise<BatchView> {
    return this.#json<BatchView>("GET", `/v1/batches/${encodeURIComponent(id)}`);
  }

  /** GET /metrics (admin key): Prometheus text; a deployment without the route answers 404. */
  async metrics(): Promise<string> {
    const response = await this.#fetch("GET", "/metrics", undefined, {});
    if (!response.ok) throw await this.#refusal(response);
    return response.text();
  }

  /** The results as JSONL text, one line per request line. */
  async batchResults(id: string): Promise<string> {
    const response = await this.#fetch(
      "GET",
      `/v1/batches/${encodeURIComponent(id)}/results`,
      undefined,
      {},
    );
    if (!response.ok) throw await this.#refusal(response);
    return response.text();
  }

  /** POST /v1/keys/{id}/webhook-secret: a new webhook secret for the key, answered once. */
  rotateKeyWebhookSecret(id: string): Promise<{ id: string; webhook_secret: string }> {
    return this.#json("POST", `/v1/keys/${encodeURIComponent(id)}/webhook-secret`, {});
  }

  createKey(
    name: string,
    budget?: KeyBudget,
    access: {
      scopes?: string[];
      project?: string;
      limits?: Record<string, number | null>;
      expires_at?: string;
    } = {},
  ): Promise<ApiKeyView & { key: string; webhook_secret: string }> {
    return this.#json("POST", "/v1/keys", {
      name,
      ...(budget === undefined ? {} : { budget }),
      ...access,
    });
  }

  async listKeys(): Promise<ApiKeyView[]> {
    return (await this.#json<{ data: ApiKeyView[] }>("GET", "/v1/keys")).data;
  }

  retryJob(id: string, changes?: Record<string, unknown>): Promise<JobView> {
    return this.#json("POST", `/v1/jobs/${encodeURIComponent(id)}/retry`, changes ?? {});
  }

  /** Sets the key's budget; null removes it. */
  setKeyBudget(id: string, budget: KeyBudget | null): Promise<ApiKeyView> {
    const path = `/v1/keys/${encodeURIComponent(id)}/budget`;
    return budget === null ? this.#json("DELETE", path) : this.#json("PUT", path, budget);
  }

  async deliveries(filters: {
    status?: string;
    event?: string;
    limit?: number;
  }): Promise<DeliveryView[]> {
    const query = new URLSearchParams(
      Object.entries(filters).flatMap(([k, v]) =>
        v === undefined ? [] : [[k, String(v)] as [string, string]],
      ),
    ).toString();
    const path = `/v1/webhooks/deliveries${query === "" ? "" : `?${query}`}`;
    return (await this.#json<{ data: DeliveryView[] }>("GET", path)).data;
  }

  addSubscriber(input: {
    url: string;
    events?: string[];
    description?: string;
  }): Promise<SubscriberView> {
    return this.#json("POST", "/v1/webhooks", input);
  }

  async subscribers(): Promise<SubscriberView[]> {
    return (await this.#json<{ data: SubscriberView[] }>("GET", "/v1/webhooks")).data;
  }

  removeSubscriber(id: string): Promise<SubscriberView> {
    return this.#json("DELETE", `/v1/webhooks/${encodeURIComponent(id)}`);
  }

  rotateSubscriber(id: string): Promise<SubscriberView> {
    return this.#json("POST", `/v1/webhooks/${encodeURIComponent(id)}/rotate`, {});
  }

  retryDelivery(id: string): Promise<DeliveryView> {
    return this.#json("POST", `/v1/webhooks/deliveries/${encodeURIComponent(id)}/retry`, {});
  }

  async replayEvent(eventId: string, subscriber?: string): Promise<DeliveryView[]> {
    const body = subscriber === undefined ? {} : { subscriber };
    const path = `/v1/events/${encodeURIComponent(eventId)}/replay`;
    return (await this.#json<{ data: DeliveryView[] }>("POST", path, body)).data;
  }

  revokeKey(id: string): Promise<ApiKeyView> {
    return this.#json("DELETE", `/v1/keys/${encodeURIComponent(id)}`);
  }

  /** The event stream, until the server closes it or `signal` aborts. */
  async *events(
    options: { signal?: AbortSignal; lastEventId?: string; onOpen?: () => void } = {},
  ): AsyncGenerator<SseMessage> {
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (options.lastEventId !== undefined) headers["last-event-id"] = options.lastEventId;
    const response = await this.#fetch("GET", "/v1/events", undefined, headers, options.signal);
    if (!response.ok) throw await this.#refusal(response);
    options.onOpen?.();
    if (response.body === null) return;
    yield* readSse(response.body as AsyncIterable<Uint8Array>);
  }

  async #json<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const response = await this.#fetch(method, path, body, headers);
    if (!response.ok) throw await this.#refusal(response);
    try {
      return (await response.json()) as T;
    } catch (error) {
      throw new ReelayError(
        "bad_response",
        `${method} ${this.apiUrl}${path} answered ${response.status} with a body that is not JSON.`,
        { cause: error },
      );
    }
  }

  async #fetch(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Response> {
    const raw = body instanceof RawBody;
    const init: RequestInit = {
      method,
      headers: {
        authorization: `Bearer ${this.#apiKey}`,
        ...(body === undefined
          ? {}
          : { "content-type": raw ? "application/x-ndjson" : "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: raw ? body.text : JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal }),
    };
    try {
      return await fetch(`${this.apiUrl}${path}`, init);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw unreachable(this.apiUrl, error);
    }
  }

  async #refusal(response: Response): Promise<ReelayError> {
    const text = await response.text().catch(() => "");
    let parsed: {
      error?: { code?: unknown; message?: unknown; path?: unknown; errors?: unknown };
    } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // Not reelay answering (a proxy, another server on the port): report the status alone.
    }
    const error = parsed.error ?? {};
    const code = typeof error.code === "string" ? error.code : `http_${response.status}`;
    const message =
      typeof error.message === "string"
        ? error.message
        : `${this.apiUrl} answered HTTP ${response.status}.`;
    const errors = Array.isArray(error.errors) ? (error.errors as Issue[]) : [];
    return new ReelayError(relayedCode(code), message, {
      status: response.status,
      ...(typeof error.path === "string" ? { path: error.path } : {}),
      details: { errors },
      retryable: response.status === 429 || response.status >= 500,
    });
  }
}

function unreachable(apiUrl: string, cause: unknown): ReelayError {
  const reason =
    (cause as { cause?: { code?: string } })?.cause?.code ??
    (cause instanceof Error ? cause.message : String(cause));
  const hint =
    apiUrl === LOCAL_API_URL || /^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(apiUrl)
      ? " — start it with `npm start`"
      : ` (${reason}); check REELAY_API_URL`;
  return new ReelayError("api_unreachable", `reelay is not running at ${apiUrl}${hint}`, {
    retryable: true,
    cause,
    details: { reason },
  });
}
