/**
 * Every error code reelay can answer, record on a job, report in a request's verdict or show in the
 * CLI, with what it means. A code is stable once listed: scripts branch on it and people search for
 * it, so add codes, never rename them. ReelayError takes its code from here (a typo fails the
 * typecheck) and its status and retryable flag default to the entry's; docs/error-codes.md is
 * generated from this list (`npm run docs`).
 */

/**
 * Where a code shows up: `api`, an answer of reelay's HTTP API; `job`, a job's `error` or the
 * `lastError` of a step; `validate`, an error or warning of validate() (in an `invalid_request`
 * answer, `reelay validate`, a rejected drop or batch line); `drop`, a drop's rejected file; `cli`,
 * the CLI; `setup`, a deployment's settings or wiring, found when a process starts or a step runs.
 */
type ErrorSeen = "api" | "job" | "validate" | "drop" | "cli" | "setup";

export interface ErrorCodeInfo {
  /** The HTTP status reelay's API answers with this code; absent when no answer of the API carries it. */
  readonly status?: number;
  /** True when the same call, or the same request as a new job, may succeed if tried again later. */
  readonly retryable: boolean;
  /** One line a person understands; a warning's starts with "Warning:". */
  readonly meaning: string;
  readonly seen: readonly ErrorSeen[];
}

