/**
 * The one HTTP client for the upstream generation service (docs/contract.md §4, §5).
 *
 * Retry rule: task queries and model listings are safe to repeat (docs/contract.md §4.2). A create is repeated
 * ONLY because it carries an X-Idempotency-Key, the same key on every attempt, so a create whose
 * answer was lost can be sent again without paying for a second task. A create without a key is a
 * programming error and is refused before anything is sent.
 */
import type { UpstreamClientPort } from "../../usecases/ports.ts";
import type {
  QueryOptions,
  CreateOptions,
  VideoCreated,
  TaskAnswer,
  ImageCreated,
  UpstreamModel,
} from "../../usecases/ports.ts";
import { ReelayError } from "../../domain/errors.ts";
import {
  classifyTask,
  FAILURE_STATUSES,
  readBusinessError,
  readStatus,
  readTaskId,
} from "../../domain/contract/responses.ts";
import { noMetrics } from "../../usecases/ports.ts";
import type { Metrics } from "../../usecases/ports.ts";
import { parseBaseUrl } from "./base-url.ts";
import {
  badResponse,
  businessError,
  httpError,
  isTransientStatus,
  redactor,
  transportError,
  type Redact,
} from "./upstream-errors.ts";
import { startSpan, type TraceSpan } from "../../domain/tracing.ts";
import { backoffDelayMs, DEFAULT_BACKOFF, parseRetryAfterMs, type Backoff } from "./retry.ts";

export interface UpstreamClientOptions {
  /** Must end in /v1 (one trailing slash tolerated). */
  baseUrl: string;
  apiKey: string;
  /** Per request (each attempt), default 30 000. */
  timeoutMs?: number;
  /** Attempts per call including the first, default 5. */
  maxAttempts?: number;
  backoff?: Backoff;
  /** The model listing's path is not in the contract (docs/contract.md §4.7), default "/models". */
  modelsPath?: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Clock for Retry-After dates. */
  now?: () => number;
  /** Counts every request (each attempt), every 429 and every failed one, by operation. */
  metrics?: Metrics;
  /** Added to every count: the account this client speaks for, in a pool. */
  labels?: Readonly<{ account: string }>;
}

interface SendOptions extends QueryOptions {
  json?: unknown;
  form?: FormData;
  idempotencyKey?: string;
  taskQuery?: boolean;
  noRetryWhenRateLimited?: boolean;
  noRetryWhenNotAccepted?: boolean;
}

/** What one request brought back. */
interface Exchanged {
  status: number;
  retryAfter: string | null;
  text: string;
}

interface Answer {
  status: number;
  body: unknown;
  attempts: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function invalidOption(path: string, message: string): ReelayError {
  return new ReelayError("invalid_config", message, { path });
}

function positiveNumber(
  value: number | undefined,
  fallback: number,
  path: string,
  integer: boolean,
): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw invalidOption(
      path,
      `${path} must be a positive ${integer ? "whole number" : "number"}, got ${value}.`,
    );
  }
  return value;
}

export class UpstreamClient implements UpstreamClientPort {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #maxAttempts: number;
  readonly #backoff: Backoff;
  readonly #modelsPath: string;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #now: () => number;
  readonly #redact: Redact;
  readonly #metrics: Metrics;
  readonly #labels: Readonly<{ account?: string }>;
  readonly #host: string;
  readonly #basePath: string;

  constructor(options: UpstreamClientOptions) {
    this.baseUrl = parseBaseUrl(options.baseUrl);
    const base = new URL(this.baseUrl);
    this.#host = base.host;
    this.#basePath = base.pathname.replace(/\/$/, "");
    // The key goes in a header; a control character would make fetch throw a message quoting it.
    if (
      [...options.apiKey].some(
        (ch) => /\s/.test(ch) || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f,
      )
    ) {
      throw invalidOption(
        "apiKey",
        "The upstream API key must not contain spaces or control characters.",
      );
    }
    this.#apiKey = options.apiKey;
    this.#timeoutMs = positiveNumber(options.timeoutMs, 30_000, "timeoutMs", false);
    this.#maxAttempts = positiveNumber(options.maxAttempts, 5, "maxAttempts", true);
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
    const modelsPath = options.modelsPath ?? "/models";
    this.#modelsPath = modelsPath.startsWith("/") ? modelsPath : `/${modelsPath}`;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
    this.#redact = redactor(this.#apiKey);
    this.#metrics = options.metrics ?? noMetrics;
    this.#labels = options.labels ?? {};
  }

  async createVideo(body: object, opts: CreateOptions): Promise<VideoCreated> {
    const call = { method: "POST", endpoint: "/video/generations" };
    const answer = await this.#create(call.endpoint, { json: body }, opts);
    const taskId = readTaskId(answer.body);
    if (taskId === undefined) {
      throw badResponse(
        `HTTP ${answer.status} but no task id (looked at service_task.task_id and task_id)`,
        answer.status,
        { ...call, attempts: answer.attempts },
        this.#redact,
      );
    }
    return { taskId, body: answer.body, state: classifyTask(answer.status, answer.body) };
  }

