/**
 * What each route does, for the OpenAPI document and /docs. Keyed by "METHOD /path" in OpenAPI's
 * `{param}` form; a test compares the keys with the routes the app actually serves, so a route
 * added without an entry here fails the suite. Entries for routes an app does not serve (e.g.
 * /v1/events without an event source) are left out of that app's document.
 */
import { imageRequestSchema, videoRequestSchema } from "@reelay/core";
import {
  AdmissionSchema,
  BatchListSchema,
  BatchResultsSchema,
  BatchSchema,
  ApiKeyListSchema,
  ApiKeySchema,
  HealthSchema,
  ImageTaskSchema,
  JobListSchema,
  JobViewSchema,
  ModelListSchema,
  TaskCreatedSchema,
  TaskSchema,
} from "./responses.ts";
import type { ErrorCase, Operation, Parameter } from "./operation.ts";
import { OPTION_PARAMETERS } from "../job-options.ts";
import { subscriberOperations } from "./subscriber-operations.ts";
import { webhookOperations } from "./webhook-operations.ts";

const ID = "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T";
const VIDEO_ESTIMATE = {
  usage: { unit: "video_second", quantity: 8, resolution: null, audio: false },
  cost: 0.4,
  currency: "USD",
  price_version: "5d41402abc4b2a76b9719d911017c592",
};
const IMAGE_ESTIMATE = {
  usage: { unit: "image", quantity: 1, tier: "2K", reference_images: 0 },
  cost: null,
  currency: null,
  price_version: null,
};
const IMAGE_ID = "imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0";
const NOW = "2026-11-22T00:00:00.000Z";
const LATER = "2026-11-22T00:00:41.000Z";

const IMAGE_URL = `http://127.0.0.1:4701/reelay/outputs/${IMAGE_ID}/image-1.png?X-Amz-Signature=...`;
const task = (id: string, status: string) => ({
  service_task: { task_id: id, status },
  task_id: id,
  status,
});
const videoUrl =
  "http://127.0.0.1:4701/reelay/outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/video.mp4?X-Amz-Signature=...";

const MEDIA_EXAMPLE = {
  duration_s: 8,
  width: 1280,
  height: 720,
  codec: "h264",
  fps: 24,
  bytes: 1048576,
};

const JOB_EXAMPLE = {
  id: ID,
  kind: "video",
  status: "succeeded",
  model: "gamma-3.1",
  mode: "text",
  request: {
    model: "gamma-3.1",
    prompt: "a paper boat in the rain",
    duration_sec: 8,
    generate_audio: false,
  },
  warnings: [],
  source: { type: "api" },
  upstreamTaskId: "vidtsk_upstream123",
  usage: VIDEO_ESTIMATE.usage,
  estimate: { cost: 0.4, currency: "USD", price_version: VIDEO_ESTIMATE.price_version },
  cost: 0.4,
  charged: true,
  priority: "normal",
  upstream: { account: "default", task_id: "vidtsk_upstream123" },
  attempts: [
    {
      account: "default",
      task_id: "vidtsk_upstream123",
      outcome: "succeeded",
      charged: true,
      cost: 0.4,
    },
  ],
  polls: 9,
  outputs: [
    {
      bucket: "reelay",
      key: `outputs/${ID}/video.mp4`,
      bytes: 1048576,
      sha256: "9f86d08...",
      contentType: "video/mp4",
      media: MEDIA_EXAMPLE,
      url: videoUrl,
      expiresAt: LATER,
    },
  ],
  media: MEDIA_EXAMPLE,
  retention_days: 30,
  expires_at: "2026-12-22T00:00:41.000Z",
  outputs_expired: false,
  output_target: null,
  previews: {
    thumbnail: {
      key: `outputs/${ID}/thumbnail.jpg`,
      bytes: 31022,
      contentType: "image/jpeg",
      width: 640,
      height: 360,
      url: `https://reelay.s3.amazonaws.com/outputs/${ID}/thumbnail.jpg?X-Amz-Signature=...`,
    },
    spritesheet: {
      key: `outputs/${ID}/spritesheet.jpg`,
      bytes: 48211,
      contentType: "image/jpeg",
      width: 800,
      height: 180,
      url: `https://reelay.s3.amazonaws.com/outputs/${ID}/spritesheet.jpg?X-Amz-Signature=...`,
      columns: 5,
      rows: 2,
      frames: 10,
      frameWidth: 160,
      frameHeight: 90,
      intervalS: 0.8,
    },
  },
  error: null,
  history: [
    { status: "queued", at: NOW },
    { status: "running", at: NOW },
    { status: "downloading", at: LATER },
    { status: "succeeded", at: LATER },
  ],
  timings: {
    createdAt: NOW,
    updatedAt: LATER,
    submittedAt: NOW,
    upstreamDoneAt: LATER,
    finishedAt: LATER,
    deadlineAt: null,
    totalMs: 41000,
  },
};

