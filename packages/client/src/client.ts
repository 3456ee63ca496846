/**
 * createClient: every route of reelay's API typed from its OpenAPI document (openapi-fetch over
 * the generated schema.ts), each refusal thrown as a ReelayError, plus the helpers a program wants:
 * generate a video and wait for it with progress, follow a job, create a batch and read its
 * results line by line, follow the event stream. Only fetch, web streams and AbortSignal are
 * used, so it runs in Node, browsers, Deno and edge runtimes.
 */
import createFetchClient, { type Client, type Middleware } from "openapi-fetch";
import { errorFromResponse, ReelayError, unreachable } from "./errors.ts";
import type { paths } from "./schema.ts";
import { readLines, readSse } from "./streams.ts";
import type {
  Batch,
  BatchResult,
  CreatedTask,
  Job,
  ReelayEvent,
  RequestBody,
  Upload,
  VideoRequest,
} from "./types.ts";
import { createUpload, type UploadOptions } from "./uploads.ts";
import { pollJob, type WaitOptions } from "./wait.ts";

export interface ClientOptions {
  /** Where reelay answers, e.g. `http://127.0.0.1:4700` (no `/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` on every request. */
  apiKey: string;
  /** A fetch to use instead of the global one (a test double, a proxy-aware fetch). */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
}

