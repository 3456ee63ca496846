/**
 * The body of POST /v1/batches: a JSON object `{"requests": [...], "priority"?, "reuse"?, ...}` (the
 * job options' fields, job-options.ts) or JSONL (one request per line; blank lines are skipped but
 * keep the numbering, so line N is line N of the file).
 * Each request is checked with the same validate() as a single create; a bad line is reported, not
 * fatal: the batch holds it as `rejected`. A request's own `metadata` and `user` are not the
 * contract's: they are taken out before validate(). The metadata is laid over the batch's
 * (domain/jobs/metadata.ts); over the limits, alone or merged, the line is rejected, its issue
 * `invalid_metadata` naming the key. The line's user is its job's instead of the batch's; a bad one
 * rejects the line with `invalid_user` at `user`.
 */
import {
  checkMetadata,
  type Issue,
  isReelayError,
  MAX_BATCH_LINES,
  type Metadata,
  mergedMetadata,
  parseUserId,
  type JobSource,
  ReelayError,
  validate,
  type ValidateOptions,
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

/**
 * A line's request without its own `metadata` and `user`: the metadata checked and laid over the
 * batch's, the user checked; or the issue that rejects the line.
 */
function lineTags(
  request: unknown,
  batch: Metadata | undefined,
): { request: unknown; metadata?: Metadata; user?: string; issue?: Issue } {
  if (request === null || typeof request !== "object") return { request };
  const own = (name: string) => Object.hasOwn(request, name);
  if (!own("metadata") && !own("user")) return { request };
  const { metadata, user, ...rest } = request as Record<string, unknown>;
  try {
    return {
      request: rest,
      ...(own("metadata")
        ? { metadata: mergedMetadata(batch, checkMetadata(metadata, "metadata"), "metadata") }
        : {}),
      ...(own("user") ? { user: parseUserId(user, "user") } : {}),
    };
  } catch (error) {
    if (!isReelayError(error, "invalid_metadata") && !isReelayError(error, "invalid_user"))
      throw error;
    const issue = { path: error.path ?? "", code: error.code, message: error.message };
    return { request: rest, issue };
  }
}

/**
 * Every request checked against the model rules (fitted when the batch asks), as the batch will
 * hold it; `batchMetadata` is the batch's own, under each line's.
 */
export function checkLines(
  body: BatchBody,
  source: JobSource,
  options: ValidateOptions,
  batchMetadata?: Metadata,
): CheckedLine[] {
  return body.requests.map(({ line, body: raw, parseError }) => {
    if (parseError !== undefined) {
      return {
        line,
        source,
        errors: [
          { path: "", code: "invalid_json", message: `Line ${line} is not JSON: ${parseError}.` },
        ],
      };
    }
    const { request, metadata, user, issue } = lineTags(raw, batchMetadata);
    if (issue !== undefined) return { line, source, errors: [issue] };
    const validation = validate(request, options);
    if (!validation.valid) return { line, source, errors: validation.errors };
    return {
      line,
      source,
      validation,
      ...(metadata === undefined ? {} : { metadata }),
      ...(user === undefined ? {} : { user }),
    };
  });
}
