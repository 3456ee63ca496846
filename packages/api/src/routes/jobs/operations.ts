/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { JobListSchema, JobViewSchema } from "../../openapi/responses.ts";
import {
  FORBIDDEN,
  ID,
  JOB_EXAMPLE,
  NOT_FOUND,
  pathId,
  UNAUTHORIZED,
  UNAVAILABLE,
} from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

export const JOBS_OPERATIONS: Record<string, Operation> = {
  "GET /v1/jobs": {
    summary: "List jobs",
    description:
      "reelay's job records, newest first, with cursor pagination and filters. `metadata.KEY=VALUE` (one parameter a pair, all must match, with any other filter) lists the jobs whose metadata holds those pairs; a key over 40 characters, a value over 500, more than 16 pairs or a bare `metadata` is 400 invalid_metadata naming the parameter.",
    tag: "jobs",
    auth: true,
    parameters: [
      {
        name: "status",
        in: "query",
        required: false,
        description: "Only jobs in this status.",
        schema: {
          type: "string",
          enum: ["queued", "running", "downloading", "succeeded", "failed", "cancelled"],
        },
        example: "succeeded",
      },
      {
        name: "model",
        in: "query",
        required: false,
        description: "Only jobs for this model.",
        schema: { type: "string" },
        example: "gamma-3.1",
      },
      {
        name: "kind",
        in: "query",
        required: false,
        description: "video or image.",
        schema: { type: "string", enum: ["video", "image"] },
        example: "video",
      },
      {
        name: "source",
        in: "query",
        required: false,
        description: "Where the job came from.",
        schema: { type: "string" },
        example: "api",
      },
      {
        name: "expiring_within",
        in: "query",
        required: false,
        description:
          "Seconds: only jobs whose outputs expire between now and that far ahead (`reelay jobs --expiring 24h` is 86400).",
        schema: { type: "integer", minimum: 1 },
        example: "86400",
      },
      {
        name: "user",
        in: "query",
        required: false,
        description: "Only jobs made for this end user (`user` / X-Reelay-User).",
        schema: { type: "string", minLength: 1, maxLength: 128 },
        example: "user-4711",
      },
      {
        name: "limit",
        in: "query",
        required: false,
        description: "Page size, 1 to 100.",
        schema: { type: "integer", minimum: 1, maximum: 100 },
        example: "20",
      },
      {
        name: "cursor",
        in: "query",
        required: false,
        description: "next_cursor of the previous page.",
        schema: { type: "string" },
      },
    ],
    response: {
      status: 200,
      contentType: "application/json",
      schema: JobListSchema,
      example: { data: [JOB_EXAMPLE], next_cursor: null },
      description: "A page of jobs.",
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_query", "invalid_cursor", "invalid_metadata"],
        when: "A filter or the limit is out of range, or the cursor is not one this service returned.",
      },
      UNAUTHORIZED,
      UNAVAILABLE,
    ],
  },
  "GET /v1/jobs/{id}": {
    summary: "Get a job",
    description:
      "The full record: request, warnings, outputs with presigned URLs, error, timings and the state history with timestamps.",
    tag: "jobs",
    auth: true,
    parameters: [pathId("id", ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: JobViewSchema,
      example: JOB_EXAMPLE,
      description: "The job.",
    },
    errors: [UNAUTHORIZED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
  },
  "POST /v1/jobs/{id}/retry": {
    summary: "Retry a failed or cancelled job",
    description:
      "Makes a new job from the job's request with the body's fields (if any) laid over it, linked both ways (`retryOf`, `retriedBy`). The same retry again answers the same new job. A failure of class content_policy or invalid_request is refused unless the body changes the request.",
    tag: "jobs",
    auth: true,
    parameters: [pathId("id", ID)],
    request: {
      contentType: "application/json",
      schema: {
        type: "object",
        description: "Request fields to change (optional; an empty body retries unchanged).",
      },
      example: { prompt: "a paper boat in the rain, seen from above" },
    },
    response: {
      status: 200,
      contentType: "application/json",
      schema: JobViewSchema,
      example: {
        ...JOB_EXAMPLE,
        status: "queued",
        outputs: [],
        media: null,
        previews: null,
        retryOf: ID,
      },
      description: "The new job.",
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_json", "invalid_request"],
        when: "The body is not a JSON object, or the changed request breaks a model rule.",
      },
      {
        status: 402,
        codes: ["budget_exceeded"],
        when: "The new job's estimate does not fit what is left of the key's budget.",
      },
      {
        status: 429,
        codes: ["queue_full"],
        when: "The key already has its limits' max_queued jobs waiting for a slot; nothing was made.",
      },
      UNAUTHORIZED,
      FORBIDDEN,
      NOT_FOUND,
      {
        status: 409,
        codes: ["not_retryable"],
        when: "The job has not ended, or it failed with content_policy or invalid_request and the body does not change the request.",
      },
      UNAVAILABLE,
    ],
  },
  "POST /v1/jobs/{id}/cancel": {
    summary: "Cancel a job",
    description:
      "Marks the job `cancelled` (one Generation Cancelled event), then stops its execution; a late step cannot bring it back.",
    tag: "jobs",
    auth: true,
    parameters: [pathId("id", ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: JobViewSchema,
      example: {
        ...JOB_EXAMPLE,
        status: "cancelled",
        outputs: [],
        media: null,
        previews: null,
        error: { code: "cancelled", message: "Cancelled by the caller." },
      },
      description: "The job after cancelling.",
    },
    errors: [
      UNAUTHORIZED,
      FORBIDDEN,
      NOT_FOUND,
      {
        status: 409,
        codes: ["job_not_cancellable"],
        when: "The job is already succeeded, failed or cancelled.",
      },
      UNAVAILABLE,
    ],
  },
};