export interface CreateOptions {
  /** X-Idempotency-Key: a repeat with the same key finds the first job instead of making another. */
  idempotencyKey?: string | undefined;
  priority?: "high" | "normal" | "low" | undefined;
  /** X-Reelay-Fit: a value the model refuses moves to the nearest allowed (the job's `adjustments`). */
  fit?: "nearest" | undefined;
  /**
   * X-Reelay-Metadata: your own string pairs (at most 16, keys up to 40 characters, values up to
   * 500), shown back on the job, its events and webhooks; GET /v1/jobs?metadata.KEY=VALUE lists by them.
   */
  metadata?: Record<string, string> | undefined;
  /** X-Reelay-User: the app's own id for its end user; the key's user_limits hold per user. */
  user?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface GenerateOptions extends CreateOptions, WaitOptions {
  /** Wait for the job to end: resolve with the succeeded job, or throw its failure. */
  wait?: boolean | undefined;
}

/**
 * A batch line: a request object (sent as one JSON line), with its own `metadata` laid over the
 * batch's, or a line of JSONL as it is.
 */
export type BatchLine =
  | ((VideoRequest | RequestBody<"/v1/chat/completions", "post">) & {
      metadata?: Record<string, string>;
    })
  | string;

export interface ReelayClient extends Client<paths> {
  readonly baseUrl: string;
  /** POST /v1/video/generations; with `wait`, follows the job to its end (see waitFor). */
  generate(request: VideoRequest, options: GenerateOptions & { wait: true }): Promise<Job>;
  generate(request: VideoRequest, options?: GenerateOptions): Promise<CreatedTask>;
  /** Follows a job until it ends and resolves with its record, whatever the outcome. */
  waitFor(jobId: string, options?: WaitOptions): Promise<Job>;
  uploads: {
    /**
     * POST /v1/uploads: an image or MP4 video as bytes (a Blob or File, or a Uint8Array); resolves
     * with the upload, whose `url` (`upload://upl_<ulid>`) goes wherever a material URL does.
     * Above 8 MiB (or with `method: "put"`) the bytes go by presigned PUT straight to the bucket,
     * then the upload is completed. Files on disk: read them first (the CLI's `--first-frame
     * ./photo.png` does).
     */
    create(file: Blob | Uint8Array, options?: UploadOptions): Promise<Upload>;
  };
  batches: {
    /** POST /v1/batches: `lines` as JSONL (an array), or a body text as it is (JSONL or JSON). */
    create(
      lines: readonly BatchLine[] | string,
      options?: CreateOptions & { dryRun?: boolean | undefined },
    ): Promise<Batch>;
    /** GET /v1/batches/{id}/results, one result a line, read as it arrives. */
    results(id: string, options?: { signal?: AbortSignal }): AsyncGenerator<BatchResult>;
    /** GET /v1/batches/{id}/events: its view at each change of its counts, until `completed`. */
    events(id: string, options?: EventsOptions): AsyncGenerator<StreamFrame>;
  };
  /**
   * GET /v1/jobs/{id}/events: a `status` frame for each status the job passes (the last carries
   * the whole job) and `progress` frames between, until it ends. Where each answer ends early (AWS:
   * API Gateway), it reconnects with Last-Event-ID, so the frames come once each, in order.
   */
  jobEvents(id: string, options?: EventsOptions): AsyncGenerator<StreamFrame>;
  /** GET /v1/events: every terminal event as it happens, until the stream ends or `signal` aborts. */
  events(options?: EventsOptions): AsyncGenerator<ReelayEvent>;
}

/** One frame of a job's or batch's own stream. */
export interface StreamFrame {
  id: string;
  /** `status` or `progress` (a job); `progress` or `completed` (a batch). */
  event: string;
  data: Record<string, unknown>;
}

export interface EventsOptions {
  signal?: AbortSignal | undefined;
  /** Resume after this event id (Last-Event-ID). */
  lastEventId?: string | undefined;
  /** Called once the stream is open, before any event. */
  onOpen?: (() => void) | undefined;
}

/** Any non-2xx answer becomes a thrown ReelayError; nothing answering becomes `api_unreachable`. */
function errorsThrown(baseUrl: string): Middleware {
  return {
    async onResponse({ response }) {
      if (!response.ok) throw await errorFromResponse(response);
    },
    // Nothing returned keeps the error as thrown: an abort (whatever its reason) stays an abort.
    onError({ error, request }) {
      if (request.signal.aborted || error instanceof ReelayError) return;
      return unreachable(baseUrl, error);
    },
  };
}

/** The X-Idempotency-Key and X-Reelay-* headers of a create: what the client sends, for any caller. */
export function createHeaders(options: CreateOptions): Record<string, string> {
  return {
    ...(options.idempotencyKey === undefined
      ? {}
      : { "X-Idempotency-Key": options.idempotencyKey }),
    ...(options.priority === undefined ? {} : { "X-Reelay-Priority": options.priority }),
    ...(options.fit === undefined ? {} : { "X-Reelay-Fit": options.fit }),
    ...(options.metadata === undefined
      ? {}
      : { "X-Reelay-Metadata": metadataHeader(options.metadata) }),
    ...(options.user === undefined ? {} : { "X-Reelay-User": options.user }),
  };
}

/**
 * Metadata as X-Reelay-Metadata's value: JSON with every character outside printable ASCII as a
 * \u escape, since a header value carries bytes, not text (fetch refuses others).
 */
export function metadataHeader(metadata: Record<string, string>): string {
  return JSON.stringify(metadata).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A failed or cancelled job as an error: its code, message, class and retryable flag. */
function jobFailure(job: Job): ReelayError {
  const error = job.error ?? { code: job.status, message: `The job ended ${job.status}.` };
  return new ReelayError(error.code, `${job.id} ${job.status}: ${error.message}`, {
    path: error.path,
    retryable: error.retryable,
    class: error.class,
    details: { job },
  });
}

type Api = Client<paths>;

async function getJob(api: Api, id: string, signal: AbortSignal | undefined): Promise<Job> {
  const { data } = await api.GET("/v1/jobs/{id}", { params: { path: { id } }, signal });
  return data as Job;
}

async function generate(api: Api, request: VideoRequest, given: GenerateOptions = {}) {
  const { data } = await api.POST("/v1/video/generations", {
    body: request,
    headers: createHeaders(given),
    signal: given.signal,
  });
  const created = data as CreatedTask;
  if (given.wait !== true) return created;
  const id = created.service_task?.task_id ?? created.task_id;
  const job = await pollJob((signal) => getJob(api, id, signal), given);
  if (job.status !== "succeeded") throw jobFailure(job);
  return job;
}

async function createBatch(
  api: Api,
  lines: readonly BatchLine[] | string,
  given: CreateOptions & { dryRun?: boolean | undefined } = {},
): Promise<Batch> {
  const text =
    typeof lines === "string"
      ? lines
      : lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n");
  const { data } = await api.POST("/v1/batches", {
    body: text,
    bodySerializer: (body) => body,
    headers: { "Content-Type": "application/x-ndjson", ...createHeaders(given) },
    ...(given.dryRun === true ? { params: { query: { dry_run: true } } } : {}),
    signal: given.signal,
  });
  return data as Batch;
}

async function* batchResults(api: Api, id: string, given: { signal?: AbortSignal } = {}) {
  const { data } = await api.GET("/v1/batches/{id}/results", {
    params: { path: { id } },
    parseAs: "stream",
    signal: given.signal,
  });
  if (data === null || data === undefined) return;
  for await (const line of readLines(data))
    if (line.trim() !== "") yield JSON.parse(line) as BatchResult;
}

async function* events(api: Api, given: EventsOptions = {}) {
  const { data } = await api.GET("/v1/events", {
    headers: {
      Accept: "text/event-stream",
      ...(given.lastEventId === undefined ? {} : { "Last-Event-ID": given.lastEventId }),
    },
    parseAs: "stream",
    signal: given.signal,
  });
  given.onOpen?.();
  if (data === null || data === undefined) return;
  for await (const message of readSse(data)) {
    const event = parseJson(message.data);
    if (event !== undefined) yield event as ReelayEvent;
  }
}

const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);

/**
 * A job's or batch's stream read to its end, reconnecting from the last frame's id when an answer
 * ends before it (a proxy that buffers: the server then asks for a reconnect after 1 s).
 */
async function* follow(
  api: Api,
  path: "/v1/jobs/{id}/events" | "/v1/batches/{id}/events",
  id: string,
  given: EventsOptions,
): AsyncGenerator<StreamFrame> {
  let lastEventId = given.lastEventId;
  for (let opened = 0; ; opened++) {
    if (opened > 0) await pause(1000, given.signal);
    const { data } = await api.GET(path, {
      params: { path: { id } },
      headers: {
        Accept: "text/event-stream",
        ...(lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId }),
      },
      parseAs: "stream",
      signal: given.signal,
    });
    if (opened === 0) given.onOpen?.();
    if (data === null || data === undefined) return;
    for await (const message of readSse(data)) {
      const frame = parseJson(message.data);
      if (frame === undefined || message.id === undefined) continue;
      lastEventId = message.id;
      yield { id: message.id, event: message.event, data: frame as Record<string, unknown> };
      const status = (frame as { status?: unknown }).status;
      const ended =
        message.event === "completed" ||
        (message.event === "status" && typeof status === "string" && TERMINAL.has(status));
      if (ended) return;
    }
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

export function createClient(options: ClientOptions): ReelayClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const api = createFetchClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  api.use(errorsThrown(baseUrl));
  return Object.assign(api, {
    baseUrl,
    generate: ((request: VideoRequest, given?: GenerateOptions) =>
      generate(api, request, given)) as ReelayClient["generate"],
    waitFor: (jobId: string, given: WaitOptions = {}) =>
      pollJob((signal) => getJob(api, jobId, signal), given),
    uploads: {
      create: (file: Blob | Uint8Array, given?: UploadOptions) =>
        createUpload(api, options.fetch ?? ((request) => fetch(request)), file, given),
    },
    batches: {
      create: (
        lines: readonly BatchLine[] | string,
        given?: CreateOptions & { dryRun?: boolean },
      ) => createBatch(api, lines, given),
      results: (id: string, given?: { signal?: AbortSignal }) => batchResults(api, id, given),
      events: (id: string, given: EventsOptions = {}) =>
        follow(api, "/v1/batches/{id}/events", id, given),
    },
    events: (given?: EventsOptions) => events(api, given),
    jobEvents: (id: string, given: EventsOptions = {}) =>
      follow(api, "/v1/jobs/{id}/events", id, given),
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
