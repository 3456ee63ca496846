/**
 * The body of POST /v1/batches: a JSON object `{"requests": [...], "priority"?, "reuse"?, ...}` or JSONL (one
 * request per line; blank lines are skipped but keep the numbering, so line N is line N of the file).
 * Each request is checked with the same validate() as a single create; a bad line is reported, not
 * fatal: the batch holds it as `rejected`.
 */
import {
  isPriority,
  PRIORITIES,
  type Priority,
  MAX_BATCH_LINES,
  type JobSource,
  type Catalog,
  ReelayError,
  validate,
} from "@reelay/core/domain";
import type { CheckedLine } from "@reelay/core/usecases";
import { refuseUnknownFields } from "./body.ts";

const BATCH_FIELDS = [
  "requests",
  "priority",
  "queue_timeout_s",
  "reuse",
  "webhook_url",
  "webhook_events",
  "retention_days",
  "output",
] as const;

export interface BatchBody {
  requests: { line: number; body: unknown; parseError?: string }[];
  priority?: Priority;
  /** The JSON form's `queue_timeout_s`, unchecked (queue-timeout.ts checks it). */
  queueTimeoutS?: unknown;
  /** The JSON form's `reuse`, unchecked (reuse.ts checks it). */
  reuse?: unknown;
  /** The JSON form's `webhook_url` and `webhook_events`, unchecked (webhook-input.ts checks them). */
  webhook?: { url?: unknown; events?: unknown };
  /** The JSON form's `retention_days` and `output`, unchecked (retention.ts, output-target.ts check them). */
  retentionDays?: unknown;
  output?: unknown;
}

function tooMany(count: number): ReelayError {
  return new ReelayError(
    "batch_too_large",
    `A batch holds at most ${MAX_BATCH_LINES} requests; this one has ${count}.`,
    { status: 400, path: "requests" },
  );
}

function fromJson(value: unknown): BatchBody | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const {
    requests,
    priority,
    queue_timeout_s,
    reuse,
    webhook_url,
    webhook_events,
    retention_days,
    output,
  } = value as Record<string, unknown>;
  if (!Array.isArray(requests)) return undefined;
  // The batch's own fields; each request's fields are the contract's and pass as a single create's.
  refuseUnknownFields(value, BATCH_FIELDS);
  if (priority !== undefined && !isPriority(priority)) {
    throw new ReelayError("invalid_priority", `priority must be one of ${PRIORITIES.join(", ")}.`, {
      status: 400,
      path: "priority",
    });
  }
  return {
    requests: requests.map((body, i) => ({ line: i + 1, body })),
    ...(priority === undefined ? {} : { priority }),
    ...(queue_timeout_s === undefined ? {} : { queueTimeoutS: queue_timeout_s }),
    ...(reuse === undefined ? {} : { reuse }),
    ...(webhook_url === undefined && webhook_events === undefined
      ? {}
      : { webhook: { url: webhook_url, events: webhook_events } }),
    ...(retention_days === undefined ? {} : { retentionDays: retention_days }),
    ...(output === undefined ? {} : { output }),
  };
}

function fromJsonl(text: string): BatchBody {
  const requests: BatchBody["requests"] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === "") return;
    try {
      requests.push({ line: i + 1, body: JSON.parse(raw) as unknown });
    } catch (error) {
      const why = error instanceof SyntaxError ? error.message.slice(0, 200) : "unreadable";
      requests.push({ line: i + 1, body: undefined, parseError: why });
    }
  });
  return { requests };
}

/** A JSON object with `requests`, else JSONL. An empty body or no request at all is 400. */
export function parseBatchBody(text: string): BatchBody {
  let parsed: BatchBody | undefined;
  if (text.trimStart().startsWith("{")) {
    try {
      parsed = fromJson(JSON.parse(text) as unknown);
    } catch (error) {
      if (error instanceof ReelayError) throw error;
    }
  }
  const body = parsed ?? fromJsonl(text);
  if (body.requests.length === 0) {
    throw new ReelayError(
      "invalid_request",
      'A batch needs at least one request: {"requests": [...]} or one JSON request per line.',
      { status: 400, path: "requests" },
    );
  }
  if (body.requests.length > MAX_BATCH_LINES) throw tooMany(body.requests.length);
  return body;
}

/** Every request checked against the model rules, as the batch will hold it. */
export function checkLines(body: BatchBody, source: JobSource, catalog?: Catalog): CheckedLine[] {
  return body.requests.map(({ line, body: request, parseError }) => {
    if (parseError !== undefined) {
      return {
        line,
        source,
        errors: [
          { path: "", code: "invalid_json", message: `Line ${line} is not JSON: ${parseError}.` },
        ],
      };
    }
    const validation = validate(request, catalog === undefined ? {} : { catalog });
    return validation.valid
      ? { line, source, validation }
      : { line, source, errors: validation.errors };
  });
}