const API = {
  bad_request: {
    status: 400,
    retryable: false,
    meaning: "The HTTP request was refused before any route read it.",
    seen: ["api"],
  },
  invalid_json: {
    status: 400,
    retryable: false,
    meaning: "The body (or a line of a JSONL body or prompt file) is empty or not valid JSON.",
    seen: ["api", "drop", "cli"],
  },
  invalid_request: {
    status: 400,
    retryable: false,
    meaning: "The request breaks a rule; every issue is in `errors`, the first at `path`.",
    seen: ["api", "cli"],
  },
  invalid_query: {
    status: 400,
    retryable: false,
    meaning:
      "A query parameter (limit, status, model, kind, source, modality, wait, dry_run) is malformed.",
    seen: ["api"],
  },
  invalid_cursor: {
    status: 400,
    retryable: false,
    meaning: "The listing cursor is not one this service returned.",
    seen: ["api"],
  },
  invalid_priority: {
    status: 400,
    retryable: false,
    meaning: "priority (or X-Reelay-Priority) is not high, normal or low.",
    seen: ["api"],
  },
  invalid_reuse: {
    status: 400,
    retryable: false,
    meaning:
      "reuse (or X-Reelay-Reuse) is not a maximum age such as 30m, 12h or 7d (at most 365d), nor false.",
    seen: ["api"],
  },
  invalid_queue_timeout: {
    status: 400,
    retryable: false,
    meaning:
      "queue_timeout_s (or X-Reelay-Queue-Timeout) is not a whole number of seconds from 1 to REELAY_QUEUE_TIMEOUT_S.",
    seen: ["api"],
  },
  invalid_retention: {
    status: 400,
    retryable: false,
    meaning:
      "retention_days (or X-Reelay-Retention-Days) is not a positive number of days up to 3650.",
    seen: ["api"],
  },
  invalid_fit: {
    status: 400,
    retryable: false,
    meaning: "fit (or X-Reelay-Fit) is not nearest.",
    seen: ["api"],
  },
  invalid_metadata: {
    status: 400,
    retryable: false,
    meaning:
      "metadata (or X-Reelay-Metadata, or a metadata.KEY listing filter) is not at most 16 string pairs, keys up to 40 characters, values up to 500.",
    seen: ["api"],
  },
  invalid_output_target: {
    status: 400,
    retryable: false,
    meaning:
      "output.s3_prefix (or X-Reelay-Output-S3-Prefix) is not an S3 location s3://<bucket>/<prefix>/.",
    seen: ["api"],
  },
  invalid_user: {
    status: 400,
    retryable: false,
    meaning:
      "user (or X-Reelay-User) is not an end user's id: 1 to 128 printable characters, no control characters.",
    seen: ["api"],
  },
  output_bucket_not_allowed: {
    status: 400,
    retryable: false,
    meaning:
      "output.s3_prefix names a bucket the deployment may not write: only those in REELAY_OUTPUT_BUCKETS.",
    seen: ["api"],
  },
  invalid_idempotency_key: {
    status: 400,
    retryable: false,
    meaning: "X-Idempotency-Key is empty or longer than allowed.",
    seen: ["api"],
  },
  invalid_content_type: {
    status: 400,
    retryable: false,
    meaning: "POST /v1/images/edits was not sent as multipart/form-data.",
    seen: ["api"],
  },
  invalid_multipart: {
    status: 400,
    retryable: false,
    meaning: "The multipart/form-data body does not parse.",
    seen: ["api"],
  },
  invalid_image: {
    status: 400,
    retryable: false,
    meaning: "An uploaded file is not a PNG, JPEG, WEBP or GIF image.",
    seen: ["api"],
  },
  invalid_upload: {
    status: 400,
    retryable: false,
    meaning:
      "An upload is not what it claims: its bytes are not a PNG, JPEG, WEBP or GIF image or an MP4 video.",
    seen: ["api"],
  },
  upload_too_large: {
    status: 400,
    retryable: false,
    meaning: "An upload is larger than reelay takes for its kind of material.",
    seen: ["api"],
  },
  unsupported_response_format: {
    status: 400,
    retryable: false,
    meaning: "An image edit asked for a response_format other than url.",
    seen: ["api"],
  },
  wrong_endpoint: {
    status: 400,
    retryable: false,
    meaning: "A video request sent to the image route, or an image request to the video route.",
    seen: ["api"],
  },
  batch_too_large: {
    status: 400,
    retryable: false,
    meaning: "A batch holds more requests than allowed.",
    seen: ["api"],
  },
  usage_range_too_large: {
    status: 400,
    retryable: false,
    meaning:
      "A usage report's time range holds more jobs than one report counts; ask for a shorter range.",
    seen: ["api"],
  },
  unauthorized: {
    status: 401,
    retryable: false,
    meaning: "The Bearer API key is missing, malformed or unknown.",
    seen: ["api"],
  },
  key_expired: {
    status: 401,
    retryable: false,
    meaning: "The Bearer API key reached its `expires_at`; ask an admin for a new one.",
    seen: ["api"],
  },
  forbidden: {
    status: 403,
    retryable: false,
    meaning: "The API key may not do this: the job is another key's, or only the admin key may.",
    seen: ["api"],
  },
  scope_missing: {
    status: 403,
    retryable: false,
    meaning:
      "The API key lacks the scope this route needs (read, write, webhooks or admin); `scope` in the error names it.",
    seen: ["api"],
  },
  not_found: {
    status: 404,
    retryable: false,
    meaning: "No route has this method and path.",
    seen: ["api"],
  },
  job_not_found: {
    status: 404,
    retryable: false,
    meaning: "No job (of this kind) has that id.",
    seen: ["api"],
  },
  upload_not_found: {
    status: 404,
    retryable: false,
    meaning: "No upload of the caller's project has that id (or it expired).",
    seen: ["api"],
  },
  key_not_found: {
    status: 404,
    retryable: false,
    meaning: "No API key has that id.",
    seen: ["api"],
  },
  batch_not_found: {
    status: 404,
    retryable: false,
    meaning: "No batch has that id.",
    seen: ["api"],
  },
  content_not_found: {
    status: 404,
    retryable: false,
    meaning:
      "The job has no stored object of that variant (no output yet, an image job's thumbnail, or a video that could not be decoded).",
    seen: ["api"],
  },
  object_not_found: {
    status: 404,
    retryable: false,
    meaning: "No object has that key in reelay's bucket.",
    seen: ["api", "cli"],
  },
  method_not_allowed: {
    status: 405,
    retryable: false,
    meaning: "The route exists but not with this method; Allow lists the ones it takes.",
    seen: ["api"],
  },
  idempotency_conflict: {
    status: 409,
    retryable: false,
    meaning: "X-Idempotency-Key was used before with a different request.",
    seen: ["api"],
  },
  not_retryable: {
    status: 409,
    retryable: false,
    meaning:
      "The job has not ended, or it failed for a reason the same request cannot get past (content_policy, invalid_request); change the request to retry it.",
    seen: ["api", "cli"],
  },
  job_not_cancellable: {
    status: 409,
    retryable: false,
    meaning:
      "The job has already ended; only a queued, running or downloading job can be cancelled.",
    seen: ["api"],
  },
  job_exists: {
    status: 409,
    retryable: false,
    meaning: "A job with this id is already recorded.",
    seen: ["api"],
  },
  upload_pending: {
    status: 409,
    retryable: true,
    meaning:
      "An upload made for a presigned PUT is not completed yet: PUT its bytes, then POST /v1/uploads/{id}/complete.",
    seen: ["api", "validate"],
  },
  job_conflict: {
    status: 409,
    retryable: false,
    meaning: "The job changed status meanwhile (e.g. was cancelled), so this change was not made.",
    seen: ["api", "job"],
  },
  rate_limited: {
    status: 429,
    retryable: true,
    meaning:
      "The API key made more calls than its `rate` and `burst` allow; `Retry-After` says when the next one goes through.",
    seen: ["api"],
  },
  queue_full: {
    status: 429,
    retryable: true,
    meaning:
      "The create or batch would put more of the key's jobs in waiting than its `max_queued`; nothing was made.",
    seen: ["api", "drop"],
  },
  budget_exceeded: {
    status: 402,
    retryable: false,
    meaning:
      "The job's estimate does not fit what is left of its key's budget for the period; nothing was made.",
    seen: ["api", "job"],
  },
  payload_too_large: {
    status: 413,
    retryable: false,
    meaning: "The request body is larger than the route accepts.",
    seen: ["api"],
  },
  internal_error: {
    status: 500,
    retryable: true,
    meaning:
      "reelay hit a bug (the API's answer hides it; a job failed without a recorded reason; validate() itself failed); please report it.",
    seen: ["api", "job", "validate"],
  },
  service_unavailable: {
    status: 503,
    retryable: true,
    meaning:
      "DynamoDB, S3, Step Functions, SSM or Lambda did not answer or refused; retry after Retry-After.",
    seen: ["api"],
  },
  start_failed: {
    status: 503,
    retryable: true,
    meaning: "The job was recorded but its run could not be started; it is marked failed.",
    seen: ["api", "job"],
  },
  unhealthy: {
    status: 503,
    retryable: true,
    meaning: "GET /healthz: a dependency check failed.",
    seen: ["api"],
  },
  upstream_models_unavailable: {
    retryable: true,
    meaning:
      "Warning: GET /v1/models could not read the upstream's listing; the catalog alone is shown.",
    seen: ["api"],
  },
  delivery_not_found: {
    status: 404,
    retryable: false,
    meaning: "No webhook delivery has that id.",
    seen: ["api", "cli"],
  },
  delivery_conflict: {
    status: 409,
    retryable: true,
    meaning: "The webhook delivery changed meanwhile (an attempt was recorded); ask again.",
    seen: ["api"],
  },
  event_not_found: {
    status: 404,
    retryable: false,
    meaning:
      "No event has that id: neither a delivery of it nor a terminal job (`<jobId>.<status>`) it belongs to.",
    seen: ["api", "cli"],
  },
  webhook_url_scheme: {
    status: 400,
    retryable: false,
    meaning:
      "A webhook URL is not https (on AWS; the local stack also takes http) or carries credentials.",
    seen: ["api", "cli"],
  },
  webhook_url_loopback: {
    status: 400,
    retryable: false,
    meaning:
      "A webhook URL points at this machine (localhost, 127.0.0.0/8, ::1): refused on AWS, allowed on the local stack.",
    seen: ["api", "cli"],
  },
  webhook_url_private: {
    status: 400,
    retryable: false,
    meaning:
      "A webhook URL points at a private, link-local or otherwise non-public address or a local name (*.local, *.internal).",
    seen: ["api", "cli"],
  },
  webhook_url_metadata: {
    status: 400,
    retryable: false,
    meaning:
      "A webhook URL points at the cloud metadata service (169.254.169.254, fd00:ec2::254, metadata.google.internal).",
    seen: ["api", "cli"],
  },
  webhook_needs_stored_key: {
    status: 400,
    retryable: false,
    meaning:
      "A job's own webhook (X-Reelay-Webhook, webhook_url) was asked for with the deployment's own key; it is signed with the webhook secret of a stored key (reelay keys create).",
    seen: ["api"],
  },
  webhook_subscriber_not_found: {
    status: 404,
    retryable: false,
    meaning: "No webhook subscriber of this key has that id.",
    seen: ["api", "cli"],
  },
  no_webhook_subscribers: {
    status: 409,
    retryable: false,
    meaning:
      "Nothing to replay to: no subscriber is configured (REELAY_WEBHOOKS), or none has the id asked for.",
    seen: ["api", "cli"],
  },
} as const satisfies Record<string, ErrorCodeInfo>;

