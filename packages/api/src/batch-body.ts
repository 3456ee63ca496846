/**
 * The body of POST /v1/batches: a JSON object `{"requests": [...], "priority"?, "reuse"?, ...}` (the
 * job options' fields, job-options.ts) or JSONL (one request per line; blank lines are skipped but
 * keep the numbering, so line N is line N of the file).
 * Each request is checked with the same validate() as a single create; a bad line is reported, not
 * fatal: the batch holds it as `rejected`.
 */
import {
  MAX_BATCH_LINES,
  type JobSource,
  type Catalog,
  ReelayError,
  validate,
} from "@reelay/core/domain";
import type { CheckedLine } from "@reelay/core/usecases";
import type { Caller, ResolvedDeps } from "./api-deps.ts";
import { refuseUnknownFields } from "./body.ts";
import { uploadIssues } from "./create.ts";
import { OPTION_FIELDS } from "./job-options.ts";

const BATCH_FIELDS = ["requests", ...OPTION_FIELDS] as const;

export interface BatchBody {
  requests: { line: number; body: unknown; parseError?: string }[];
  /** The JSON form's option fields (priority, reuse, ...), unchecked: job-options.ts checks them. */
  options: Record<string, unknown>;
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
  const { requests, ...options } = value as Record<string, unknown>;
  if (!Array.isArray(requests)) return undefined;
  // The batch's own fields; each request's fields are the contract's and pass as a single create's.
  refuseUnknownFields(value, BATCH_FIELDS);
  return { requests: requests.map((body, i) => ({ line: i + 1, body })), options };
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
  return { requests, options: {} };
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

/**
 * Each valid line's upload:// references checked for the caller (create.ts uploadIssues): a line
 * naming an unknown or another project's upload is a bad line, reported with the field.
 */
export async function checkLineUploads(
  deps: ResolvedDeps,
  lines: CheckedLine[],
  caller: Caller,
): Promise<CheckedLine[]> {
  return Promise.all(
    lines.map(async (checked) => {
      if (checked.validation === undefined) return checked;
      const { issues } = await uploadIssues(deps, checked.validation, caller);
      return issues.length === 0
        ? checked
        : { line: checked.line, source: checked.source, errors: issues };
    }),
  );
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
