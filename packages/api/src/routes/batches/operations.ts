/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { BatchListSchema, BatchResultsSchema, BatchSchema } from "../../openapi/responses.ts";
import {
  BATCH_EXAMPLE,
  BATCH_ID,
  BATCH_NOT_FOUND,
  CREATE_HEADERS,
  DRY_RUN,
  LATER,
  pathId,
  UNAUTHORIZED,
  WEBHOOK_ERRORS,
} from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

export const BATCHES_OPERATIONS: Record<string, Operation> = {
  "POST /v1/batches": {
    summary: "Make a batch",
    description:
      'A JSON body `{"requests": [...], "priority"?, "queue_timeout_s"?, "webhook_url"?, "webhook_events"?, "retention_days"?, "output"?: {"s3_prefix"}, "metadata"?}` (each request may carry its own `metadata`, laid over the batch\'s, and its own `user`, which wins over the batch\'s; the webhook gets every job\'s event and the Batch Completed; with JSONL, the X-Reelay-Webhook headers) or JSONL (one request per line), up to 10,000 requests. Each line is checked like a single create; a bad line is kept as `rejected` and the rest become jobs, queued for upstream slots. `?dry_run=true` answers what would be made and makes nothing. With `fit` (or X-Reelay-Fit) `nearest`, each line is fitted to its model first, and a dry run\'s `fitted` lists each fitted line\'s `adjustments` and the request that would be sent. X-Idempotency-Key makes a repeat find the first batch.',
    tag: "batches",
    auth: true,
    parameters: [...CREATE_HEADERS, DRY_RUN],
    request: {
      contentType: "application/x-ndjson",
      schema: { type: "string" },
      example:
        '{"model":"gamma-3.1","prompt":"a paper boat","duration_sec":8}\n{"model":"os-2","prompt":"a lighthouse","duration_sec":4}\n',
    },
    response: {
      status: 200,
      contentType: "application/json",
      schema: BatchSchema,
      example: BATCH_EXAMPLE,
      description: "The batch, its jobs queued (with dry_run: the quote).",
    },
    errors: [
      WEBHOOK_ERRORS,
      {
        status: 400,
        codes: [
          "invalid_request",
          "batch_too_large",
          "invalid_priority",
          "invalid_queue_timeout",
          "invalid_reuse",
          "invalid_query",
          "invalid_retention",
          "invalid_output_target",
          "output_bucket_not_allowed",
          "invalid_fit",
          "invalid_metadata",
        ],
        when: "No request at all, more than 10,000, or a malformed priority, queue_timeout_s, reuse, retention_days, output, fit or dry_run, or an output bucket outside REELAY_OUTPUT_BUCKETS.",
      },
      { status: 413, codes: ["payload_too_large"], when: "The body is larger than 10 MiB." },
      {
        status: 429,
        codes: ["queue_full"],
        when: "Its jobs would pass the key's limits' max_queued: the batch is refused whole, nothing made.",
      },
      UNAUTHORIZED,
    ],
  },
  "GET /v1/batches": {
    summary: "List batches",
    description: "The newest 50 batches of the caller (the admin key: every batch).",
    tag: "batches",
    auth: true,
    response: {
      status: 200,
      contentType: "application/json",
      schema: BatchListSchema,
      example: { data: [BATCH_EXAMPLE] },
      description: "The batches.",
    },
    errors: [UNAUTHORIZED],
  },
  "GET /v1/batches/{id}": {
    summary: "One batch",
    description:
      "Its counts (read from its jobs' records, so they always sum to total) and an ETA.",
    tag: "batches",
    auth: true,
    parameters: [pathId("id", BATCH_ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: BatchSchema,
      example: BATCH_EXAMPLE,
      description: "The batch.",
    },
    errors: [UNAUTHORIZED, BATCH_NOT_FOUND],
  },
  "GET /v1/batches/{id}/results": {
    summary: "A batch's results (JSONL)",
    description:
      "One line per request line: `line`, `job_id`, `status` (`rejected` for a bad line), `outputs` (key, bytes, sha256, a fresh presigned `url`), `error`, `metadata` (the job's: the line's own over the batch's). Readable at any time; once the batch completes the same lines are in outputs/batches/<id>/results.jsonl.",
    tag: "batches",
    auth: true,
    parameters: [pathId("id", BATCH_ID)],
    response: {
      status: 200,
      contentType: "application/x-ndjson",
      schema: BatchResultsSchema,
      example:
        '{"line":1,"job_id":"vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T","status":"succeeded","outputs":[{"bucket":"reelay","key":"outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/video.mp4","bytes":1048576,"sha256":"9f86d08...","url":"http://..."}],"error":null}\n',
      description: "The results, one JSON line per request line.",
    },
    errors: [UNAUTHORIZED, BATCH_NOT_FOUND],
  },
  "POST /v1/batches/{id}/cancel": {
    summary: "Cancel a batch",
    description:
      "Cancels every job of the batch not yet ended (each gets its Generation Cancelled event); the batch then completes with them counted as cancelled.",
    tag: "batches",
    auth: true,
    parameters: [pathId("id", BATCH_ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: BatchSchema,
      example: { ...BATCH_EXAMPLE, cancelled_at: LATER },
      description: "The batch after cancelling.",
    },
    errors: [UNAUTHORIZED, BATCH_NOT_FOUND],
  },
  "POST /v1/batches/{id}/retry": {
    summary: "Retry a completed batch's retryable failures",
    description:
      "A new batch (`retry_of` = this one) with one line per job that failed with a retryable class, on its original line number; each new job is linked with the one it retries (`retryOf`, `retriedBy`). content_policy and invalid_request failures are left as they are (budget_exceeded ones are retried: raise the budget first), and so is a job already retried on its own. The same retry again answers the same batch.",
    tag: "batches",
    auth: true,
    parameters: [pathId("id", BATCH_ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: BatchSchema,
      example: { ...BATCH_EXAMPLE, id: "bat_01JD8ZD...", total: 3, retry_of: BATCH_ID },
      description: "The retry batch.",
    },
    errors: [
      UNAUTHORIZED,
      BATCH_NOT_FOUND,
      {
        status: 409,
        codes: ["not_retryable"],
        when: "The batch is still running, or none of its failures is one a retry can help.",
      },
    ],
  },
};