/** What a job records when it fails (`error`) or a step fails and is retried (`lastError`). */
const JOB = {
  failed: {
    retryable: false,
    meaning: "The job failed and recorded no reason of its own (the code is its status).",
    seen: ["api", "job"],
  },
  cancelled: {
    retryable: false,
    meaning: "The job was cancelled.",
    seen: ["api", "job"],
  },
  timeout: {
    retryable: true,
    meaning: "The upstream gave no result before the job's deadline (REELAY_JOB_TIMEOUT_S).",
    seen: ["job"],
  },
  no_upstream_account: {
    retryable: false,
    meaning:
      "No configured upstream account can run the job: none serves its model, every one that does was tried, or the account its create may have reached is gone.",
    seen: ["job"],
  },
  upstream_account_unknown: {
    retryable: false,
    meaning:
      "The job's task is on an upstream account that is no longer configured; it is never looked up on another account.",
    seen: ["job"],
  },
  queue_timeout: {
    retryable: true,
    meaning: "No upstream slot came free within REELAY_QUEUE_TIMEOUT_S.",
    seen: ["job"],
  },
  step_timeout: {
    retryable: true,
    meaning: "A pipeline step ran past its time limit.",
    seen: ["job"],
  },
  step_failed: {
    retryable: true,
    meaning: "A pipeline step failed with an error of no other code (an AWS or network fault).",
    seen: ["job"],
  },
  reuse_source_ended: {
    retryable: true,
    meaning:
      "The job whose output this one was to reuse was cancelled or is gone; nothing was charged, submit again.",
    seen: ["job"],
  },
  job_ended: {
    retryable: false,
    meaning: "The job ended elsewhere (e.g. a late step failed it) while its run was still going.",
    seen: ["job"],
  },
  not_submitted: {
    retryable: false,
    meaning: "A poll found no upstream task on the job: its submit did not finish.",
    seen: ["job"],
  },
  invalid_flow_state: {
    retryable: false,
    meaning: "A pipeline step was started without the job id in its input.",
    seen: ["job", "setup"],
  },
  upstream_task_failed: {
    retryable: false,
    meaning:
      "The upstream reports the task failed (an upstream's own code may stand in its place).",
    seen: ["job"],
  },
  upstream_rate_limited: {
    retryable: true,
    meaning: "The upstream answered 429 after every retry.",
    seen: ["job"],
  },
  upstream_unavailable: {
    retryable: true,
    meaning: "The upstream answered 5xx after every retry.",
    seen: ["job"],
  },
  upstream_timeout: {
    retryable: true,
    meaning: "The upstream did not answer in time (or answered 408).",
    seen: ["job"],
  },
  upstream_network: {
    retryable: true,
    meaning: "The upstream could not be reached (refused, reset, DNS).",
    seen: ["job"],
  },
  upstream_rejected: {
    retryable: false,
    meaning: "The upstream refused the request (a 4xx, or a business error in a 2xx).",
    seen: ["job"],
  },
  upstream_auth: {
    retryable: false,
    meaning: "The upstream refused the API key (401 or 403).",
    seen: ["job"],
  },
  upstream_not_found: {
    retryable: false,
    meaning: "The upstream does not know the task id (404 on a task query).",
    seen: ["job"],
  },
  upstream_bad_response: {
    retryable: false,
    meaning: "The upstream answered with a body reelay cannot read.",
    seen: ["job"],
  },
  output_not_ready: {
    retryable: true,
    meaning: "The upstream task shows no output yet; the step tries again.",
    seen: ["job"],
  },
  output_missing: {
    retryable: false,
    meaning: "The upstream task succeeded without an output URL, or the job has no stored output.",
    seen: ["job"],
  },
  output_unavailable: {
    retryable: false,
    meaning: "The output's URL answered a 4xx status.",
    seen: ["job"],
  },
  download_unavailable: {
    retryable: true,
    meaning: "The output's URL answered 408, 429 or 5xx; the download tries again.",
    seen: ["job"],
  },
  download_failed: {
    retryable: true,
    meaning: "Fetching an output failed (no answer, or the CLI's download of a video).",
    seen: ["job", "cli"],
  },
  output_invalid: {
    retryable: true,
    meaning:
      "The stored output does not parse as its type (an MP4 with no moov or cut short, an image with no readable header); the task was billed, a new job may succeed.",
    seen: ["job"],
  },
  output_mismatch: {
    retryable: true,
    meaning:
      "Warning: the stored output's duration, resolution or aspect ratio differs from the request; with REELAY_VERIFY=strict the job fails with it.",
    seen: ["job"],
  },
  output_delivery_failed: {
    retryable: true,
    meaning:
      "Warning: the output could not be copied into the job's output.s3_prefix (a permission or the bucket's own rules); it is kept in reelay's bucket.",
    seen: ["job"],
  },
  thumbnail_failed: {
    retryable: false,
    meaning:
      "Warning: ffmpeg could not decode the stored video into a thumbnail and a spritesheet; the job keeps its status and its video.",
    seen: ["job"],
  },
  download_truncated: {
    retryable: true,
    meaning: "An output's body ended before the length it announced.",
    seen: ["job"],
  },
  output_too_large: {
    retryable: false,
    meaning: "An output is larger than the byte limit reelay fetches.",
    seen: ["job"],
  },
  output_content_type: {
    retryable: false,
    meaning: "An output answered with a content type reelay does not store.",
    seen: ["job"],
  },
  too_many_redirects: {
    retryable: false,
    meaning: "An output URL redirected more times than allowed.",
    seen: ["job"],
  },
  url_forbidden: {
    retryable: false,
    meaning:
      "reelay does not fetch this URL (a private or loopback address, or a scheme not allowed).",
    seen: ["job"],
  },
  object_too_large: {
    retryable: false,
    meaning: "An object is larger than S3's multipart upload can hold at the part size used.",
    seen: ["job"],
  },
  event_emit_failed: {
    retryable: true,
    meaning: "EventBridge refused a job's event; the step tries again.",
    seen: ["job"],
  },
} as const satisfies Record<string, ErrorCodeInfo>;