export const KEY_RECORD = {
  id: "key_01JD8ZB...",
  name: "ci",
  hint: "rl_live_3q2",
  createdAt: NOW,
  scopes: ["read", "write"],
  project: "video-team",
};
export const ADMIN_ONLY: ErrorCase = {
  status: 403,
  codes: ["forbidden"],
  when: "Only the deployment's own API key manages keys.",
};
export const UNAUTHORIZED: ErrorCase = {
  status: 401,
  codes: ["unauthorized", "key_expired"],
  when: "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired).",
};
const FORBIDDEN: ErrorCase = {
  status: 403,
  codes: ["forbidden"],
  when: "The job belongs to another API key.",
};
const NOT_FOUND: ErrorCase = {
  status: 404,
  codes: ["job_not_found"],
  when: "No job (of this kind) has that id.",
};
export const UNAVAILABLE: ErrorCase = {
  status: 503,
  codes: ["service_unavailable"],
  when: "DynamoDB, S3 or Step Functions did not answer; retry (Retry-After).",
};
const BODY_ERRORS: ErrorCase[] = [
  {
    status: 400,
    codes: [
      "invalid_json",
      "invalid_request",
      "invalid_idempotency_key",
      "invalid_priority",
      "invalid_queue_timeout",
      "invalid_retention",
      "invalid_output_target",
      "output_bucket_not_allowed",
      "invalid_reuse",
    ],
    when: "The body is not JSON, breaks a model rule (every issue in error.errors, the first at error.path), or a header (the key, the priority, the queue timeout, the reuse age, the retention, the output prefix) is malformed; or the output prefix names a bucket outside REELAY_OUTPUT_BUCKETS.",
  },
  {
    status: 402,
    codes: ["budget_exceeded"],
    when: "The job's estimate does not fit what is left of the API key's budget, or the deployment's, for the period (error.remaining, error.budget = key|deployment); nothing was made.",
  },
  {
    status: 429,
    codes: ["queue_full"],
    when: "The key already has its limits' max_queued jobs waiting for a slot; nothing was made.",
  },
  {
    status: 409,
    codes: ["idempotency_conflict"],
    when: "The X-Idempotency-Key was used before with a different payload (error.path = X-Idempotency-Key).",
  },
  {
    status: 413,
    codes: ["payload_too_large"],
    when: "The body is larger than the limit (1 MiB by default).",
  },
  {
    status: 503,
    codes: ["start_failed", "service_unavailable"],
    when: "The job was recorded but could not be started (it is marked failed), or a dependency did not answer.",
  },
];