  getVideoTask(taskId: string, opts: QueryOptions = {}): Promise<TaskAnswer> {
    return this.#query(`/video/tasks/${encodeURIComponent(taskId)}`, opts);
  }

  createImage(body: object, opts: CreateOptions): Promise<ImageCreated> {
    return this.#createImageLike("/chat/completions", { json: body }, opts);
  }

  getImageTask(taskId: string, opts: QueryOptions = {}): Promise<TaskAnswer> {
    return this.#query(`/image/tasks/${encodeURIComponent(taskId)}`, opts);
  }

  /** OpenAI-compatible multipart edit; fetch sets the multipart Content-Type with its boundary. */
  editImages(form: FormData, opts: CreateOptions): Promise<ImageCreated> {
    return this.#createImageLike("/images/edits", { form }, opts);
  }

  async listModels(modality?: "video" | "image"): Promise<UpstreamModel[]> {
    const query = modality === undefined ? "" : `?modality=${modality}`;
    const answer = await this.#send("GET", `${this.#modelsPath}${query}`, {});
    const models = readModels(answer.body);
    // An upstream that ignores the filter still gets filtered, when its items say their modality.
    return modality === undefined
      ? models
      : models.filter((model) => model.modality === undefined || model.modality === modality);
  }

  async #query(endpoint: string, opts: QueryOptions): Promise<TaskAnswer> {
    const answer = await this.#send("GET", endpoint, { taskQuery: true, ...opts });
    return {
      body: answer.body,
      state: classifyTask(answer.status, answer.body),
      httpStatus: answer.status,
    };
  }

  async #createImageLike(
    endpoint: string,
    payload: SendOptions,
    opts: CreateOptions,
  ): Promise<ImageCreated> {
    const answer = await this.#create(endpoint, payload, opts);
    const taskId = readTaskId(answer.body);
    const state = classifyTask(answer.status, answer.body);
    if (taskId === undefined && state.outputUrls.length === 0) {
      throw badResponse(
        `HTTP ${answer.status} but neither a task id nor an image URL (base64 answers are not read; ask for URLs)`,
        answer.status,
        { method: "POST", endpoint, attempts: answer.attempts },
        this.#redact,
      );
    }
    return { ...(taskId === undefined ? {} : { taskId }), body: answer.body, state };
  }

  async #create(
    endpoint: string,
    payload: SendOptions,
    opts: CreateOptions | undefined,
  ): Promise<Answer> {
    const key = opts?.idempotencyKey;
    if (typeof key !== "string" || key.trim() === "") {
      throw new ReelayError(
        "missing_idempotency_key",
        `A create (POST ${endpoint}) needs an idempotency key so that retries never make a second task.`,
      );
    }
    const answer = await this.#send("POST", endpoint, {
      ...payload,
      idempotencyKey: key,
      ...(opts?.noRetryWhenRateLimited === true ? { noRetryWhenRateLimited: true } : {}),
      ...(opts?.noRetryWhenNotAccepted === true ? { noRetryWhenNotAccepted: true } : {}),
    });
    // A repeated create (its first answer was lost) may find its task already failed: the error
    // then sits beside a task id and a failure status, and is the task's failure, not a refusal.
    if (readBusinessError(answer.body) !== undefined && !isFailedTask(answer.body)) {
      throw businessError(
        answer.body,
        { method: "POST", endpoint, attempts: answer.attempts },
        this.#redact,
      );
    }
    return answer;
  }

  #headers(options: SendOptions): Record<string, string> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.#apiKey !== "") headers.Authorization = `Bearer ${this.#apiKey}`;
    if (options.json !== undefined) headers["Content-Type"] = "application/json";
    if (options.idempotencyKey !== undefined) headers["X-Idempotency-Key"] = options.idempotencyKey;
    return headers;
  }

  /**
   * A request that got no answer: the pause before the next attempt, or the error it ends with
   * (thrown) when attempts or time are spent, or when nothing was accepted and the caller goes
   * elsewhere (noRetryWhenNotAccepted).
   */
  #pauseAfterNoAnswer(
    error: unknown,
    call: { method: string; endpoint: string; attempts: number; timeoutMs: number },
    options: SendOptions,
    leftMs: number,
  ): number {
    const refused = isRefused(error);
    const stop =
      call.attempts >= this.#maxAttempts || (refused && options.noRetryWhenNotAccepted === true);
    const pauseMs = stop ? 0 : backoffDelayMs(call.attempts, this.#backoff, this.#random);
    if (stop || pauseMs >= leftMs)
      throw transportError(error, { ...call, notAccepted: refused }, this.#redact);
    return pauseMs;
  }

  /**
   * One request's span (each retry its own), a child of the step that sends it: the method, the
   * host and the path (no query, no key), the operation and the account.
   */
  #span(method: string, endpoint: string, operation: string, attempt: number) {
    return startSpan(`upstream ${operation}`, {
      kind: "client",
      attributes: {
        "http.request.method": method,
        "server.address": this.#host,
        "url.path": `${this.#basePath}${endpoint.split("?")[0]}`,
        "reelay.upstream.operation": operation,
        ...(attempt > 1 ? { "http.request.resend_count": attempt - 1 } : {}),
        ...(this.#labels.account === undefined
          ? {}
          : { "reelay.upstream.account": this.#labels.account }),
      },
    });
  }

  /** One request and its whole answer, in its span: the status, or the error that stopped it. */
  async #exchange(
    url: string,
    request: {
      method: string;
      headers: Record<string, string>;
      body?: string | FormData;
      timeoutMs: number;
    },
    span: TraceSpan,
  ): Promise<Exchanged> {
    const { timeoutMs, ...init } = request;
    try {
      const response = await this.#fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      const text = await response.text();
      span.set({ "http.response.status_code": response.status });
      span.end(response.status >= 400 ? { code: `http_${response.status}` } : undefined);
      return { status: response.status, retryAfter: response.headers.get("retry-after"), text };
    } catch (error) {
      span.end(error);
      throw error;
    }
  }

  async #send(method: string, endpoint: string, options: SendOptions): Promise<Answer> {
    const url = `${this.baseUrl}${endpoint}`;
    const headers = this.#headers(options);
    const body = options.json !== undefined ? JSON.stringify(options.json) : options.form;
    // With a time limit, an attempt waits for its answer only until then, and a pause that would end after it is not taken.
    const left = () =>
      options.until === undefined ? Number.POSITIVE_INFINITY : options.until - this.#now();
    const labels = { operation: operationOf(method, options), ...this.#labels };
    for (let attempt = 1; ; attempt += 1) {
      const call = { method, endpoint, attempts: attempt };
      this.#metrics.count("reelay_upstream_requests_total", labels);
      const last = attempt >= this.#maxAttempts;
      const timeoutMs = Math.max(1, Math.min(this.#timeoutMs, left()));
      let answer: Exchanged;
      try {
        answer = await this.#exchange(
          url,
          { method, headers, ...(body === undefined ? {} : { body }), timeoutMs },
          this.#span(method, endpoint, labels.operation, attempt),
        );
      } catch (error) {
        this.#metrics.count("reelay_upstream_errors_total", labels);
        await this.#sleep(this.#pauseAfterNoAnswer(error, { ...call, timeoutMs }, options, left()));
        continue;
      }
      const { status, text, retryAfter } = answer;
      if (status >= 200 && status < 300) {
        const parsed = parseJson(text);
        if (!parsed.ok) {
          throw badResponse(
            `HTTP ${status} and a body that is not JSON`,
            status,
            call,
            this.#redact,
          );
        }
        return { status, body: parsed.value, attempts: attempt };
      }
      if (status === 429) this.#metrics.count("reelay_upstream_429_total", labels);
      if (status >= 500 || status === 401 || status === 403)
        this.#metrics.count("reelay_upstream_errors_total", labels);
      const errorBody = errorBodyOf(text);
      const retryAfterMs =
        status === 429 || status === 503 ? parseRetryAfterMs(retryAfter, this.#now()) : undefined;
      const retry =
        !last &&
        isTransientStatus(status) &&
        !(status === 429 && options.noRetryWhenRateLimited === true);
      const pauseMs = retry
        ? (retryAfterMs ?? backoffDelayMs(attempt, this.#backoff, this.#random))
        : 0;
      if (!retry || pauseMs >= left()) {
        throw httpError(
          status,
          errorBody,
          {
            ...call,
            taskQuery: options.taskQuery === true,
            ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          },
          this.#redact,
        );
      }
      await this.#sleep(pauseMs);
    }
  }
}

/** The request never reached the upstream: nothing listened, or the name did not resolve. */
function isRefused(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The metrics' operation: a create (POST), a task query, or the model listing. */
function operationOf(method: string, options: SendOptions): string {
  if (method === "POST") return "create";
  return options.taskQuery === true ? "get" : "models";
}

function isFailedTask(body: unknown): boolean {
  const status = readStatus(body)?.toLowerCase();
  return (
    readTaskId(body) !== undefined && status !== undefined && FAILURE_STATUSES.includes(status)
  );
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** An error answer that is not JSON (a proxy's HTML page) still yields a short reason. */
function errorBodyOf(text: string): unknown {
  const parsed = parseJson(text);
  if (parsed.ok) return parsed.value;
  const plain = text
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return plain === "" ? {} : { message: plain.length > 300 ? `${plain.slice(0, 300)}...` : plain };
}

function readModels(body: unknown): UpstreamModel[] {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const list = Array.isArray(body)
    ? body
    : Array.isArray(record.data)
      ? record.data
      : record.models;
  if (!Array.isArray(list)) return [];
  const models: UpstreamModel[] = [];
  for (const item of list) {
    if (typeof item === "string" && item !== "") models.push({ id: item });
    if (typeof item !== "object" || item === null) continue;
    const { id, modality } = item as Record<string, unknown>;
    if (typeof id !== "string" || id === "") continue;
    models.push(typeof modality === "string" ? { id, modality } : { id });
  }
  return models;
}