/** Codes of validate(): one per rule of the service contract, shown with the field's path. */
const VALIDATE = {
  invalid_body: {
    retryable: false,
    meaning: "The request body is not a JSON object.",
    seen: ["validate"],
  },
  invalid_type: {
    retryable: false,
    meaning: "A field has the wrong JSON type (e.g. a string where a number is expected).",
    seen: ["validate", "drop"],
  },
  missing_field: {
    retryable: false,
    meaning: "A required field is absent.",
    seen: ["validate"],
  },
  invalid_value: {
    retryable: false,
    meaning: "A field's value is not one of the values the contract allows.",
    seen: ["validate"],
  },
  out_of_range: {
    retryable: false,
    meaning: "A number is below or above what the field accepts.",
    seen: ["validate"],
  },
  too_few_items: {
    retryable: false,
    meaning: "An array has fewer items than the contract allows.",
    seen: ["validate"],
  },
  too_many_items: {
    retryable: false,
    meaning: "An array has more items than the contract allows.",
    seen: ["validate"],
  },
  unknown_field: {
    status: 400,
    retryable: false,
    meaning:
      "A field the request does not define. On reelay's own routes (keys, budgets, batches, webhooks) the call is refused and nothing is made; in a contract request it is a warning and the field is left out.",
    seen: ["api", "validate"],
  },
  unknown_model: {
    retryable: false,
    meaning: "The model code is not in the catalog; the message lists close matches.",
    seen: ["validate"],
  },
  model_sunset: {
    status: 400,
    retryable: false,
    meaning:
      'The model (or the alias naming it) is past its `sunset_at` and takes no new jobs; the message names its successor. A key made with `on_sunset: "successor"` runs the successor instead.',
    seen: ["api", "validate"],
  },
  model_deprecated: {
    retryable: false,
    meaning:
      "Warning: the model is deprecated (its `deprecated_at` has passed, or a `sunset_at` is set); the create answers with `Deprecation` and `Sunset` headers.",
    seen: ["validate"],
  },
  model_substituted: {
    retryable: false,
    meaning:
      'Warning: the model asked for is past its `sunset_at` and the key opted in (`on_sunset: "successor"`), so its successor runs; `requested_model` keeps the name asked for.',
    seen: ["validate"],
  },
  model_kind_mismatch: {
    retryable: false,
    meaning: "A video model used with the image form, or an image model with the video form.",
    seen: ["validate"],
  },
  mode_not_supported: {
    retryable: false,
    meaning: "The request material selects a mode (§1.7) the model does not offer.",
    seen: ["validate"],
  },
  mode_unusual: {
    retryable: false,
    meaning: "Warning: the contract says the model generally does not use this mode.",
    seen: ["validate"],
  },
  prompt_required: {
    retryable: false,
    meaning: "prompt is required (no material given, or the model requires one).",
    seen: ["validate"],
  },
  prompt_recommended: {
    retryable: false,
    meaning: "Warning: a prompt is recommended even when material is given (§2.1).",
    seen: ["validate"],
  },
  invalid_url: {
    retryable: false,
    meaning: "A material URL is not a public https:// URL or `asset://vidast_<id>` where allowed.",
    seen: ["validate"],
  },
  asset_url_not_allowed: {
    retryable: false,
    meaning: "asset:// is given in a field §2.4 does not list.",
    seen: ["validate"],
  },
  unknown_upload: {
    retryable: false,
    meaning:
      "An upload://upl_<id> reference names no upload of the caller's project (or one that expired).",
    seen: ["validate"],
  },
  upload_kind_mismatch: {
    retryable: false,
    meaning: "An upload is given where the other kind of material goes (a video for an image).",
    seen: ["validate"],
  },
  duration_not_allowed: {
    retryable: false,
    meaning: "duration_sec is outside what the model allows.",
    seen: ["validate"],
  },
  duration_unusual: {
    retryable: false,
    meaning: "Warning: duration_sec is outside what the model commonly takes.",
    seen: ["validate"],
  },
  duration_defaulted: {
    retryable: false,
    meaning:
      "Warning: duration_sec was absent and the global default 5 s does not fit; a model value was used.",
    seen: ["validate"],
  },
  resolution_not_allowed: {
    retryable: false,
    meaning: "resolution is not one the model offers.",
    seen: ["validate"],
  },
  resolution_unusual: {
    retryable: false,
    meaning: "Warning: resolution is not one the model commonly or recommendedly uses.",
    seen: ["validate"],
  },
  aspect_ratio_not_allowed: {
    retryable: false,
    meaning: "aspect_ratio is not one the model offers.",
    seen: ["validate"],
  },
  aspect_ratio_unusual: {
    retryable: false,
    meaning: "Warning: aspect_ratio is not a common value for the model (or should not be forced).",
    seen: ["validate"],
  },
  image_size_not_allowed: {
    retryable: false,
    meaning: "image_config.image_size is not one the image model offers.",
    seen: ["validate"],
  },
  image_size_unusual: {
    retryable: false,
    meaning: "Warning: image_config.image_size is not one the image model commonly uses.",
    seen: ["validate"],
  },
  audio_unusual: {
    retryable: false,
    meaning: "Warning: generate_audio is true for a model that usually makes silent video.",
    seen: ["validate"],
  },
  duplicate_frame: {
    retryable: false,
    meaning: "More than one first_frame or more than one last_frame.",
    seen: ["validate"],
  },
  last_frame_requires_first: {
    retryable: false,
    meaning: "last_frame given without first_frame on a model that requires both.",
    seen: ["validate"],
  },
  last_frame_unsupported: {
    retryable: false,
    meaning: "last_frame given to a model that takes a first frame only.",
    seen: ["validate"],
  },
  frames_with_references: {
    retryable: false,
    meaning: "frame_images and input_references together where the contract forbids it.",
    seen: ["validate"],
  },
  frames_with_references_unusual: {
    retryable: false,
    meaning:
      "Warning: frame_images and input_references together, which the contract does not describe or discourages.",
    seen: ["validate"],
  },
  field_not_for_type: {
    retryable: false,
    meaning: "A reference item carries a URL field that does not match its type.",
    seen: ["validate"],
  },
  reference_kind_not_allowed: {
    retryable: false,
    meaning: "A reference of a kind (image, video, audio) the model does not take.",
    seen: ["validate"],
  },
  reference_count_not_allowed: {
    retryable: false,
    meaning: "Too many or too few references of a kind for the model.",
    seen: ["validate"],
  },
  reference_count_unusual: {
    retryable: false,
    meaning: "Warning: the number of references of a kind is outside what is recommended.",
    seen: ["validate"],
  },
  audio_only_reference: {
    retryable: false,
    meaning: "Every reference is audio, which the model does not allow.",
    seen: ["validate"],
  },
  reference_type_not_allowed: {
    retryable: false,
    meaning: "reference_type value not used by this model's family or item type (§2.3).",
    seen: ["validate"],
  },
  reference_type_is_file_purpose: {
    retryable: false,
    meaning: "A file-purpose value (Reference, FirstFrame, LastFrame) was given as reference_type.",
    seen: ["validate"],
  },
  object_id_not_used: {
    retryable: false,
    meaning: "object_id given to a model whose contract says it is not used.",
    seen: ["validate"],
  },
  object_id_unusual: {
    retryable: false,
    meaning: "Warning: object_id is usually omitted for this model or item type.",
    seen: ["validate"],
  },
  config_key_not_allowed: {
    retryable: false,
    meaning: "A model_specific_config key outside the model's allow-list.",
    seen: ["validate"],
  },
  config_key_unsupported: {
    retryable: false,
    meaning: "model_specific_config.logo_add, which the contract marks unsupported.",
    seen: ["validate"],
  },
  config_value_invalid: {
    retryable: false,
    meaning: "A model_specific_config value of the wrong type or outside its listed values.",
    seen: ["validate"],
  },
  config_task_mismatch: {
    retryable: false,
    meaning:
      "Warning: model_specific_config.task names a different mode than the material selects.",
    seen: ["validate"],
  },
  modalities_missing_image: {
    retryable: false,
    meaning: "modalities does not contain `image`.",
    seen: ["validate"],
  },
  stream_not_supported: {
    retryable: false,
    meaning: "stream is true; image generation must not stream.",
    seen: ["validate"],
  },
  custom_size_unsupported: {
    retryable: false,
    meaning: "image_config.custom_size is unsupported; use image_size.",
    seen: ["validate"],
  },
  request_too_large: {
    retryable: false,
    meaning:
      "The request (as JSON) is larger than a job can hold (256 KiB); usually a very long prompt or too many messages.",
    seen: ["validate"],
  },
} as const satisfies Record<string, ErrorCodeInfo>;

