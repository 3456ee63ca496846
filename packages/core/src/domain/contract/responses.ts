/**
 * Reading the upstream's answers. The contract leaves field paths and status names
 * "implementation-defined" (docs/contract.md §2.5, §3, §9), so these readers accept every shape we know of and
 * never throw: any JSON value (or none) goes in, a best reading comes out.
 */
import type { ErrorCode } from "../error-codes.ts";

type TaskStateName = "running" | "succeeded" | "failed";

interface TaskError {
  code: string;
  message: string;
}

export interface TaskState {
  state: TaskStateName;
  /** The upstream's own status word, as sent (not lower-cased). */
  status?: string;
  outputUrls: string[];
  error?: TaskError;
}

/** docs/contract.md §3 table, compared without case. Exactly these names; see SUCCESS/FAILURE note in the report. */
const SUCCESS_STATUSES: readonly string[] = ["succeeded", "completed", "success"];
export const FAILURE_STATUSES: readonly string[] = ["failed", "error", "cancelled"];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  if (typeof value === "string") {
    const trimmed = value.trim();
    return trimmed === "" ? undefined : trimmed;
  }
  // Some upstreams send numeric ids and codes; the string form is what goes back in a URL.
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

function serviceTask(body: unknown): Json | undefined {
  return isObject(body) && isObject(body.service_task) ? body.service_task : undefined;
}

/** `service_task.task_id` first, then top-level `task_id` (docs/contract.md §2.5). A number is stringified. */
export function readTaskId(body: unknown): string | undefined {
  const nested = text(serviceTask(body)?.task_id);
  if (nested !== undefined) return nested;
  return isObject(body) ? text(body.task_id) : undefined;
}

/** `service_task.status` first, then top-level `status`, as sent. */
export function readStatus(body: unknown): string | undefined {
  const nested = text(serviceTask(body)?.status);
  if (nested !== undefined) return nested;
  return isObject(body) ? text(body.status) : undefined;
}

/*
 * Output URL heuristic. The video address sits "in a nested object or an output-related field" at
 * an implementation-defined path (docs/contract.md §2.5), so we walk the whole body and keep an http(s) string
 * when the nearest named key above it (array indices do not count) is output-related: `url` in
 * `result.videos[0].url`, `video_url` in `output.video_url`, `output` in `output: "<url>"`, `images`
 * in `images: ["<url>"]`. Subtrees that echo the request's own material or describe an error are
 * never entered, so a reference image or a help link is never mistaken for the result.
 * Document order is kept and repeats are dropped (dialects often put one URL in two places).
 */
const OUTPUT_KEYS = new Set([
  "video_url",
  "url",
  "output",
  "outputs",
  "result",
  "results",
  "videos",
  "images",
  "data",
  "file_url",
  "download_url",
  "image_url",
  "video",
  "image",
  "urls",
  "output_url",
  "output_urls",
]);
const SKIPPED_KEYS = new Set([
  "frame_images",
  "input_references",
  "request",
  "input",
  "reference_images",
  "image_config",
  "messages",
  "error",
  "errors",
]);
const MAX_DEPTH = 32;

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

export function findOutputUrls(body: unknown): string[] {
  const found = new Set<string>();
  const seen = new WeakSet<object>();
  const walk = (value: unknown, key: string | undefined, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (typeof value === "string") {
      const candidate = value.trim();
      if (key !== undefined && OUTPUT_KEYS.has(key) && isHttpUrl(candidate)) found.add(candidate);
      return;
    }
    if (typeof value !== "object" || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) walk(item, key, depth + 1);
      return;
    }
    for (const [childKey, child] of Object.entries(value)) {
      const lower = childKey.toLowerCase();
      if (!SKIPPED_KEYS.has(lower)) walk(child, lower, depth + 1);
    }
  };
  walk(body, undefined, 0);
  return [...found];
}

/** An upstream error as reelay reads it: its code, its words, and the request field it names. */
export interface UpstreamErrorBody {
  code?: string;
  message: string;
  path?: string;
}

/**
 * The request field an error names, in the shapes in use: `param` (OpenAI), `field` or `path`,
 * or FastAPI's `loc` (["body", "duration_sec"] is the request's duration_sec).
 */
function fieldOf(value: Json): string | undefined {
  const named = text(value.param) ?? text(value.field) ?? text(value.path);
  if (named !== undefined) return named;
  const loc = Array.isArray(value.loc) ? value.loc : undefined;
  if (loc === undefined) return undefined;
  const parts = loc.map((part) => String(part));
  const path = (parts[0] === "body" ? parts.slice(1) : parts).join(".");
  return path === "" ? undefined : path;
}