const IDEMPOTENCY: Parameter = {
  name: "X-Idempotency-Key",
  in: "header",
  required: false,
  description:
    "The same key with the same payload returns the same job; with a different payload, 409.",
  schema: { type: "string", maxLength: 200 },
  example: "order-1234",
};
/** A key's `limits` (POST /v1/keys, PUT /v1/keys/{id}/limits); null = no limit. */
export const KEY_LIMITS_SHAPE = {
  properties: {
    rate: { type: ["number", "null"], exclusiveMinimum: 0 },
    burst: { type: ["integer", "null"], minimum: 1 },
    max_queued: { type: ["integer", "null"], minimum: 1 },
    max_in_flight: { type: ["integer", "null"], minimum: 1 },
  },
  additionalProperties: false,
};
export const KEY_NOT_FOUND: ErrorCase = {
  status: 404,
  codes: ["key_not_found"],
  when: "No key has that id.",
};
export const KEY_ID: Parameter = {
  name: "id",
  in: "path",
  required: true,
  description: "The key's public id.",
  schema: { type: "string" },
  example: "key_01JD8ZB...",
};
const WEBHOOK_ERRORS: ErrorCase = {
  status: 400,
  codes: [
    "webhook_url_scheme",
    "webhook_url_loopback",
    "webhook_url_private",
    "webhook_url_metadata",
    "webhook_needs_stored_key",
  ],
  when: "The job's own webhook URL is refused (the code says why; error.path names the header or field), or it was asked for with the deployment's own key, which has no webhook secret.",
};
/** What every create route (and a batch) takes in headers besides the contract's body. */
const CREATE_HEADERS: Parameter[] = [IDEMPOTENCY, ...OPTION_PARAMETERS];
const DRY_RUN: Parameter = {
  name: "dry_run",
  in: "query",
  required: false,
  description: "true: check every line and answer what would be made, making nothing.",
  schema: { type: "boolean" },
  example: "true",
};
export const BATCH_ID = "bat_01JD8ZC4T7W2X9Y6Z3A5B8C1D0";
export const BATCH_EXAMPLE = {
  id: BATCH_ID,
  object: "batch",
  status: "in_progress",
  total: 300,
  counts: {
    queued: 250,
    running: 20,
    downloading: 2,
    succeeded: 26,
    failed: 1,
    cancelled: 0,
    rejected: 1,
  },
  source: { type: "api" },
  priority: "normal",
  created_at: NOW,
  finished_at: null,
  cancelled_at: null,
  eta_seconds: 412,
  results: null,
  retry_of: null,
};
export const BATCH_NOT_FOUND: ErrorCase = {
  status: 404,
  codes: ["batch_not_found"],
  when: "No batch with that id is visible to this key.",
};
export const pathId = (name: string, example: string): Parameter => ({
  name,
  in: "path",
  required: true,
  description: "The id create returned, exactly.",
  schema: { type: "string" },
  example,
});

const IMAGE_EXAMPLE = {
  model: "deltaq2-image",
  messages: [{ role: "user", content: "a lighthouse at dawn, watercolour" }],
  modalities: ["image", "text"],
  image_config: { image_size: "2K", aspect_ratio: "16:9", output_format: "url" },
};