/** A prompt file dropped in the inbox that could not become jobs (its rejected `.error.json`). */
const DROP = {
  unsupported_drop_file: {
    retryable: false,
    meaning:
      "A file in inbox/ that is neither a prompt file (.json, .jsonl, .txt) nor material one names.",
    seen: ["drop"],
  },
  empty_drop_file: {
    retryable: false,
    meaning: "A .txt or .jsonl prompt file with nothing in it.",
    seen: ["drop"],
  },
  too_many_requests: {
    retryable: false,
    meaning: "A prompt file holds more requests than one drop may.",
    seen: ["drop"],
  },
  nesting_too_deep: {
    retryable: false,
    meaning: "A request is nested deeper than any real request is.",
    seen: ["drop"],
  },
  drop_file_too_large: {
    retryable: false,
    meaning: "A prompt file is larger than a drop may be.",
    seen: ["drop"],
  },
  material_not_found: {
    retryable: false,
    meaning: "A prompt file names material that is not beside it in inbox/.",
    seen: ["drop"],
  },
} as const satisfies Record<string, ErrorCodeInfo>;

const CLI = {
  api_unreachable: {
    retryable: true,
    meaning: "reelay's API did not answer at REELAY_API_URL (start it with `npm start`).",
    seen: ["cli"],
  },
  bad_response: {
    retryable: false,
    meaning: "reelay's API answered with a body that is not JSON.",
    seen: ["cli"],
  },
  no_api_key: {
    retryable: false,
    meaning:
      "No API key: REELAY_API_KEY is unset and the local stack's key file is missing or empty.",
    seen: ["cli"],
  },
  no_local_s3: {
    retryable: false,
    meaning: "The API names no local S3 endpoint to drop files into (on AWS, use the AWS CLI).",
    seen: ["cli"],
  },
  no_output_link: {
    retryable: false,
    meaning: "The job succeeded but reelay offers no link to its output.",
    seen: ["cli"],
  },
  checksum_mismatch: {
    retryable: false,
    meaning:
      "A downloaded output's sha256 differs from the one the job recorded; nothing was saved.",
    seen: ["cli"],
  },
  rejected: {
    retryable: false,
    meaning: "A drop's error file lists a problem without a code; its message says what.",
    seen: ["cli"],
  },
} as const satisfies Record<string, ErrorCodeInfo>;