function errorFrom(value: unknown): UpstreamErrorBody | undefined {
  const plain = text(value);
  if (typeof value === "string") return plain === undefined ? undefined : { message: plain };
  if (Array.isArray(value)) return errorFrom(value[0]);
  if (!isObject(value)) return undefined;
  const rawCode = text(value.code) ?? text(value.type);
  // `code: 0` is how several upstreams say "no error" inside an otherwise empty error object.
  const code = rawCode === "0" ? undefined : rawCode;
  const message =
    text(value.message) ?? text(value.msg) ?? text(value.detail) ?? text(value.reason);
  if (message === undefined && code === undefined) return undefined;
  const path = fieldOf(value);
  return {
    ...(code === undefined ? {} : { code }),
    message: message ?? `The upstream reported error ${code}.`,
    ...(path === undefined ? {} : { path }),
  };
}

/** A business-level error: top-level `error` (object or string), else `service_task.error`. */
export function readBusinessError(body: unknown): UpstreamErrorBody | undefined {
  if (!isObject(body)) return undefined;
  return errorFrom(body.error) ?? errorFrom(serviceTask(body)?.error);
}

/** The request field a refusal names (its error's, or a FastAPI `detail: [{loc, msg}]`'s first). */
export function errorPathOf(body: unknown): string | undefined {
  const named = readBusinessError(body)?.path;
  if (named !== undefined || !isObject(body) || !Array.isArray(body.detail)) return named;
  return errorFrom(body.detail[0])?.path;
}

const REASON_KEYS = ["fail_reason", "failure_reason", "failed_reason", "message", "msg", "reason"];

function reasonIn(record: Json | undefined): string | undefined {
  if (record === undefined) return undefined;
  for (const key of REASON_KEYS) {
    const found = text(record[key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

function detailText(detail: unknown): string | undefined {
  const plain = text(detail);
  if (plain !== undefined) return plain;
  // FastAPI-style validation answers: detail: [{loc, msg}]
  if (Array.isArray(detail)) {
    const parts = detail.map((item) =>
      isObject(item) ? (text(item.msg) ?? text(item.message)) : text(item),
    );
    const joined = parts.filter((part): part is string => part !== undefined).join("; ");
    return joined === "" ? undefined : joined;
  }
  return isObject(detail) ? reasonIn(detail) : undefined;
}

/** The upstream's own words for why something failed, or a generic sentence naming the status. */
export function describeFailure(body: unknown): string {
  const business = readBusinessError(body);
  if (business !== undefined) return business.message;
  if (isObject(body)) {
    const reason = reasonIn(body) ?? reasonIn(serviceTask(body)) ?? detailText(body.detail);
    if (reason !== undefined) return reason;
  }
  const status = readStatus(body);
  return status === undefined
    ? "The upstream reported a failure without giving a reason."
    : `The upstream reported status "${status}" without giving a reason.`;
}

function statusIn(list: readonly string[], status: string | undefined): boolean {
  return status !== undefined && list.includes(status.toLowerCase());
}

/**
 * Order per docs/contract.md §3.2: HTTP status, then a business-level error, then the status word, then an
 * output URL. 429 and 5xx never reach here from the client (it retries them), but a caller holding
 * such an answer still gets "failed", never "running".
 */
export function classifyTask(httpStatus: number, body: unknown): TaskState {
  const status = readStatus(body);
  const withStatus = status === undefined ? {} : { status };
  if (!Number.isInteger(httpStatus) || httpStatus < 200 || httpStatus >= 300) {
    const business = readBusinessError(body);
    return {
      state: "failed",
      ...withStatus,
      outputUrls: [],
      error: {
        code:
          business?.code ??
          (httpStatus >= 500
            ? ("upstream_unavailable" satisfies ErrorCode)
            : ("upstream_rejected" satisfies ErrorCode)),
        message: `HTTP ${httpStatus}: ${describeFailure(body)}`,
      },
    };
  }
  const business = readBusinessError(body);
  if (business !== undefined || statusIn(FAILURE_STATUSES, status)) {
    return {
      state: "failed",
      ...withStatus,
      outputUrls: [],
      error: {
        code: business?.code ?? ("upstream_task_failed" satisfies ErrorCode),
        message: describeFailure(body),
      },
    };
  }
  const outputUrls = findOutputUrls(body);
  if (statusIn(SUCCESS_STATUSES, status) || outputUrls.length > 0) {
    return { state: "succeeded", ...withStatus, outputUrls };
  }
  return { state: "running", ...withStatus, outputUrls };
}