export const OPERATIONS: Record<string, Operation> = {
  "GET /healthz": {
    summary: "Readiness",
    description: "200 when the API and its dependencies answer; 503 `unhealthy` otherwise.",
    tag: "service",
    auth: false,
    response: {
      status: 200,
      contentType: "application/json",
      schema: HealthSchema,
      example: { ok: true, upstream: "simulator" },
      description: "Ready.",
    },
    errors: [{ status: 503, codes: ["unhealthy"], when: "A dependency check failed." }],
  },
  "GET /openapi.json": {
    summary: "This OpenAPI 3.1 document",
    description: "Generated from the zod schemas that validate requests.",
    tag: "service",
    auth: false,
    response: {
      status: 200,
      contentType: "application/json",
      example: { openapi: "3.1.0", info: { title: "reelay" } },
      description: "The document.",
    },
    errors: [],
  },
  "GET /docs": {
    summary: "Human-readable API reference",
    description: "A self-contained HTML page rendered from /openapi.json.",
    tag: "service",
    auth: false,
    response: {
      status: 200,
      contentType: "text/html",
      example: "<!doctype html>...",
      description: "The page.",
    },
    errors: [],
  },
  "POST /mcp": {
    summary: "MCP server (streamable HTTP, stateless; local stack)",
    description:
      "reelay's MCP tools for agents (docs/mcp.md): JSON-RPC 2.0 messages of the Model Context Protocol; send `Accept: application/json, text/event-stream`. Each tool calls the API with the caller's key, so it needs its route's scope.",
    tag: "service",
    auth: true,
    request: {
      contentType: "application/json",
      schema: { type: "object", description: "A JSON-RPC 2.0 request of MCP." },
      example: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    },
    response: {
      status: 200,
      contentType: "text/event-stream",
      example: 'event: message\ndata: {"result":{"tools":[...]},"jsonrpc":"2.0","id":1}',
      description: "The JSON-RPC answer, after the call's progress notifications.",
    },
    errors: [UNAUTHORIZED],
  },
  "POST /v1/video/generations": {
    summary: "Create a video task",
    description:
      "Validates the request against the model's rules (hard rules refuse, soft rules warn), records a job and starts it. Answers at once with the task; poll GET /v1/video/tasks/{taskId}.",
    tag: "video",
    auth: true,
    parameters: CREATE_HEADERS,
    request: {
      contentType: "application/json",
      schema: videoRequestSchema(),
      example: {
        model: "gamma-3.1",
        prompt: "a paper boat in the rain",
        duration_sec: 8,
        resolution: "1080p",
        aspect_ratio: "16:9",
      },
    },
    response: {
      status: 200,
      contentType: "application/json",
      schema: TaskCreatedSchema,
      example: {
        ...task(ID, "queued"),
        model: "gamma-3.1",
        warnings: [],
        estimate: VIDEO_ESTIMATE,
      },
      description: "The task was created.",
    },
    errors: [WEBHOOK_ERRORS, ...BODY_ERRORS, UNAUTHORIZED],
  },
  "GET /v1/video/tasks/{taskId}": {
    summary: "Query a video task",
    description:
      "The contract's task record; `video_url` (a presigned GET of reelay's S3 copy) appears only once the job succeeded.",
    tag: "video",
    auth: true,
    parameters: [pathId("taskId", ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: TaskSchema,
      example: {
        service_task: { task_id: ID, status: "succeeded", output: { video_url: videoUrl } },
        task_id: ID,
        status: "succeeded",
        video_url: videoUrl,
        output: {
          url: videoUrl,
          bytes: 1048576,
          sha256: "9f86d08...",
          content_type: "video/mp4",
          expires_at: LATER,
        },
        error: null,
      },
      description: "The task.",
    },
    errors: [UNAUTHORIZED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
  },
  "POST /v1/chat/completions": {
    summary: "Create an image task (chat form)",
    description:
      "The unified image contract (§2.6): `modalities` must contain `image`, `stream` false. Editing: several `image_config.reference_images` plus a prompt.",
    tag: "image",
    auth: true,
    parameters: CREATE_HEADERS,
    request: {
      contentType: "application/json",
      schema: imageRequestSchema(),
      example: IMAGE_EXAMPLE,
    },
    response: {
      status: 200,
      contentType: "application/json",
      schema: TaskCreatedSchema,
      example: {
        ...task(IMAGE_ID, "queued"),
        model: "deltaq2-image",
        warnings: [],
        estimate: IMAGE_ESTIMATE,
      },
      description: "The image task was created.",
    },
    errors: [WEBHOOK_ERRORS, ...BODY_ERRORS, UNAUTHORIZED],
  },
  "GET /v1/image/tasks/{taskId}": {
    summary: "Query an image task",
    description:
      "Status, and once succeeded the durable URLs, sizes and checksums of every image (stored under outputs/<jobId>/).",
    tag: "image",
    auth: true,
    parameters: [pathId("taskId", IMAGE_ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: ImageTaskSchema,
      example: {
        ...task(IMAGE_ID, "succeeded"),
        model: "deltaq2-image",
        images: [
          {
            url: IMAGE_URL,
            bytes: 204800,
            sha256: "2c26b46...",
            content_type: "image/png",
            expires_at: LATER,
          },
        ],
        data: [{ url: IMAGE_URL }],
        error: null,
      },
      description: "The image task.",
    },
    errors: [UNAUTHORIZED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
  },
  "POST /v1/images/edits": {
    summary: "Edit images (OpenAI-compatible)",
    description:
      "multipart/form-data as OpenAI's images.edit: up to 7 `image`/`image[]` files, `prompt`, `model`, `n`, `size`, `response_format=url`. Files are stored in S3 and passed upstream as presigned reference_images. Answers with the task; with the opt-in wait (`?wait=<s>` or `Prefer: wait=<s>`, at most 60), in OpenAI's shape `{created, data:[{url}]}` once done, 202 with the task if still running.",
    tag: "image",
    auth: true,
    parameters: [
      ...CREATE_HEADERS,
      {
        name: "wait",
        in: "query",
        required: false,
        description: "Seconds to wait for the result (at most 60); wins over Prefer.",
        schema: { type: "integer", minimum: 0, maximum: 60 },
        example: "30",
      },
      {
        name: "Prefer",
        in: "header",
        required: false,
        description: "RFC 7240 `wait=<s>`, as an alternative to ?wait.",
        schema: { type: "string" },
        example: "respond-async, wait=30",
      },
    ],
    request: {
      contentType: "multipart/form-data",
      schema: {
        type: "object",
        required: ["image", "prompt"],
        properties: {
          image: {
            type: "array",
            items: { type: "string", contentMediaType: "application/octet-stream" },
            minItems: 1,
            maxItems: 7,
            description: "1 to 7 image files (`image` or `image[]`).",
          },
          prompt: { type: "string", description: "What to change." },
          model: { type: "string", description: "Image model code." },
          n: { type: "integer", minimum: 1, description: "Number of images." },
          size: { type: "string", description: "e.g. 2K or 1024x1024." },
          response_format: { type: "string", enum: ["url"] },
        },
      },
      example: {
        model: "deltaq2-image",
        prompt: "replace the sky with a sunset",
        n: 1,
        size: "2K",
        response_format: "url",
        image: ["(binary)"],
      },
    },
    response: {
      status: 200,
      contentType: "application/json",
      schema: TaskCreatedSchema,
      example: {
        ...task(IMAGE_ID, "queued"),
        model: "deltaq2-image",
        warnings: [],
        estimate: IMAGE_ESTIMATE,
      },
      description: "The edit task (or, with the wait, `{created, data:[{url}]}`).",
    },
    errors: [
      WEBHOOK_ERRORS,
      ...BODY_ERRORS,
      {
        status: 400,
        codes: [
          "invalid_content_type",
          "invalid_multipart",
          "unsupported_response_format",
          "invalid_query",
        ],
        when: "Not multipart/form-data, a malformed form, a response_format other than url, or a bad wait.",
      },
      UNAUTHORIZED,
      {
        status: 502,
        codes: ["upstream_task_failed", "timeout", "cancelled"],
        when: "With the wait: the edit job failed or was cancelled (error.code is the job's).",
      },
    ],
  },
  "GET /v1/models": {
    summary: "List models",
    description:
      "reelay's catalog (modes, resolutions, durations, ratios, audio default, allowed config keys) merged with the upstream's listing when it answers within a few seconds; otherwise the catalog alone with a warning.",
    tag: "models",
    auth: true,
    parameters: [
      {
        name: "modality",
        in: "query",
        required: false,
        description: "Only models of this modality.",
        schema: { type: "string", enum: ["video", "image"] },
        example: "video",
      },
    ],
    response: {
      status: 200,
      contentType: "application/json",
      schema: ModelListSchema,
      example: {
        object: "list",
        data: [
          {
            id: "gamma-3.1",
            object: "model",
            family: "gamma",
            modality: "video",
            match: "exact",
            modes: ["text", "first_frame", "first_last_frame", "reference"],
            resolutions: ["720p", "1080p", "4k"],
            durations: [4, 6, 8],
            aspect_ratios: ["16:9", "9:16"],
            audio_default: false,
            config_keys: [],
            source: "both",
          },
          {
            id: "newmodel-1",
            object: "model",
            family: null,
            modality: "video",
            match: "exact",
            modes: null,
            resolutions: null,
            durations: null,
            aspect_ratios: null,
            audio_default: null,
            config_keys: null,
            source: "upstream",
          },
        ],
        warnings: [],
      },
      description: "The models.",
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_query"],
        when: "modality is not video or image (error.path = modality).",
      },
      UNAUTHORIZED,
    ],
  },
  "GET /v1/jobs": {
    summary: "List jobs",
    description: "reelay's job records, newest first, with cursor pagination and filters.",
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
        codes: ["invalid_query", "invalid_cursor"],
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
  "GET /v1/jobs/{id}/content": {
    summary: "Get a job's video, thumbnail or spritesheet",
    description:
      "A 302 to a presigned GET of one of the succeeded job's stored objects, as OpenAI's videos API serves its variants: `video` (the default; an image job's first image), `thumbnail` (a JPEG poster frame, at most 640 px wide) or `spritesheet` (one JPEG of 10 frames in a 5x2 grid, evenly spaced over the video; the job's `previews.spritesheet` gives the grid). A video that could not be decoded has no thumbnail or spritesheet and carries a `thumbnail_failed` warning.",
    tag: "jobs",
    auth: true,
    parameters: [
      pathId("id", ID),
      {
        name: "variant",
        in: "query",
        required: false,
        description: "video (default), thumbnail or spritesheet.",
        schema: { type: "string", enum: ["video", "thumbnail", "spritesheet"] },
        example: "thumbnail",
      },
    ],
    response: {
      status: 302,
      contentType: "text/plain",
      example: "",
      description: "Location: a presigned GET of the object, valid for the presign TTL.",
      headers: {
        Location: { description: "The presigned URL.", schema: { type: "string" } },
      },
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_query"],
        when: "variant is not video, thumbnail or spritesheet (error.path is `variant`).",
      },
      UNAUTHORIZED,
      FORBIDDEN,
      NOT_FOUND,
      {
        status: 404,
        codes: ["content_not_found"],
        when: "The job is not succeeded, or has no such variant (an image's thumbnail, a video that could not be decoded).",
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
  "GET /v1/events": {
    summary: "Stream terminal events (local stack)",
    description:
      "Server-Sent Events: `event: <detail-type>` (Generation Succeeded / Failed / Cancelled), `data: <event JSON>`, `id: <event id>`; a comment heartbeat keeps the stream open.",
    tag: "events",
    auth: true,
    response: {
      status: 200,
      contentType: "text/event-stream",
      example:
        'event: Generation Succeeded\ndata: {"detail-type":"Generation Succeeded","detail":{"jobId":"vidtsk_..."}}\nid: 01JD...\n\n',
      description: "The event stream.",
    },
    errors: [UNAUTHORIZED],
  },
  "GET /v1/jobs/{id}/events": {
    summary: "Follow one job (Server-Sent Events)",
    description:
      "`event: status` for each status the job passes (the last one carries the whole job view, with links or error), `event: progress` between them (polls, queue position); ends after the terminal status. Send the last `id` as `Last-Event-ID` to resume: nothing twice, no status skipped. On AWS each response ends after its first frames (API Gateway buffers), with `retry: 1000`, so an EventSource reconnects.",
    tag: "events",
    auth: true,
    parameters: [pathId("id", ID)],
    response: {
      status: 200,
      contentType: "text/event-stream",
      example:
        'id: 1-1732700000000\nevent: status\ndata: {"id":"vidtsk_...","status":"queued","at":"2026-11-27T10:00:00.000Z"}\n\n',
      description: "The job's stream.",
    },
    errors: [UNAUTHORIZED, NOT_FOUND],
  },
  "GET /v1/batches/{id}/events": {
    summary: "Follow one batch (Server-Sent Events)",
    description:
      "`event: progress` with the batch's view (`total`, `counts`, which always sum to the total) whenever its counts change, and `event: completed` with the final view, then the stream ends. `Last-Event-ID` resumes.",
    tag: "events",
    auth: true,
    parameters: [pathId("id", BATCH_ID)],
    response: {
      status: 200,
      contentType: "text/event-stream",
      example:
        'id: 2.1.0.0.0.0.0\nevent: progress\ndata: {"id":"bat_...","total":3,"counts":{"queued":2,"running":1}}\n\n',
      description: "The batch's stream.",
    },
    errors: [UNAUTHORIZED, BATCH_NOT_FOUND],
  },
  "GET /": {
    summary: "Dashboard (local stack)",
    description:
      "A gallery of jobs (thumbnails with status badges, the spritesheet scrubbing on hover, the video on click) with live status, a job's timeline, previews and a submit form. The page's API key is entered in the page.",
    tag: "dashboard",
    auth: false,
    response: {
      status: 200,
      contentType: "text/html",
      example: "<!doctype html>...",
      description: "The dashboard page.",
    },
    errors: [],
  },
  "GET /dashboard/app.js": {
    summary: "Dashboard script",
    description: "The dashboard's own script; no third-party code.",
    tag: "dashboard",
    auth: false,
    response: {
      status: 200,
      contentType: "text/javascript",
      example: "/* script */",
      description: "The script.",
    },
    errors: [],
  },
  "GET /dashboard/client.js": {
    summary: "Dashboard's API client",
    description:
      "@reelay/client bundled for the browser (esbuild): the dashboard's script calls the API through it.",
    tag: "dashboard",
    auth: false,
    response: {
      status: 200,
      contentType: "text/javascript",
      example: "/* @reelay/client */",
      description: "The client module.",
    },
    errors: [],
  },
  "GET /dashboard/style.css": {
    summary: "Dashboard styles",
    description: "The dashboard's stylesheet.",
    tag: "dashboard",
    auth: false,
    response: {
      status: 200,
      contentType: "text/css",
      example: "/* styles */",
      description: "The stylesheet.",
    },
    errors: [],
  },
  "GET /dashboard/models.json": {
    summary: "Models for the dashboard's submit form",
    description:
      "Per model, the durations, resolutions and ratios the form offers, from the catalog.",
    tag: "dashboard",
    auth: false,
    response: {
      status: 200,
      contentType: "application/json",
      example: { data: [{ id: "gamma-3.1" }] },
      description: "The form's models.",
    },
    errors: [],
  },
  "POST /v1/keys": {
    summary: "Create an API key (admin key only)",
    description:
      "Stores the key hashed; the key itself is in this answer only. Each key sees only its own jobs.",
    tag: "keys",
    auth: true,
    request: {
      contentType: "application/json",
      schema: {
        type: "object",
        properties: {
          name: { type: "string", maxLength: 100 },
          scopes: {
            type: "array",
            items: { type: "string", enum: ["read", "write", "webhooks", "admin"] },
            minItems: 1,
            default: ["read", "write"],
            description:
              "What the key may do: read (get and list), write (create, cancel, retry), webhooks (the subscribers), admin (keys, budgets, operations). A route outside them is 403 scope_missing.",
          },
          project: {
            type: "string",
            pattern: "^[a-z0-9][a-z0-9-]{0,62}$",
            description:
              "The key's project: every key of it sees the project's jobs, batches, usage and webhooks; another project's are 404. Absent: a new project of its own (named by the key's id).",
          },
          limits: {
            type: "object",
            description:
              "The key's own limits, each over REELAY_KEY_LIMITS's; null = no limit. rate: calls per second (past it and burst, 429 rate_limited); max_queued: its jobs waiting (past it, 429 queue_full, nothing made); max_in_flight: its jobs holding upstream slots (the rest wait).",
            ...KEY_LIMITS_SHAPE,
          },
          expires_at: {
            type: "string",
            format: "date-time",
            description:
              "When the key stops working (an ISO time with its zone, in the future); after it, 401 key_expired. Absent: until revoked.",
          },
          budget: {
            type: "object",
            description:
              "What the key may spend per period: money under the price table, or units (video seconds, images). Every create reserves its estimate; past it, 402 budget_exceeded.",
            properties: {
              amount: { type: "number", exclusiveMinimum: 0 },
              unit: { type: "string", enum: ["currency", "units"], default: "currency" },
              period: { type: "string", enum: ["day", "month", "total"], default: "month" },
            },
            required: ["amount"],
          },
        },
      },
      example: {
        name: "ci",
        scopes: ["read", "write"],
        budget: { amount: 50, unit: "currency", period: "month" },
      },
    },
    response: {
      status: 201,
      contentType: "application/json",
      schema: ApiKeySchema,
      example: { ...KEY_RECORD, key: "rl_live_3q2...full key, shown once" },
      description: "The new key and its record.",
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_json", "invalid_request", "unknown_field"],
        when: "The body is not JSON, name is not a string of at most 100 characters (error.path = name), scopes names no known scope, expires_at is not an ISO time ahead (error.path = expires_at), budget or limits is malformed (error.path = budget.amount, limits.rate, ...), or a field is not one of these (unknown_field; no key is made).",
      },
      UNAUTHORIZED,
      ADMIN_ONLY,
    ],
  },
  "GET /v1/keys": {
    summary: "List API keys (admin key only)",
    description:
      "Every stored key's record (id, name, hint, createdAt, revokedAt, budget with this period's `used`), never the key.",
    tag: "keys",
    auth: true,
    response: {
      status: 200,
      contentType: "application/json",
      schema: ApiKeyListSchema,
      example: { data: [KEY_RECORD] },
      description: "The keys.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY],
  },
  "DELETE /v1/keys/{id}": {
    summary: "Revoke an API key (admin key only)",
    description: "The key stops working at once; revoking twice keeps the first revokedAt.",
    tag: "keys",
    auth: true,
    parameters: [KEY_ID],
    response: {
      status: 200,
      contentType: "application/json",
      schema: ApiKeySchema,
      example: { ...KEY_RECORD, revokedAt: LATER },
      description: "The revoked key's record.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY, KEY_NOT_FOUND],
  },
  "POST /v1/keys/{id}/webhook-secret": {
    summary: "Rotate an API key's webhook secret (admin key only)",
    description:
      "A new `whsec_` secret for the key's jobs' own webhooks (X-Reelay-Webhook, webhook_url), answered this once. The old one keeps signing beside it for 24 h (every delivery then carries both signatures), so receivers can switch at their own pace.",
    tag: "keys",
    auth: true,
    parameters: [KEY_ID],
    response: {
      status: 200,
      contentType: "application/json",
      example: { id: "key_01JD8ZB...", webhook_secret: "whsec_...shown once" },
      description: "The key's id and its new webhook secret.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY, KEY_NOT_FOUND],
  },
  "GET /v1/admission": {
    summary: "Upstream slots and the queue (admin key only)",
    description:
      "How many upstream tasks reelay keeps in flight (configured or learned from 429s), which jobs hold a slot, how many wait, and whether a create rate or an upstream's Retry-After holds admissions back.",
    tag: "jobs",
    auth: true,
    response: {
      status: 200,
      contentType: "application/json",
      schema: AdmissionSchema,
      example: {
        limit: 20,
        limitSource: "learned",
        ratePerS: null,
        held: [ID],
        queued: 280,
        heldBackUntil: null,
      },
      description: "Admission now.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY],
  },
  "GET /metrics": {
    summary: "Prometheus metrics (admin key only; local stack)",
    description:
      "The `reelay_` metrics in Prometheus text: jobs created and ended by model and error code, detection delay and end-to-end time, upstream requests, 429s and errors, the admission queue and slots (read at the scrape), each upstream account's circuit, bytes copied, webhook deliveries and budget refusals. Upstream counters and slots also come with an `account` label, one series per upstream account; the series without `account` is the whole deployment's. Prometheus sends the admin key as its bearer token. On AWS the same metrics go to CloudWatch and this route does not exist.",
    tag: "service",
    auth: true,
    response: {
      status: 200,
      contentType: "text/plain",
      example:
        '# HELP reelay_jobs_succeeded_total Jobs that ended succeeded, by model.\n# TYPE reelay_jobs_succeeded_total counter\nreelay_jobs_succeeded_total{model="gamma-3.1"} 12\n',
      description: "Prometheus text format 0.0.4.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY],
  },
  "POST /v1/batches": {
    summary: "Make a batch",
    description:
      'A JSON body `{"requests": [...], "priority"?, "queue_timeout_s"?, "webhook_url"?, "webhook_events"?, "retention_days"?, "output"?: {"s3_prefix"}}` (the webhook gets every job\'s event and the Batch Completed; with JSONL, the X-Reelay-Webhook headers) or JSONL (one request per line), up to 10,000 requests. Each line is checked like a single create; a bad line is kept as `rejected` and the rest become jobs, queued for upstream slots. `?dry_run=true` answers what would be made and makes nothing. X-Idempotency-Key makes a repeat find the first batch.',
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
        ],
        when: "No request at all, more than 10,000, or a malformed priority, queue_timeout_s, reuse, retention_days, output or dry_run, or an output bucket outside REELAY_OUTPUT_BUCKETS.",
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
      "One line per request line: `line`, `job_id`, `status` (`rejected` for a bad line), `outputs` (key, bytes, sha256, a fresh presigned `url`), `error`. Readable at any time; once the batch completes the same lines are in outputs/batches/<id>/results.jsonl.",
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
  ...webhookOperations({ unauthorized: UNAUTHORIZED, adminOnly: ADMIN_ONLY }),
  ...subscriberOperations(UNAUTHORIZED),
};