/** A deployment's settings or wiring is wrong: found at start, or when a step or function runs. */
const SETUP = {
  schema_version_unsupported: {
    retryable: false,
    meaning:
      "A stored item or object carries a schema version this release does not read (written by a newer release, or damaged); nothing was read from it.",
    seen: ["job", "setup"],
  },
  invalid_config: {
    retryable: false,
    meaning: "A setting (an environment variable, or a file it names) is missing or malformed.",
    seen: ["setup"],
  },
  catalog_invalid: {
    retryable: false,
    meaning: "A model catalog file (`reelay validate --catalog FILE`) is not valid.",
    seen: ["setup"],
  },
  invalid_base_url: {
    retryable: false,
    meaning: "The upstream base URL is not one reelay calls (https, a public host, ending in /v1).",
    seen: ["setup"],
  },
  data_dir_in_use: {
    retryable: false,
    meaning:
      "`reelay up`: another running stack (named with its URL and pid) holds the data dir's lock.",
    seen: ["setup"],
  },
  data_dir_unusable: {
    retryable: false,
    meaning: "`reelay up`: the data dir cannot be made, read or written by this user.",
    seen: ["setup"],
  },
  invalid_webhook_secret: {
    retryable: false,
    meaning: "A webhook secret is not `whsec_` and at least 16 base64-encoded bytes.",
    seen: ["setup"],
  },
  secret_not_bound: {
    retryable: false,
    meaning: "A function reads a secret the stack did not bind to it.",
    seen: ["setup"],
  },
  secret_not_set: {
    retryable: false,
    meaning: "A secret has no value in this stage (`npx sst secrets set NAME ...`).",
    seen: ["setup"],
  },
  upstream_not_bound: {
    retryable: false,
    meaning: "A function without the upstream API key tried to call the upstream.",
    seen: ["setup"],
  },
  missing_idempotency_key: {
    retryable: false,
    meaning:
      "An upstream create was attempted without an idempotency key (a bug: retries could duplicate it).",
    seen: ["setup"],
  },
  invalid_transition: {
    retryable: false,
    meaning: "A job change was asked to leave a terminal status (a bug).",
    seen: ["setup"],
  },
  invalid_job_patch: {
    retryable: false,
    meaning: "A job update tried to write a field updates may not touch (a bug).",
    seen: ["setup"],
  },
  job_not_terminal: {
    retryable: false,
    meaning: "A terminal event was asked for a job that has not ended (a bug).",
    seen: ["setup"],
  },
  invalid_event: {
    retryable: false,
    meaning: "The webhook function was given an event that is not a reelay terminal event.",
    seen: ["setup"],
  },
} as const satisfies Record<string, ErrorCodeInfo>;

