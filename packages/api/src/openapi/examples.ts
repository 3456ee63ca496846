/**
 * What the API areas' OpenAPI entries (routes/<area>/operations.ts) share: example ids and records,
 * the error cases many routes answer, and the headers the create routes read.
 */
import { OPTION_PARAMETERS } from "../job-options.ts";
import type { ErrorCase, Parameter } from "./operation.ts";

export const ID = "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T";
export const VIDEO_ESTIMATE = {
  usage: { unit: "video_second", quantity: 8, resolution: null, audio: false },
  cost: 0.4,
  currency: "USD",
  price_version: "5d41402abc4b2a76b9719d911017c592",
};
export const IMAGE_ESTIMATE = {
  usage: { unit: "image", quantity: 1, tier: "2K", reference_images: 0 },
  cost: null,
  currency: null,
  price_version: null,
};
export const IMAGE_ID = "imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0";
const NOW = "2026-11-22T00:00:00.000Z";
export const LATER = "2026-11-22T00:00:41.000Z";

export const IMAGE_URL = `http://127.0.0.1:4701/reelay/outputs/${IMAGE_ID}/image-1.png?X-Amz-Signature=...`;
export const task = (id: string, status: string) => ({
  service_task: { task_id: id, status },
  task_id: id,
  status,
});
export const videoUrl =
  "http://127.0.0.1:4701/reelay/outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/video.mp4?X-Amz-Signature=...";

const MEDIA_EXAMPLE = {
  duration_s: 8,
  width: 1280,
  height: 720,
  codec: "h264",
  fps: 24,
  bytes: 1048576,
};

export const JOB_EXAMPLE = {
  id: ID,
  kind: "video",
  status: "succeeded",
  model: "gamma-3.1",
  requested_model: "gamma-latest",
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
  created_by_version: "0.1.0",
  expires_at: "2026-12-22T00:00:41.000Z",
  outputs_expired: false,
  output_target: null,
  metadata: { order: "42" },
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
export const FORBIDDEN: ErrorCase = {
  status: 403,
  codes: ["forbidden"],
  when: "The job belongs to another API key.",
};
export const NOT_FOUND: ErrorCase = {
  status: 404,
  codes: ["job_not_found"],
  when: "No job (of this kind) has that id.",
};
export const UNAVAILABLE: ErrorCase = {
  status: 503,
  codes: ["service_unavailable"],
  when: "DynamoDB, S3 or Step Functions did not answer; retry (Retry-After).",
};
/** A create's refusal of a model past its sunset (REELAY_MODEL_LIFECYCLE). */
export const MODEL_SUNSET: ErrorCase = {
  status: 400,
  codes: ["model_sunset"],
  when: "The model asked for (or the alias naming it) is past its sunset_at; the message names its successor (error.path = model). A key made with on_sunset: successor runs the successor instead.",
};

/** The answer headers of a create on a deprecated model (docs/models.md). */
export const MODEL_HEADERS = {
  Deprecation: {
    description:
      "RFC 9745: `@<unix seconds>` of the model's deprecated_at, when the model asked for is deprecated.",
    schema: { type: "string", example: "@1798761600" },
  },
  Sunset: {
    description:
      "RFC 8594: the HTTP-date of the model's sunset_at, from which creates on it are refused `model_sunset`.",
    schema: { type: "string", example: "Mon, 01 Feb 2027 00:00:00 GMT" },
  },
};

export const BODY_ERRORS: ErrorCase[] = [
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
      "invalid_fit",
      "invalid_metadata",
    ],
    when: "The body is not JSON, breaks a model rule (every issue in error.errors, the first at error.path), or a header (the key, the priority, the queue timeout, the reuse age, the retention, the output prefix, the fit) is malformed; or the output prefix names a bucket outside REELAY_OUTPUT_BUCKETS.",
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
export const WEBHOOK_ERRORS: ErrorCase = {
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
export const CREATE_HEADERS: Parameter[] = [IDEMPOTENCY, ...OPTION_PARAMETERS];
export const DRY_RUN: Parameter = {
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
  metadata: {},
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

export const IMAGE_EXAMPLE = {
  model: "deltaq2-image",
  messages: [{ role: "user", content: "a lighthouse at dawn, watercolour" }],
  modalities: ["image", "text"],
  image_config: { image_size: "2K", aspect_ratio: "16:9", output_format: "url" },
};

export const BUDGET = { amount: 100, unit: "currency", period: "month" };