const GROUPS = [API, JOB, VALIDATE, DROP, CLI, SETUP];

/** The registry: each code once, in the order docs/error-codes.md lists them. */
export const ERROR_CODES = { ...API, ...JOB, ...VALIDATE, ...DROP, ...CLI, ...SETUP } as const;

// A code listed in two groups would keep only its last entry, silently.
if (
  GROUPS.reduce((n, group) => n + Object.keys(group).length, 0) !== Object.keys(ERROR_CODES).length
)
  throw new Error("error-codes.ts lists a code twice.");

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes seen in one place, e.g. `CodeSeenIn<"validate">` for validate()'s. */
export type CodeSeenIn<Seen extends ErrorSeen> = {
  [Code in ErrorCode]: Seen extends (typeof ERROR_CODES)[Code]["seen"][number] ? Code : never;
}[ErrorCode];

/**
 * A code reelay passes on rather than names: an upstream's own failure code recorded on a job, what
 * reelay's API answered as the CLI reads it, or `http_<status>` for an HTTP refusal with no code of
 * its own. Made only by `relayedCode`.
 */
export type RelayedCode = string & { readonly __relayed: true };

export function relayedCode(code: string): RelayedCode {
  return code as RelayedCode;
}

export function errorCodeInfo(code: string): ErrorCodeInfo | undefined {
  return Object.hasOwn(ERROR_CODES, code) ? ERROR_CODES[code as ErrorCode] : undefined;
}
