/**
 * reelay's HTTP API as types: generated from its OpenAPI document (/openapi.json) by
 * openapi-typescript. Do not edit; `npm run schema -w @reelay/client` rewrites it.
 */
export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Dashboard (local stack)
         * @description A gallery of jobs (thumbnails with status badges, the spritesheet scrubbing on hover, the video on click) with live status, a job's timeline, previews and a submit form. The page's API key is entered in the page.
         */
        get: operations["get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Human-readable API reference
         * @description A self-contained HTML page rendered from /openapi.json.
         */
        get: operations["getDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description 200 when the API and its dependencies answer; 503 `unhealthy` otherwise.
         */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * MCP server (streamable HTTP, stateless; local stack)
         * @description reelay's MCP tools for agents (docs/mcp.md): JSON-RPC 2.0 messages of the Model Context Protocol; send `Accept: application/json, text/event-stream`. Each tool calls the API with the caller's key, so it needs its route's scope.
         */
        post: operations["postMcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics (admin key only; local stack)
         * @description The `reelay_` metrics in Prometheus text: jobs created and ended by model and error code, detection delay and end-to-end time, upstream requests, 429s and errors, the admission queue and slots (read at the scrape), each upstream account's circuit, bytes copied, webhook deliveries and budget refusals. Upstream counters and slots also come with an `account` label, one series per upstream account; the series without `account` is the whole deployment's. Prometheus sends the admin key as its bearer token. On AWS the same metrics go to CloudWatch and this route does not exist.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 document
         * @description Generated from the zod schemas that validate requests.
         */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admission": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Upstream slots and the queue (admin key only)
         * @description How many upstream tasks reelay keeps in flight (configured or learned from 429s), which jobs hold a slot, how many wait, and whether a create rate or an upstream's Retry-After holds admissions back.
         */
        get: operations["getV1Admission"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit log (admin scope)
         * @description Every admin and webhook action, newest first: keys created, revoked, their budgets and webhook secrets changed; subscribers added, removed, rotated; replays; delivery retries; job and batch retries by a key other than their maker's. Each with its actor, project, time, action, target and change. A stored key with the admin scope sees its project's records; the deployment's own key sees all. Records are never changed or deleted: the log has no other method.
         */
        get: operations["getV1Audit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List batches
         * @description The newest 50 batches of the caller (the admin key: every batch).
         */
        get: operations["getV1Batches"];
        put?: never;
        /**
         * Make a batch
         * @description A JSON body `{"requests": [...], "priority"?, "queue_timeout_s"?, "webhook_url"?, "webhook_events"?, "retention_days"?, "output"?: {"s3_prefix"}, "metadata"?}` (each request may carry its own `metadata`, laid over the batch's, and its own `user`, which wins over the batch's; the webhook gets every job's event and the Batch Completed; with JSONL, the X-Reelay-Webhook headers) or JSONL (one request per line), up to 10,000 requests. Each line is checked like a single create; a bad line is kept as `rejected` and the rest become jobs, queued for upstream slots. `?dry_run=true` answers what would be made and makes nothing. With `fit` (or X-Reelay-Fit) `nearest`, each line is fitted to its model first, and a dry run's `fitted` lists each fitted line's `adjustments` and the request that would be sent. X-Idempotency-Key makes a repeat find the first batch.
         */
        post: operations["postV1Batches"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One batch
         * @description Its counts (read from its jobs' records, so they always sum to total) and an ETA.
         */
        get: operations["getV1BatchesId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a batch
         * @description Cancels every job of the batch not yet ended (each gets its Generation Cancelled event); the batch then completes with them counted as cancelled.
         */
        post: operations["postV1BatchesIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow one batch (Server-Sent Events)
         * @description `event: progress` with the batch's view (`total`, `counts`, which always sum to the total) whenever its counts change, and `event: completed` with the final view, then the stream ends. `Last-Event-ID` resumes.
         */
        get: operations["getV1BatchesIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A batch's results (JSONL)
         * @description One line per request line: `line`, `job_id`, `status` (`rejected` for a bad line), `outputs` (key, bytes, sha256, a fresh presigned `url`), `error`, `metadata` (the job's: the line's own over the batch's). Readable at any time; once the batch completes the same lines are in outputs/batches/<id>/results.jsonl.
         */
        get: operations["getV1BatchesIdResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a completed batch's retryable failures
         * @description A new batch (`retry_of` = this one) with one line per job that failed with a retryable class, on its original line number; each new job is linked with the one it retries (`retryOf`, `retriedBy`). content_policy and invalid_request failures are left as they are (budget_exceeded ones are retried: raise the budget first), and so is a job already retried on its own. The same retry again answers the same batch.
         */
        post: operations["postV1BatchesIdRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/chat/completions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an image task (chat form)
         * @description The unified image contract (§2.6): `modalities` must contain `image`, `stream` false. Editing: several `image_config.reference_images` plus a prompt. `?dry_run=true` runs the same checks and answers reelay's own dry run instead, making nothing.
         */
        post: operations["postV1ChatCompletions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream terminal events (local stack)
         * @description Server-Sent Events: `event: <detail-type>` (Generation Succeeded / Failed / Cancelled), `data: <event JSON>`, `id: <event id>`; a comment heartbeat keeps the stream open.
         */
        get: operations["getV1Events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an event again (admin key only)
         * @description New deliveries of the event, with its original id as webhook-id and a fresh signature, on the full schedule: to every subscriber, or to the one named by `subscriber` in the body. An event never delivered is rebuilt from its terminal job (`<jobId>.<status>`).
         */
        post: operations["postV1EventsIdReplay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/image/tasks/{taskId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Query an image task
         * @description Status, and once succeeded the durable URLs, sizes and checksums of every image (stored under outputs/<jobId>/).
         */
        get: operations["getV1ImageTasksTaskid"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/images/edits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit images (OpenAI-compatible)
         * @description multipart/form-data as OpenAI's images.edit: up to 7 `image`/`image[]` files, `prompt`, `model`, `n`, `size`, `response_format=url`. Files are stored in S3 and passed upstream as presigned reference_images. Answers with the task; with the opt-in wait (`?wait=<s>` or `Prefer: wait=<s>`, at most 60), in OpenAI's shape `{created, data:[{url}]}` once done, 202 with the task if still running. `?dry_run=true` checks the form and answers reelay's own dry run (the images named by their bare names `ref-<n>-<sha256 prefix>.<ext>`, nothing stored), the wait ignored.
         */
        post: operations["postV1ImagesEdits"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List jobs
         * @description reelay's job records, newest first, with cursor pagination and filters. `metadata.KEY=VALUE` (one parameter a pair, all must match, with any other filter) lists the jobs whose metadata holds those pairs; a key over 40 characters, a value over 500, more than 16 pairs or a bare `metadata` is 400 invalid_metadata naming the parameter.
         */
        get: operations["getV1Jobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a job
         * @description The full record: request, warnings, outputs with presigned URLs, error, timings and the state history with timestamps.
         */
        get: operations["getV1JobsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a job
         * @description Marks the job `cancelled` (one Generation Cancelled event), then stops its execution; a late step cannot bring it back.
         */
        post: operations["postV1JobsIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a job's video, thumbnail or spritesheet
         * @description A 302 to a presigned GET of one of the succeeded job's stored objects, as OpenAI's videos API serves its variants: `video` (the default; an image job's first image), `thumbnail` (a JPEG poster frame, at most 640 px wide) or `spritesheet` (one JPEG of 10 frames in a 5x2 grid, evenly spaced over the video; the job's `previews.spritesheet` gives the grid). A video that could not be decoded has no thumbnail or spritesheet and carries a `thumbnail_failed` warning.
         */
        get: operations["getV1JobsIdContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow one job (Server-Sent Events)
         * @description `event: status` for each status the job passes (the last one carries the whole job view, with links or error), `event: progress` between them (polls, queue position); ends after the terminal status. Send the last `id` as `Last-Event-ID` to resume: nothing twice, no status skipped. On AWS each response ends after its first frames (API Gateway buffers), with `retry: 1000`, so an EventSource reconnects.
         */
        get: operations["getV1JobsIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a failed or cancelled job
         * @description Makes a new job from the job's request with the body's fields (if any) laid over it, linked both ways (`retryOf`, `retriedBy`). The same retry again answers the same new job. A failure of class content_policy or invalid_request is refused unless the body changes the request.
         */
        post: operations["postV1JobsIdRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys (admin key only)
         * @description Every stored key's record (id, name, hint, createdAt, revokedAt, budget with this period's `used`), never the key.
         */
        get: operations["getV1Keys"];
        put?: never;
        /**
         * Create an API key (admin key only)
         * @description Stores the key hashed; the key itself is in this answer only. Each key sees only its own jobs.
         */
        post: operations["postV1Keys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key (admin key only)
         * @description The key stops working at once; revoking twice keeps the first revokedAt.
         */
        delete: operations["deleteV1KeysId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}/budget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set an API key's budget (admin key only)
         * @description Replaces the key's budget; what its current period has used stays, so a raised budget lets the key go on at once. Jobs of its batches still queued reserve under the new budget when admitted.
         */
        put: operations["putV1KeysIdBudget"];
        post?: never;
        /**
         * Remove an API key's budget (admin key only)
         * @description The key spends without a limit of its own (the deployment's budget still applies).
         */
        delete: operations["deleteV1KeysIdBudget"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set an API key's limits (admin key only)
         * @description Replaces the key's own limits (`rate`, `burst`, `max_queued`, `max_in_flight`; each a number, or null for none whatever REELAY_KEY_LIMITS says; a field left out takes REELAY_KEY_LIMITS's). They hold from the key's next call; jobs already waiting or running stay. Recorded in the audit log.
         */
        put: operations["putV1KeysIdLimits"];
        post?: never;
        /**
         * Remove an API key's own limits (admin key only)
         * @description REELAY_KEY_LIMITS's defaults hold for the key again (none when it is unset).
         */
        delete: operations["deleteV1KeysIdLimits"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an API key's webhook secret (admin key only)
         * @description A new `whsec_` secret for the key's jobs' own webhooks (X-Reelay-Webhook, webhook_url), answered this once. The old one keeps signing beside it for 24 h (every delivery then carries both signatures), so receivers can switch at their own pace.
         */
        post: operations["postV1KeysIdWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List models
         * @description reelay's catalog (modes, resolutions, durations, ratios, audio default, allowed config keys, aliases, deprecated_at, sunset_at, successor) merged with the upstream's listing when it answers within a few seconds; otherwise the catalog alone with a warning. `aliases` maps each alias to its model.
         */
        get: operations["getV1Models"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload material
         * @description multipart/form-data with the material as the file field `file`, or, for a file larger than a request body may be (API Gateway takes 10 MB), JSON `{content_type, size, sha256?, name?}`: the answer is then a `pending` upload with a presigned `put` (15 minutes) to PUT the bytes to, and POST /v1/uploads/{id}/complete checks them and makes the upload usable. Either way the material is a PNG, JPEG, WEBP or GIF image (at most 20971520 bytes) or an MP4 video (at most 104857600 bytes), recognised by its bytes, not its name. Answers an `upload://upl_<ulid>` reference usable by the key's project wherever a material URL goes; the upstream is given a link signed for as long as the job may need it, and the job keeps the reference.
         */
        post: operations["postV1Uploads"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an upload
         * @description An upload of the key's project until it expires: `ready`, or `pending` while a presigned PUT's upload is not completed.
         */
        get: operations["getV1UploadsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete an upload
         * @description After the bytes were PUT to the presigned URL a JSON POST /v1/uploads answered: reads them once as they stream (their sha256 and what they are, by image-size and mp4box, as a multipart upload's), and when they are what was declared makes the upload usable. Bytes that are not are refused, and the staged bytes deleted: nothing of the upload is left. Completing an upload already completed answers it again.
         */
        post: operations["postV1UploadsIdComplete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/upstreams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The upstream accounts (admin key only)
         * @description One entry per upstream account (REELAY_UPSTREAMS; one named `default` otherwise): the models it serves, its weight, its circuit and cool-down, its limit and where that comes from, its create rate, its tasks in flight and its share of all in flight, its 429s and failed creates over the last 15 minutes and its last error. Keys and URLs are never shown.
         */
        get: operations["getV1Upstreams"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage, cost and failures over a time range
         * @description The jobs created in [from, to) grouped by model, key, day, batch, upstream account or end user: counts by status, units and cost of what was charged (`unknown` counts at its estimate, as budgets do), failures by class and how many of them were charged; then each budget in force with what its period has used. A stored key sees its own jobs and budget; the admin key sees every job, the deployment's budget and every key's. At most 100,000 jobs per report.
         */
        get: operations["getV1Usage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/video/generations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a video task
         * @description Validates the request against the model's rules (hard rules refuse, soft rules warn), records a job and starts it. Answers at once with the task; poll GET /v1/video/tasks/{taskId}. `?dry_run=true` runs the same checks and answers reelay's own dry run instead (the request as it would be sent, its adjustments, warnings and estimate), making nothing.
         */
        post: operations["postV1VideoGenerations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/video/tasks/{taskId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Query a video task
         * @description The contract's task record; `video_url` (a presigned GET of reelay's S3 copy) appears only once the job succeeded.
         */
        get: operations["getV1VideoTasksTaskid"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List this key's webhook subscribers
         * @description The subscribers this key made, without their secrets.
         */
        get: operations["getV1Webhooks"];
        put?: never;
        /**
         * Add a webhook subscriber
         * @description The URL gets the events of this key's jobs (the deployment's own key: every event), signed per Standard Webhooks with the secret answered here once. The URL is checked at once: https only on AWS, and never a loopback (on AWS), private or metadata address, by name or by what it resolves to.
         */
        post: operations["postV1Webhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a webhook subscriber
         * @description It gets no new deliveries; its pending ones end dead at their next attempt.
         */
        delete: operations["deleteV1WebhooksId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook subscriber's secret
         * @description A new secret, answered once. For 24 hours every delivery carries a signature with the old secret beside the new one, so a receiver can switch at its own pace.
         */
        post: operations["postV1WebhooksIdRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook delivery log (admin key only)
         * @description Newest first: every delivery of an event to a subscriber with every attempt (time, HTTP status or error, latency, the answer's first 1 KB). Pending ones wait for their next attempt on the REELAY_WEBHOOK_SCHEDULE; dead ones spent it.
         */
        get: operations["getV1WebhooksDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attempt a delivery again now (admin key only)
         * @description The delivery is due at once; a dead one gets exactly one more attempt, a pending one keeps the rest of its schedule. Same webhook-id, fresh signature.
         */
        post: operations["postV1WebhooksDeliveriesIdRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description ?dry_run=true: what the create would make; nothing was made. */
        CreateDryRun: {
            /** @description fit (X-Reelay-Fit: nearest): each value the model refused, moved to the nearest one it allows; absent when nothing was moved. */
            adjustments: {
                /** @description The value asked for. */
                from: string | number;
                /** @description The field fit moved, e.g. `duration_sec`. */
                path: string;
                /** @description The nearest value the model allows, sent. */
                to: string | number;
            }[];
            /** @constant */
            dry_run: true;
            /** @description What the job will use and (with a price table) cost. */
            estimate: {
                /** @description Under the price table (REELAY_PRICES); null unpriced. */
                cost: number | null;
                currency: string | null;
                /** @description sha256 of the price table used. */
                price_version: string | null;
                /** @description What the job asks the upstream to make, in the units generation is billed in. */
                usage: {
                    audio?: boolean;
                    quantity: number;
                    reference_images?: number;
                    /** @description Video: null = the model's default. */
                    resolution?: string | null;
                    /** @description Images: image_size; null = default. */
                    tier?: string | null;
                    /** @enum {string} */
                    unit: "video_second" | "image";
                } & {
                    [key: string]: unknown;
                };
            };
            model: string;
            /** @description The request as it would be sent: defaults filled in, fitted. */
            request: {
                [key: string]: unknown;
            };
            /** @description The name the request gave: an alias (`gamma-latest`), or a sunset model whose successor runs; else `model` itself. */
            requested_model: string;
            /** @constant */
            valid: true;
            /** @description Soft rules the request broke; it went on anyway. */
            warnings: {
                /** @description Stable machine-readable code. */
                code: string;
                /** @description A sentence naming the allowed values where there are any. */
                message: string;
                /** @description Field path, e.g. `frame_images[1].frame_type`; empty for the whole body. */
                path: string;
            }[];
        };
        /** @description Every error reelay answers: `{error: {code, message, path?, errors?}}`. */
        Error: {
            /** @description The error. */
            error: {
                /** @description Stable error code (see each operation's error list). */
                code: string;
                /** @description Every validation error, when the request broke model rules. */
                errors?: {
                    /** @description Stable machine-readable code. */
                    code: string;
                    /** @description A sentence naming the allowed values where there are any. */
                    message: string;
                    /** @description Field path, e.g. `frame_images[1].frame_type`; empty for the whole body. */
                    path: string;
                }[];
                /** @description What went wrong, for a person. */
                message: string;
                /** @description The field at fault, when one is. */
                path?: string;
            } & {
                [key: string]: unknown;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dashboard page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html>... */
                    "text/html": unknown;
                };
            };
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html>... */
                    "text/html": unknown;
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true,
                     *       "version": "0.1.0",
                     *       "upstream": "simulator"
                     *     }
                     */
                    "application/json": {
                        ok: boolean;
                        /** @description The reelay release serving (CHANGELOG.md). */
                        version: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `unhealthy`: A dependency check failed. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unhealthy",
                     *         "message": "A dependency check failed."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "jsonrpc": "2.0",
                 *       "id": 1,
                 *       "method": "tools/list"
                 *     }
                 */
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The JSON-RPC answer, after the call's progress notifications. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example event: message
                     *     data: {"result":{"tools":[...]},"jsonrpc":"2.0","id":1}
                     */
                    "text/event-stream": unknown;
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `read` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text format 0.0.4. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example # HELP reelay_jobs_succeeded_total Jobs that ended succeeded, by model.
                     *     # TYPE reelay_jobs_succeeded_total counter
                     *     reelay_jobs_succeeded_total{model="gamma-3.1"} 12
                     */
                    "text/plain": unknown;
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key manages keys. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key manages keys."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.1.0",
                     *       "info": {
                     *         "title": "reelay"
                     *       }
                     *     }
                     */
                    "application/json": unknown;
                };
            };
        };
    };
    getV1Admission: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Admission now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "limit": 20,
                     *       "limitSource": "learned",
                     *       "ratePerS": null,
                     *       "held": [
                     *         "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T"
                     *       ],
                     *       "queued": 280,
                     *       "heldBackUntil": null
                     *     }
                     */
                    "application/json": {
                        /** @description The jobs holding an upstream slot. */
                        held: string[];
                        /** @description Set while the create rate or an upstream's Retry-After holds admissions back. */
                        heldBackUntil: string | null;
                        /** @description Upstream tasks in flight at most, now. */
                        limit: number;
                        /**
                         * @description REELAY_UPSTREAM_CONCURRENCY, or learned from the upstream's 429s.
                         * @enum {string}
                         */
                        limitSource: "configured" | "learned";
                        /** @description Jobs waiting for a slot. */
                        queued: number;
                        /** @description REELAY_UPSTREAM_RATE, creates per second. */
                        ratePerS: number | null;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key manages keys. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key manages keys."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1Audit: {
        parameters: {
            query?: {
                /**
                 * @description Only this action.
                 * @example key.created
                 */
                action?: "key.created" | "key.revoked" | "key.budget_changed" | "key.limits_changed" | "key.webhook_secret_rotated" | "subscriber.added" | "subscriber.removed" | "subscriber.rotated" | "event.replayed" | "delivery.retried" | "job.retried" | "batch.retried";
                /** @description next_cursor of the previous page. */
                cursor?: string;
                /** @description Records at or after this ISO time. */
                from?: string;
                /**
                 * @description Page size, 1 to 100 (default 50).
                 * @example 20
                 */
                limit?: number;
                /** @description Records before this ISO time. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "aud_01JD8ZC...",
                     *           "at": "2026-11-27T10:00:00.000Z",
                     *           "action": "key.created",
                     *           "actor": {
                     *             "key_id": "local"
                     *           },
                     *           "project": "video-team",
                     *           "target": "key_01JD8ZB...",
                     *           "change": {
                     *             "name": "ci",
                     *             "scopes": [
                     *               "read",
                     *               "write"
                     *             ],
                     *             "project": "video-team"
                     *           }
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            action: "key.created" | "key.revoked" | "key.budget_changed" | "key.limits_changed" | "key.webhook_secret_rotated" | "subscriber.added" | "subscriber.removed" | "subscriber.rotated" | "event.replayed" | "delivery.retried" | "job.retried" | "batch.retried";
                            /** @description Who did it. */
                            actor: {
                                /** @description The acting key's id; `local` for the deployment's own key. */
                                key_id: string;
                                /** @description The acting key's project. */
                                project?: string;
                            };
                            /** @description When the action was done (ISO, UTC). */
                            at: string;
                            /** @description What changed; never a key or a secret. */
                            change: {
                                [key: string]: unknown;
                            };
                            /** @description `aud_<ulid>`: sorts by time. */
                            id: string;
                            /** @description The project of what was acted on; absent for what spans the deployment. */
                            project?: string;
                            /** @description The id of what was acted on (key, subscriber, event, job, ...). */
                            target: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null at the end. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description `invalid_query`, `invalid_cursor`: action is not a known action, from or to is not an ISO time, the limit is out of range, or the cursor is not one this service returned. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_query",
                     *         "message": "action is not a known action, from or to is not an ISO time, the limit is out of range, or the cursor is not one this service returned."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the admin scope. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the admin scope."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1Batches: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batches. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "bat_01JD8ZC4T7W2X9Y6Z3A5B8C1D0",
                     *           "object": "batch",
                     *           "status": "in_progress",
                     *           "total": 300,
                     *           "counts": {
                     *             "queued": 250,
                     *             "running": 20,
                     *             "downloading": 2,
                     *             "succeeded": 26,
                     *             "failed": 1,
                     *             "cancelled": 0,
                     *             "rejected": 1
                     *           },
                     *           "source": {
                     *             "type": "api"
                     *           },
                     *           "priority": "normal",
                     *           "created_at": "2026-11-22T00:00:00.000Z",
                     *           "finished_at": null,
                     *           "cancelled_at": null,
                     *           "eta_seconds": 412,
                     *           "results": null,
                     *           "retry_of": null,
                     *           "metadata": {}
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            cancelled_at: string | null;
                            /** @description Jobs by status, plus rejected lines; always sums to total. */
                            counts: {
                                cancelled: number;
                                downloading: number;
                                failed: number;
                                queued: number;
                                /** @description Lines refused by validation: no job, nothing spent. */
                                rejected: number;
                                running: number;
                                succeeded: number;
                            };
                            created_at: string;
                            /** @description At the rate jobs have ended so far; null before the first. */
                            eta_seconds: number | null;
                            finished_at: string | null;
                            /** @description `bat_<ulid>`. */
                            id: string;
                            /** @description The batch's own metadata, under each line's own; {} when none. */
                            metadata: {
                                [key: string]: string;
                            };
                            /** @constant */
                            object: "batch";
                            /** @enum {string} */
                            priority: "high" | "normal" | "low";
                            /** @description outputs/batches/<id>/results.jsonl, once completed. */
                            results: {
                                bucket: string;
                                key: string;
                            } | null;
                            /** @description The batch whose failures this one retries. */
                            retry_of: string | null;
                            source: {
                                /** @enum {string} */
                                type: "api" | "drop" | "cli";
                            } & {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            status: "in_progress" | "completed";
                            /** @description Request lines, valid or not. */
                            total: number;
                        }[];
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `read` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1Batches: {
        parameters: {
            query?: {
                /**
                 * @description true: check every line and answer what would be made, making nothing.
                 * @example true
                 */
                dry_run?: boolean;
            };
            header?: {
                /**
                 * @description The same key with the same payload returns the same job; with a different payload, 409.
                 * @example order-1234
                 */
                "X-Idempotency-Key"?: string;
                /**
                 * @description `nearest`: a duration, resolution or aspect ratio (an image's size or ratio) the model refuses moves to the nearest one it allows, instead of a 400: a duration to the closest whole seconds (a tie to the longer), a resolution to the closest in lines (a tie to the higher), a ratio to the closest as a ratio (a tie to the one the model lists first). The job's `adjustments` lists each move as `{path, from, to}`. A material the model cannot take is refused all the same, and a request fitting cannot make valid is refused as asked. Batches: `fit` in the JSON body, or this header.
                 * @example nearest
                 */
                "X-Reelay-Fit"?: "nearest";
                /**
                 * @description Your own string pairs as a JSON object, at most 16 pairs, keys of 1 to 40 characters, values of at most 500; shown back as given in the job's view, job.json, its terminal event and webhooks and its batch's results, and listed by with GET /v1/jobs?metadata.KEY=VALUE. Characters outside ASCII as JSON \u escapes. Over the limits, not JSON, or a value not a string: 400 invalid_metadata naming the key. Batches: `metadata` in the JSON body (a line's own `metadata` laid over it), or this header.
                 * @example {"order":"42","customer":"c_981"}
                 */
                "X-Reelay-Metadata"?: string;
                /**
                 * @description `s3://<bucket>/<prefix>/`: the outputs are also copied there, as `<prefix><job id>/<file name>`, besides reelay's bucket; the bucket must be listed in REELAY_OUTPUT_BUCKETS. Batches: `output: {s3_prefix}` in the JSON body, or this header.
                 * @example s3://my-renders/campaign-7/
                 */
                "X-Reelay-Output-S3-Prefix"?: string;
                /**
                 * @description Admission order among the caller's own jobs while they wait for an upstream slot: high, normal (the default) or low. Callers are served in turn whatever their priorities.
                 * @example high
                 */
                "X-Reelay-Priority"?: "high" | "normal" | "low";
                /**
                 * @description Seconds the job may wait for an upstream slot (1 to REELAY_QUEUE_TIMEOUT_S); not admitted by then, it ends failed `queue_timeout`, charged false, its reservation released. Batches: `queue_timeout_s` in the JSON body, or this header.
                 * @example 60
                 */
                "X-Reelay-Queue-Timeout"?: number;
                /**
                 * @description Days the job's outputs are kept once stored (fractions allowed, at most 3650); default REELAY_RETENTION_DAYS, unset = for good. Then the job answers `outputs_expired: true` with no links, its record kept 30 days more. Batches: `retention_days` in the JSON body, or this header.
                 * @example 7
                 */
                "X-Reelay-Retention-Days"?: number;
                /**
                 * @description Pay once for the same request: a maximum age (`30m`, `12h`, `7d`, at most 365d) or `false` (the default). A request whose fingerprint (model, normalized request, each stored material's sha256) matches a job of the same project that succeeded within that age succeeds from a copy of its output, `reused_from` set, charged false, cost 0, no upstream call; identical requests in flight share one upstream task. Batches: `reuse` in the JSON body, or this header.
                 * @example 7d
                 */
                "X-Reelay-Reuse"?: string;
                /**
                 * @description The app's own opaque id for its end user (1-128 printable characters, no control characters): the job keeps it (view, job.json, events, webhooks, batch results), the key's `user_limits` hold per end user (429/402 for that user while the key's other users are served), `GET /v1/jobs?user=` finds its jobs and `GET /v1/usage?group_by=user` sums by it. Batches: `user` in the JSON body, or this header.
                 * @example user-4711
                 */
                "X-Reelay-User"?: string;
                /**
                 * @description The job's own webhook: its terminal event is POSTed there per Standard Webhooks, with the durable retry schedule, signed with the webhook secret of the API key that made it (a stored key: `reelay keys create` shows it once). The URL is checked at create: https to a public address on AWS (400 webhook_url_scheme, webhook_url_loopback, webhook_url_private or webhook_url_metadata otherwise).
                 * @example https://hooks.example.com/reelay
                 */
                "X-Reelay-Webhook"?: string;
                /**
                 * @description With X-Reelay-Webhook: the event types it receives, comma separated (Generation Succeeded, Generation Failed, Generation Cancelled, Batch Completed); default all.
                 * @example Generation Succeeded,Generation Failed
                 */
                "X-Reelay-Webhook-Events"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {"model":"gamma-3.1","prompt":"a paper boat","duration_sec":8}
                 *     {"model":"os-2","prompt":"a lighthouse","duration_sec":4}
                 */
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description The batch, its jobs queued (with dry_run: the quote). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "bat_01JD8ZC4T7W2X9Y6Z3A5B8C1D0",
                     *       "object": "batch",
                     *       "status": "in_progress",
                     *       "total": 300,
                     *       "counts": {
                     *         "queued": 250,
                     *         "running": 20,
                     *         "downloading": 2,
                     *         "succeeded": 26,
                     *         "failed": 1,
                     *         "cancelled": 0,
                     *         "rejected": 1
                     *       },
                     *       "source": {
                     *         "type": "api"
                     *       },
                     *       "priority": "normal",
                     *       "created_at": "2026-11-22T00:00:00.000Z",
                     *       "finished_at": null,
                     *       "cancelled_at": null,
                     *       "eta_seconds": 412,
                     *       "results": null,
                     *       "retry_of": null,
                     *       "metadata": {}
                     *     }
                     */
                    "application/json": {
                        cancelled_at: string | null;
                        /** @description Jobs by status, plus rejected lines; always sums to total. */
                        counts: {
                            cancelled: number;
                            downloading: number;
                            failed: number;
                            queued: number;
                            /** @description Lines refused by validation: no job, nothing spent. */
                            rejected: number;
                            running: number;
                            succeeded: number;
                        };
                        created_at: string;
                        /** @description At the rate jobs have ended so far; null before the first. */
                        eta_seconds: number | null;
                        finished_at: string | null;
                        /** @description `bat_<ulid>`. */
                        id: string;
                        /** @description The batch's own metadata, under each line's own; {} when none. */
                        metadata: {
                            [key: string]: string;
                        };
                        /** @constant */
                        object: "batch";
                        /** @enum {string} */
                        priority: "high" | "normal" | "low";
                        /** @description outputs/batches/<id>/results.jsonl, once completed. */
                        results: {
                            bucket: string;
                            key: string;
                        } | null;
                        /** @description The batch whose failures this one retries. */
                        retry_of: string | null;
                        source: {
                            /** @enum {string} */
                            type: "api" | "drop" | "cli";
                        } & {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        status: "in_progress" | "completed";
                        /** @description Request lines, valid or not. */
                        total: number;
                    };
                };
            };
            /** @description `webhook_url_scheme`, `webhook_url_loopback`, `webhook_url_private`, `webhook_url_metadata`, `webhook_needs_stored_key`: The job's own webhook URL is refused (the code says why; error.path names the header or field), or it was asked for with the deployment's own key, which has no webhook secret. `invalid_request`, `batch_too_large`, `invalid_priority`, `invalid_queue_timeout`, `invalid_reuse`, `invalid_query`, `invalid_retention`, `invalid_output_target`, `output_bucket_not_allowed`, `invalid_fit`, `invalid_metadata`: No request at all, more than 10,000, or a malformed priority, queue_timeout_s, reuse, retention_days, output, fit or dry_run, or an output bucket outside REELAY_OUTPUT_BUCKETS. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "webhook_url_scheme",
                     *         "message": "The job's own webhook URL is refused (the code says why; error.path names the header or field), or it was asked for with the deployment's own key, which has no webhook secret."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `write` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `write` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: The body is larger than 10 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The body is larger than 10 MiB."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `queue_full`: Its jobs would pass the key's limits' max_queued: the batch is refused whole, nothing made. `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "queue_full",
                     *         "message": "Its jobs would pass the key's limits' max_queued: the batch is refused whole, nothing made."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1BatchesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example bat_01JD8ZC4T7W2X9Y6Z3A5B8C1D0
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "bat_01JD8ZC4T7W2X9Y6Z3A5B8C1D0",
                     *       "object": "batch",
                     *       "status": "in_progress",
                     *       "total": 300,
                     *       "counts": {
                     *         "queued": 250,
                     *         "running": 20,
                     *         "downloading": 2,
                     *         "succeeded": 26,
                     *         "failed": 1,
                     *         "cancelled": 0,
                     *         "rejected": 1
                     *       },
                     *       "source": {
                     *         "type": "api"
                     *       },
                     *       "priority": "normal",
                     *       "created_at": "2026-11-22T00:00:00.000Z",
                     *       "finished_at": null,
                     *       "cancelled_at": null,
                     *       "eta_seconds": 412,
                     *       "results": null,
                     *       "retry_of": null,
                     *       "metadata": {}
                     *     }
                     */
                    "application/json": {
                        cancelled_at: string | null;
                        /** @description Jobs by status, plus rejected lines; always sums to total. */
                        counts: {
                            cancelled: number;
                            downloading: number;
                            failed: number;
                            queued: number;
                            /** @description Lines refused by validation: no job, nothing spent. */
                            rejected: number;
                            running: number;
                            succeeded: number;
                        };
                        created_at: string;
                        /** @description At the rate jobs have ended so far; null before the first. */
                        eta_seconds: number | null;
                        finished_at: string | null;
                        /** @description `bat_<ulid>`. */
                        id: string;
                        /** @description The batch's own metadata, under each line's own; {} when none. */
                        metadata: {
                            [key: string]: string;
                        };
                        /** @constant */
                        object: "batch";
                        /** @enum {string} */
                        priority: "high" | "normal" | "low";
                        /** @description outputs/batches/<id>/results.jsonl, once completed. */
                        results: {
                            bucket: string;
                            key: string;
                        } | null;
                        /** @description The batch whose failures this one retries. */
                        retry_of: string | null;
                        source: {
                            /** @enum {string} */
                            type: "api" | "drop" | "cli";
                        } & {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        status: "in_progress" | "completed";
                        /** @description Request lines, valid or not. */
                        total: number;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `read` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `batch_not_found`: No batch with that id is visible to this key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "batch_not_found",
                     *         "message": "No batch with that id is visible to this key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1BatchesIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example bat_01JD8ZC4T7W2X9Y6Z3A5B8C1D0
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch after cancelling. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "bat_01JD8ZC4T7W2X9Y6Z3A5B8C1D0",
                     *       "object": "batch",
                     *       "status": "in_progress",
                     *       "total": 300,
                     *       "counts": {
                     *         "queued": 250,
                     *         "running": 20,
                     *         "downloading": 2,
                     *         "succeeded": 26,
                     *         "failed": 1,
                     *         "cancelled": 0,
                     *         "rejected": 1
                     *       },
                     *       "source": {
                     *         "type": "api"
                     *       },
                     *       "priority": "normal",
                     *       "created_at": "2026-11-22T00:00:00.000Z",
                     *       "finished_at": null,
                     *       "cancelled_at": "2026-11-22T00:00:41.000Z",
                     *       "eta_seconds": 412,
                     *       "results": null,
                     *       "retry_of": null,
                     *       "metadata": {}
                     *     }
                     */
                    "application/json": {
                        cancelled_at: string | null;
                        /** @description Jobs by status, plus rejected lines; always sums to total. */
                        counts: {
                            cancelled: number;
                            downloading: number;
                            failed: number;
                            queued: number;
                            /** @description Lines refused by validation: no job, nothing spent. */
                            rejected: number;
                            running: number;
                            succeeded: number;
                        };
                        created_at: string;
                        /** @description At the rate jobs have ended so far; null before the first. */
                        eta_seconds: number | null;
                        finished_at: string | null;
                        /** @description `bat_<ulid>`. */
                        id: string;
                        /** @description The batch's own metadata, under each line's own; {} when none. */
                        metadata: {
                            [key: string]: string;
                        };
                        /** @constant */
                        object: "batch";
                        /** @enum {string} */
                        priority: "high" | "normal" | "low";
                        /** @description outputs/batches/<id>/results.jsonl, once completed. */
                        results: {
                            bucket: string;
                            key: string;
                        } | null;
                        /** @description The batch whose failures this one retries. */
                        retry_of: string | null;
                        source: {
                            /** @enum {string} */
                            type: "api" | "drop" | "cli";
                        } & {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        status: "in_progress" | "completed";
                        /** @description Request lines, valid or not. */
                        total: number;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `write` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `write` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `batch_not_found`: No batch with that id is visible to this key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "batch_not_found",
                     *         "message": "No batch with that id is visible to this key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1BatchesIdEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example bat_01JD8ZC4T7W2X9Y6Z3A5B8C1D0
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch's stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example id: 2.1.0.0.0.0.0
                     *     event: progress
                     *     data: {"id":"bat_...","total":3,"counts":{"queued":2,"running":1}}
                     */
                    "text/event-stream": unknown;
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `read` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `batch_not_found`: No batch with that id is visible to this key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "batch_not_found",
                     *         "message": "No batch with that id is visible to this key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1BatchesIdResults: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example bat_01JD8ZC4T7W2X9Y6Z3A5B8C1D0
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The results, one JSON line per request line. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example {"line":1,"job_id":"vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T","status":"succeeded","outputs":[{"bucket":"reelay","key":"outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/video.mp4","bytes":1048576,"sha256":"9f86d08...","url":"http://..."}],"error":null} */
                    "application/x-ndjson": string;
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `read` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `batch_not_found`: No batch with that id is visible to this key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "batch_not_found",
                     *         "message": "No batch with that id is visible to this key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1BatchesIdRetry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example bat_01JD8ZC4T7W2X9Y6Z3A5B8C1D0
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The retry batch. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "bat_01JD8ZD...",
                     *       "object": "batch",
                     *       "status": "in_progress",
                     *       "total": 3,
                     *       "counts": {
                     *         "queued": 250,
                     *         "running": 20,
                     *         "downloading": 2,
                     *         "succeeded": 26,
                     *         "failed": 1,
                     *         "cancelled": 0,
                     *         "rejected": 1
                     *       },
                     *       "source": {
                     *         "type": "api"
                     *       },
                     *       "priority": "normal",
                     *       "created_at": "2026-11-22T00:00:00.000Z",
                     *       "finished_at": null,
                     *       "cancelled_at": null,
                     *       "eta_seconds": 412,
                     *       "results": null,
                     *       "retry_of": "bat_01JD8ZC4T7W2X9Y6Z3A5B8C1D0",
                     *       "metadata": {}
                     *     }
                     */
                    "application/json": {
                        cancelled_at: string | null;
                        /** @description Jobs by status, plus rejected lines; always sums to total. */
                        counts: {
                            cancelled: number;
                            downloading: number;
                            failed: number;
                            queued: number;
                            /** @description Lines refused by validation: no job, nothing spent. */
                            rejected: number;
                            running: number;
                            succeeded: number;
                        };
                        created_at: string;
                        /** @description At the rate jobs have ended so far; null before the first. */
                        eta_seconds: number | null;
                        finished_at: string | null;
                        /** @description `bat_<ulid>`. */
                        id: string;
                        /** @description The batch's own metadata, under each line's own; {} when none. */
                        metadata: {
                            [key: string]: string;
                        };
                        /** @constant */
                        object: "batch";
                        /** @enum {string} */
                        priority: "high" | "normal" | "low";
                        /** @description outputs/batches/<id>/results.jsonl, once completed. */
                        results: {
                            bucket: string;
                            key: string;
                        } | null;
                        /** @description The batch whose failures this one retries. */
                        retry_of: string | null;
                        source: {
                            /** @enum {string} */
                            type: "api" | "drop" | "cli";
                        } & {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        status: "in_progress" | "completed";
                        /** @description Request lines, valid or not. */
                        total: number;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `write` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `write` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `batch_not_found`: No batch with that id is visible to this key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "batch_not_found",
                     *         "message": "No batch with that id is visible to this key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_retryable`: The batch is still running, or none of its failures is one a retry can help. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_retryable",
                     *         "message": "The batch is still running, or none of its failures is one a retry can help."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1ChatCompletions: {
        parameters: {
            query?: {
                /**
                 * @description true: run every check of the create (options, fit, the model's rules and lifecycle, upload references) and answer reelay's own `{dry_run, valid, model, requested_model, request, adjustments, warnings, estimate}`, making nothing: no job, no idempotency record, no upstream call, no charge. The key's limits and budgets are not checked nor taken. A bad request is the create's own 400.
                 * @example true
                 */
                dry_run?: boolean;
            };
            header?: {
                /**
                 * @description The same key with the same payload returns the same job; with a different payload, 409.
                 * @example order-1234
                 */
                "X-Idempotency-Key"?: string;
                /**
                 * @description `nearest`: a duration, resolution or aspect ratio (an image's size or ratio) the model refuses moves to the nearest one it allows, instead of a 400: a duration to the closest whole seconds (a tie to the longer), a resolution to the closest in lines (a tie to the higher), a ratio to the closest as a ratio (a tie to the one the model lists first). The job's `adjustments` lists each move as `{path, from, to}`. A material the model cannot take is refused all the same, and a request fitting cannot make valid is refused as asked. Batches: `fit` in the JSON body, or this header.
                 * @example nearest
                 */
                "X-Reelay-Fit"?: "nearest";
                /**
                 * @description Your own string pairs as a JSON object, at most 16 pairs, keys of 1 to 40 characters, values of at most 500; shown back as given in the job's view, job.json, its terminal event and webhooks and its batch's results, and listed by with GET /v1/jobs?metadata.KEY=VALUE. Characters outside ASCII as JSON \u escapes. Over the limits, not JSON, or a value not a string: 400 invalid_metadata naming the key. Batches: `metadata` in the JSON body (a line's own `metadata` laid over it), or this header.
                 * @example {"order":"42","customer":"c_981"}
                 */
                "X-Reelay-Metadata"?: string;
                /**
                 * @description `s3://<bucket>/<prefix>/`: the outputs are also copied there, as `<prefix><job id>/<file name>`, besides reelay's bucket; the bucket must be listed in REELAY_OUTPUT_BUCKETS. Batches: `output: {s3_prefix}` in the JSON body, or this header.
                 * @example s3://my-renders/campaign-7/
                 */
                "X-Reelay-Output-S3-Prefix"?: string;
                /**
                 * @description Admission order among the caller's own jobs while they wait for an upstream slot: high, normal (the default) or low. Callers are served in turn whatever their priorities.
                 * @example high
                 */
                "X-Reelay-Priority"?: "high" | "normal" | "low";
                /**
                 * @description Seconds the job may wait for an upstream slot (1 to REELAY_QUEUE_TIMEOUT_S); not admitted by then, it ends failed `queue_timeout`, charged false, its reservation released. Batches: `queue_timeout_s` in the JSON body, or this header.
                 * @example 60
                 */
                "X-Reelay-Queue-Timeout"?: number;
                /**
                 * @description Days the job's outputs are kept once stored (fractions allowed, at most 3650); default REELAY_RETENTION_DAYS, unset = for good. Then the job answers `outputs_expired: true` with no links, its record kept 30 days more. Batches: `retention_days` in the JSON body, or this header.
                 * @example 7
                 */
                "X-Reelay-Retention-Days"?: number;
                /**
                 * @description Pay once for the same request: a maximum age (`30m`, `12h`, `7d`, at most 365d) or `false` (the default). A request whose fingerprint (model, normalized request, each stored material's sha256) matches a job of the same project that succeeded within that age succeeds from a copy of its output, `reused_from` set, charged false, cost 0, no upstream call; identical requests in flight share one upstream task. Batches: `reuse` in the JSON body, or this header.
                 * @example 7d
                 */
                "X-Reelay-Reuse"?: string;
                /**
                 * @description The app's own opaque id for its end user (1-128 printable characters, no control characters): the job keeps it (view, job.json, events, webhooks, batch results), the key's `user_limits` hold per end user (429/402 for that user while the key's other users are served), `GET /v1/jobs?user=` finds its jobs and `GET /v1/usage?group_by=user` sums by it. Batches: `user` in the JSON body, or this header.
                 * @example user-4711
                 */
                "X-Reelay-User"?: string;
                /**
                 * @description The job's own webhook: its terminal event is POSTed there per Standard Webhooks, with the durable retry schedule, signed with the webhook secret of the API key that made it (a stored key: `reelay keys create` shows it once). The URL is checked at create: https to a public address on AWS (400 webhook_url_scheme, webhook_url_loopback, webhook_url_private or webhook_url_metadata otherwise).
                 * @example https://hooks.example.com/reelay
                 */
                "X-Reelay-Webhook"?: string;
                /**
                 * @description With X-Reelay-Webhook: the event types it receives, comma separated (Generation Succeeded, Generation Failed, Generation Cancelled, Batch Completed); default all.
                 * @example Generation Succeeded,Generation Failed
                 */
                "X-Reelay-Webhook-Events"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "model": "deltaq2-image",
                 *       "messages": [
                 *         {
                 *           "role": "user",
                 *           "content": "a lighthouse at dawn, watercolour"
                 *         }
                 *       ],
                 *       "modalities": [
                 *         "image",
                 *         "text"
                 *       ],
                 *       "image_config": {
                 *         "image_size": "2K",
                 *         "aspect_ratio": "16:9",
                 *         "output_format": "url"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description Image options (§2.6). */
                    image_config?: {
                        /** @description Commonly auto, 16:9, 9:16, 1:1, 3:4, 4:3, 21:9, 2:3, 3:2. */
                        aspect_ratio?: string;
                        /** @description Unsupported; use image_size. */
                        custom_size?: unknown;
                        /** @description For deltaq2-image: 1080p, 2K or 4K. */
                        image_size?: string;
                        /**
                         * @description `url` is used.
                         * @constant
                         */
                        output_format?: "url";
                        /** @description 1 to 7 reference images. */
                        reference_images?: {
                            /** @description The role of the image, e.g. 'the product to place'. */
                            text: string;
                            /**
                             * @description Fixed value `url`.
                             * @constant
                             */
                            type: "url";
                            /** @description Publicly reachable HTTPS image URL. */
                            url: string;
                        }[];
                    };
                    /** @description Items with role and string content (the prompt). */
                    messages: {
                        /** @description The prompt. */
                        content: string;
                        /** @description Message role, e.g. user. */
                        role: string;
                    }[];
                    /** @description Must contain `image`; commonly [image, text]. */
                    modalities: string[];
                    /** @description Image model code. */
                    model: string;
                    /** @description Model-specific keys from the model's allow-list; `logo_add` is unsupported. */
                    model_specific_config?: {
                        [key: string]: unknown;
                    };
                    /** @description Images per call, default 1. */
                    output_image_count?: number;
                    /** @description Must be false or omitted. */
                    stream?: boolean;
                };
            };
        };
        responses: {
            /** @description The image task was created (with ?dry_run=true: the CreateDryRun named at x-dry-run, nothing made). */
            200: {
                headers: {
                    /** @description RFC 9745: `@<unix seconds>` of the model's deprecated_at, when the model asked for is deprecated. */
                    Deprecation?: string;
                    /** @description RFC 8594: the HTTP-date of the model's sunset_at, from which creates on it are refused `model_sunset`. */
                    Sunset?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "service_task": {
                     *         "task_id": "imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0",
                     *         "status": "queued"
                     *       },
                     *       "task_id": "imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0",
                     *       "status": "queued",
                     *       "model": "deltaq2-image",
                     *       "requested_model": "deltaq2-image",
                     *       "warnings": [],
                     *       "estimate": {
                     *         "usage": {
                     *           "unit": "image",
                     *           "quantity": 1,
                     *           "tier": "2K",
                     *           "reference_images": 0
                     *         },
                     *         "cost": null,
                     *         "currency": null,
                     *         "price_version": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description fit (X-Reelay-Fit: nearest): each value the model refused, moved to the nearest one it allows; absent when nothing was moved. */
                        adjustments?: {
                            /** @description The value asked for. */
                            from: string | number;
                            /** @description The field fit moved, e.g. `duration_sec`. */
                            path: string;
                            /** @description The nearest value the model allows, sent. */
                            to: string | number;
                        }[];
                        /** @description What the job will use and (with a price table) cost. */
                        estimate: {
                            /** @description Under the price table (REELAY_PRICES); null unpriced. */
                            cost: number | null;
                            currency: string | null;
                            /** @description sha256 of the price table used. */
                            price_version: string | null;
                            /** @description What the job asks the upstream to make, in the units generation is billed in. */
                            usage: {
                                audio?: boolean;
                                quantity: number;
                                reference_images?: number;
                                /** @description Video: null = the model's default. */
                                resolution?: string | null;
                                /** @description Images: image_size; null = default. */
                                tier?: string | null;
                                /** @enum {string} */
                                unit: "video_second" | "image";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                        model: string;
                        /** @description The name the request gave: an alias (`gamma-latest`), or a sunset model whose successor runs; else `model` itself. */
                        requested_model: string;
                        /** @description The contract's task object (§2.5). */
                        service_task: {
                            /**
                             * @description reelay's job status.
                             * @enum {string}
                             */
                            status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                            task_id: string;
                        };
                        /**
                         * @description reelay's job status.
                         * @enum {string}
                         */
                        status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                        /** @description Top-level alias of service_task.task_id: `vidtsk_<ulid>` or `imgtsk_<ulid>`. */
                        task_id: string;
                        /** @description Soft rules the request broke; it went on anyway. */
                        warnings: {
                            /** @description Stable machine-readable code. */
                            code: string;
                            /** @description A sentence naming the allowed values where there are any. */
                            message: string;
                            /** @description Field path, e.g. `frame_images[1].frame_type`; empty for the whole body. */
                            path: string;
                        }[];
                    };
                };
            };
            /** @description `webhook_url_scheme`, `webhook_url_loopback`, `webhook_url_private`, `webhook_url_metadata`, `webhook_needs_stored_key`: The job's own webhook URL is refused (the code says why; error.path names the header or field), or it was asked for with the deployment's own key, which has no webhook secret. `invalid_json`, `invalid_request`, `invalid_idempotency_key`, `invalid_priority`, `invalid_queue_timeout`, `invalid_retention`, `invalid_output_target`, `output_bucket_not_allowed`, `invalid_reuse`, `invalid_fit`, `invalid_metadata`: The body is not JSON, breaks a model rule (every issue in error.errors, the first at error.path), or a header (the key, the priority, the queue timeout, the reuse age, the retention, the output prefix, the fit) is malformed; or the output prefix names a bucket outside REELAY_OUTPUT_BUCKETS. `model_sunset`: The model asked for (or the alias naming it) is past its sunset_at; the message names its successor (error.path = model). A key made with on_sunset: successor runs the successor instead. `invalid_query`: dry_run other than true or false. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "webhook_url_scheme",
                     *         "message": "The job's own webhook URL is refused (the code says why; error.path names the header or field), or it was asked for with the deployment's own key, which has no webhook secret."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `budget_exceeded`: The job's estimate does not fit what is left of the API key's budget, or the deployment's, for the period (error.remaining, error.budget = key|deployment); nothing was made. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "budget_exceeded",
                     *         "message": "The job's estimate does not fit what is left of the API key's budget, or the deployment's, for the period (error.remaining, error.budget = key|deployment); nothing was made."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `write` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `write` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`: The X-Idempotency-Key was used before with a different payload (error.path = X-Idempotency-Key). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_conflict",
                     *         "message": "The X-Idempotency-Key was used before with a different payload (error.path = X-Idempotency-Key)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: The body is larger than the limit (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The body is larger than the limit (1 MiB by default)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `queue_full`: The key already has its limits' max_queued jobs waiting for a slot; nothing was made. `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "queue_full",
                     *         "message": "The key already has its limits' max_queued jobs waiting for a slot; nothing was made."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `start_failed`, `service_unavailable`: The job was recorded but could not be started (it is marked failed), or a dependency did not answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "start_failed",
                     *         "message": "The job was recorded but could not be started (it is marked failed), or a dependency did not answer."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1Events: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example event: Generation Succeeded
                     *     data: {"detail-type":"Generation Succeeded","detail":{"jobId":"vidtsk_..."}}
                     *     id: 01JD...
                     */
                    "text/event-stream": unknown;
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `read` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1EventsIdReplay: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The event's id.
                 * @example vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T.succeeded
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "subscriber": "config:5d41402abc4b2a76"
                 *     }
                 */
                "application/json": {
                    subscriber?: string;
                };
            };
        };
        responses: {
            /** @description The new deliveries. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "dlv_01JD8ZE0000000000000000000",
                     *           "eventId": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T.succeeded",
                     *           "eventType": "Generation Succeeded",
                     *           "subscriber": "config:5d41402abc4b2a76",
                     *           "url": "https://hooks.example.com/reelay",
                     *           "status": "pending",
                     *           "attempts": [],
                     *           "maxAttempts": 8,
                     *           "createdAt": "2026-11-22T00:00:41.000Z",
                     *           "updatedAt": "2026-11-22T00:00:46.395Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            attempts: {
                                /** @description When the attempt started (ISO 8601). */
                                at: string;
                                /** @description Why no answer came (network error, timeout, url_forbidden). */
                                error?: string;
                                /** @description How long the exchange took. */
                                latencyMs: number;
                                /** @description The first 1 KB of the answer, any secret cut out. */
                                response?: string;
                                /** @description The receiver's HTTP status, when it answered. */
                                status?: number;
                            }[];
                            createdAt: string;
                            /** @description The event's id, sent as `webhook-id` on every attempt. */
                            eventId: string;
                            eventType: string;
                            /** @description `dlv_…` */
                            id: string;
                            /** @description After this many failed attempts the delivery is dead. */
                            maxAttempts: number;
                            /** @description Pending only. */
                            nextAttemptAt?: string;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "dead";
                            /** @description The subscriber's id (`config:<digest>` for REELAY_WEBHOOKS). */
                            subscriber: string;
                            updatedAt: string;
                            /** @description The subscriber's URL without its query. */
                            url: string;
                        }[];
                    };
                };
            };
            /** @description `invalid_json`, `invalid_request`: The body is not JSON or subscriber is not a string. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_json",
                     *         "message": "The body is not JSON or subscriber is not a string."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `event_not_found`: No delivery of the event and no terminal job it names. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "event_not_found",
                     *         "message": "No delivery of the event and no terminal job it names."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `no_webhook_subscribers`: No subscriber is configured, or none has that id. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "no_webhook_subscribers",
                     *         "message": "No subscriber is configured, or none has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1ImageTasksTaskid: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0
                 */
                taskId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image task. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "service_task": {
                     *         "task_id": "imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0",
                     *         "status": "succeeded"
                     *       },
                     *       "task_id": "imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0",
                     *       "status": "succeeded",
                     *       "model": "deltaq2-image",
                     *       "images": [
                     *         {
                     *           "url": "http://127.0.0.1:4701/reelay/outputs/imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0/image-1.png?X-Amz-Signature=...",
                     *           "bytes": 204800,
                     *           "sha256": "2c26b46...",
                     *           "content_type": "image/png",
                     *           "expires_at": "2026-11-22T00:00:41.000Z"
                     *         }
                     *       ],
                     *       "data": [
                     *         {
                     *           "url": "http://127.0.0.1:4701/reelay/outputs/imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0/image-1.png?X-Amz-Signature=..."
                     *         }
                     *       ],
                     *       "error": null
                     *     }
                     */
                    "application/json": {
                        /** @description The same URLs in OpenAI's shape. */
                        data?: {
                            url: string;
                        }[];
                        error: ({
                            /**
                             * @description The failure's class (reelay's job routes and events).
                             * @enum {string}
                             */
                            class?: "invalid_request" | "content_policy" | "rate_limited" | "upstream_transient" | "upstream_failed" | "timeout" | "queue_timeout" | "budget_exceeded" | "output_unavailable" | "internal";
                            code: string;
                            message: string;
                            /** @description The request field the upstream named in its refusal, when it named one. */
                            path?: string;
                            /** @description Whether the same request may succeed later (never for content_policy). */
                            retryable?: boolean;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        /** @description Every stored image, only once succeeded. */
                        images?: {
                            bytes: number;
                            content_type: string;
                            expires_at: string;
                            sha256: string;
                            /** @description Presigned GET of the S3 copy under outputs/<jobId>/. */
                            url: string;
                        }[];
                        model: string;
                        service_task: {
                            /**
                             * @description reelay's job status.
                             * @enum {string}
                             */
                            status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                            task_id: string;
                        };
                        /**
                         * @description reelay's job status.
                         * @enum {string}
                         */
                        status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                        task_id: string;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: The job belongs to another API key. `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "The job belongs to another API key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `job_not_found`: No job (of this kind) has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "job_not_found",
                     *         "message": "No job (of this kind) has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: DynamoDB, S3 or Step Functions did not answer; retry (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "DynamoDB, S3 or Step Functions did not answer; retry (Retry-After)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1ImagesEdits: {
        parameters: {
            query?: {
                /**
                 * @description true: run every check of the create (options, fit, the model's rules and lifecycle, upload references) and answer reelay's own `{dry_run, valid, model, requested_model, request, adjustments, warnings, estimate}`, making nothing: no job, no idempotency record, no upstream call, no charge. The key's limits and budgets are not checked nor taken. A bad request is the create's own 400.
                 * @example true
                 */
                dry_run?: boolean;
                /**
                 * @description Seconds to wait for the result (at most 60); wins over Prefer.
                 * @example 30
                 */
                wait?: number;
            };
            header?: {
                /**
                 * @description RFC 7240 `wait=<s>`, as an alternative to ?wait.
                 * @example respond-async, wait=30
                 */
                Prefer?: string;
                /**
                 * @description The same key with the same payload returns the same job; with a different payload, 409.
                 * @example order-1234
                 */
                "X-Idempotency-Key"?: string;
                /**
                 * @description `nearest`: a duration, resolution or aspect ratio (an image's size or ratio) the model refuses moves to the nearest one it allows, instead of a 400: a duration to the closest whole seconds (a tie to the longer), a resolution to the closest in lines (a tie to the higher), a ratio to the closest as a ratio (a tie to the one the model lists first). The job's `adjustments` lists each move as `{path, from, to}`. A material the model cannot take is refused all the same, and a request fitting cannot make valid is refused as asked. Batches: `fit` in the JSON body, or this header.
                 * @example nearest
                 */
                "X-Reelay-Fit"?: "nearest";
                /**
                 * @description Your own string pairs as a JSON object, at most 16 pairs, keys of 1 to 40 characters, values of at most 500; shown back as given in the job's view, job.json, its terminal event and webhooks and its batch's results, and listed by with GET /v1/jobs?metadata.KEY=VALUE. Characters outside ASCII as JSON \u escapes. Over the limits, not JSON, or a value not a string: 400 invalid_metadata naming the key. Batches: `metadata` in the JSON body (a line's own `metadata` laid over it), or this header.
                 * @example {"order":"42","customer":"c_981"}
                 */
                "X-Reelay-Metadata"?: string;
                /**
                 * @description `s3://<bucket>/<prefix>/`: the outputs are also copied there, as `<prefix><job id>/<file name>`, besides reelay's bucket; the bucket must be listed in REELAY_OUTPUT_BUCKETS. Batches: `output: {s3_prefix}` in the JSON body, or this header.
                 * @example s3://my-renders/campaign-7/
                 */
                "X-Reelay-Output-S3-Prefix"?: string;
                /**
                 * @description Admission order among the caller's own jobs while they wait for an upstream slot: high, normal (the default) or low. Callers are served in turn whatever their priorities.
                 * @example high
                 */
                "X-Reelay-Priority"?: "high" | "normal" | "low";
                /**
                 * @description Seconds the job may wait for an upstream slot (1 to REELAY_QUEUE_TIMEOUT_S); not admitted by then, it ends failed `queue_timeout`, charged false, its reservation released. Batches: `queue_timeout_s` in the JSON body, or this header.
                 * @example 60
                 */
                "X-Reelay-Queue-Timeout"?: number;
                /**
                 * @description Days the job's outputs are kept once stored (fractions allowed, at most 3650); default REELAY_RETENTION_DAYS, unset = for good. Then the job answers `outputs_expired: true` with no links, its record kept 30 days more. Batches: `retention_days` in the JSON body, or this header.
                 * @example 7
                 */
                "X-Reelay-Retention-Days"?: number;
                /**
                 * @description Pay once for the same request: a maximum age (`30m`, `12h`, `7d`, at most 365d) or `false` (the default). A request whose fingerprint (model, normalized request, each stored material's sha256) matches a job of the same project that succeeded within that age succeeds from a copy of its output, `reused_from` set, charged false, cost 0, no upstream call; identical requests in flight share one upstream task. Batches: `reuse` in the JSON body, or this header.
                 * @example 7d
                 */
                "X-Reelay-Reuse"?: string;
                /**
                 * @description The app's own opaque id for its end user (1-128 printable characters, no control characters): the job keeps it (view, job.json, events, webhooks, batch results), the key's `user_limits` hold per end user (429/402 for that user while the key's other users are served), `GET /v1/jobs?user=` finds its jobs and `GET /v1/usage?group_by=user` sums by it. Batches: `user` in the JSON body, or this header.
                 * @example user-4711
                 */
                "X-Reelay-User"?: string;
                /**
                 * @description The job's own webhook: its terminal event is POSTed there per Standard Webhooks, with the durable retry schedule, signed with the webhook secret of the API key that made it (a stored key: `reelay keys create` shows it once). The URL is checked at create: https to a public address on AWS (400 webhook_url_scheme, webhook_url_loopback, webhook_url_private or webhook_url_metadata otherwise).
                 * @example https://hooks.example.com/reelay
                 */
                "X-Reelay-Webhook"?: string;
                /**
                 * @description With X-Reelay-Webhook: the event types it receives, comma separated (Generation Succeeded, Generation Failed, Generation Cancelled, Batch Completed); default all.
                 * @example Generation Succeeded,Generation Failed
                 */
                "X-Reelay-Webhook-Events"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "model": "deltaq2-image",
                 *       "prompt": "replace the sky with a sunset",
                 *       "n": 1,
                 *       "size": "2K",
                 *       "response_format": "url",
                 *       "image": [
                 *         "(binary)"
                 *       ]
                 *     }
                 */
                "multipart/form-data": {
                    /** @description 1 to 7 image files (`image` or `image[]`). */
                    image: string[];
                    /** @description Image model code. */
                    model?: string;
                    /** @description Number of images. */
                    n?: number;
                    /** @description What to change. */
                    prompt: string;
                    /** @enum {string} */
                    response_format?: "url";
                    /** @description e.g. 2K or 1024x1024. */
                    size?: string;
                };
            };
        };
        responses: {
            /** @description The edit task (or, with the wait, `{created, data:[{url}]}`; with ?dry_run=true, the CreateDryRun named at x-dry-run). */
            200: {
                headers: {
                    /** @description RFC 9745: `@<unix seconds>` of the model's deprecated_at, when the model asked for is deprecated. */
                    Deprecation?: string;
                    /** @description RFC 8594: the HTTP-date of the model's sunset_at, from which creates on it are refused `model_sunset`. */
                    Sunset?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "service_task": {
                     *         "task_id": "imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0",
                     *         "status": "queued"
                     *       },
                     *       "task_id": "imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0",
                     *       "status": "queued",
                     *       "model": "deltaq2-image",
                     *       "requested_model": "deltaq2-image",
                     *       "warnings": [],
                     *       "estimate": {
                     *         "usage": {
                     *           "unit": "image",
                     *           "quantity": 1,
                     *           "tier": "2K",
                     *           "reference_images": 0
                     *         },
                     *         "cost": null,
                     *         "currency": null,
                     *         "price_version": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description fit (X-Reelay-Fit: nearest): each value the model refused, moved to the nearest one it allows; absent when nothing was moved. */
                        adjustments?: {
                            /** @description The value asked for. */
                            from: string | number;
                            /** @description The field fit moved, e.g. `duration_sec`. */
                            path: string;
                            /** @description The nearest value the model allows, sent. */
                            to: string | number;
                        }[];
                        /** @description What the job will use and (with a price table) cost. */
                        estimate: {
                            /** @description Under the price table (REELAY_PRICES); null unpriced. */
                            cost: number | null;
                            currency: string | null;
                            /** @description sha256 of the price table used. */
                            price_version: string | null;
                            /** @description What the job asks the upstream to make, in the units generation is billed in. */
                            usage: {
                                audio?: boolean;
                                quantity: number;
                                reference_images?: number;
                                /** @description Video: null = the model's default. */
                                resolution?: string | null;
                                /** @description Images: image_size; null = default. */
                                tier?: string | null;
                                /** @enum {string} */
                                unit: "video_second" | "image";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                        model: string;
                        /** @description The name the request gave: an alias (`gamma-latest`), or a sunset model whose successor runs; else `model` itself. */
                        requested_model: string;
                        /** @description The contract's task object (§2.5). */
                        service_task: {
                            /**
                             * @description reelay's job status.
                             * @enum {string}
                             */
                            status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                            task_id: string;
                        };
                        /**
                         * @description reelay's job status.
                         * @enum {string}
                         */
                        status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                        /** @description Top-level alias of service_task.task_id: `vidtsk_<ulid>` or `imgtsk_<ulid>`. */
                        task_id: string;
                        /** @description Soft rules the request broke; it went on anyway. */
                        warnings: {
                            /** @description Stable machine-readable code. */
                            code: string;
                            /** @description A sentence naming the allowed values where there are any. */
                            message: string;
                            /** @description Field path, e.g. `frame_images[1].frame_type`; empty for the whole body. */
                            path: string;
                        }[];
                    };
                };
            };
            /** @description `webhook_url_scheme`, `webhook_url_loopback`, `webhook_url_private`, `webhook_url_metadata`, `webhook_needs_stored_key`: The job's own webhook URL is refused (the code says why; error.path names the header or field), or it was asked for with the deployment's own key, which has no webhook secret. `invalid_json`, `invalid_request`, `invalid_idempotency_key`, `invalid_priority`, `invalid_queue_timeout`, `invalid_retention`, `invalid_output_target`, `output_bucket_not_allowed`, `invalid_reuse`, `invalid_fit`, `invalid_metadata`: The body is not JSON, breaks a model rule (every issue in error.errors, the first at error.path), or a header (the key, the priority, the queue timeout, the reuse age, the retention, the output prefix, the fit) is malformed; or the output prefix names a bucket outside REELAY_OUTPUT_BUCKETS. `model_sunset`: The model asked for (or the alias naming it) is past its sunset_at; the message names its successor (error.path = model). A key made with on_sunset: successor runs the successor instead. `invalid_content_type`, `invalid_multipart`, `unsupported_response_format`, `invalid_query`: Not multipart/form-data, a malformed form, a response_format other than url, or a bad wait or dry_run. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "webhook_url_scheme",
                     *         "message": "The job's own webhook URL is refused (the code says why; error.path names the header or field), or it was asked for with the deployment's own key, which has no webhook secret."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `budget_exceeded`: The job's estimate does not fit what is left of the API key's budget, or the deployment's, for the period (error.remaining, error.budget = key|deployment); nothing was made. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "budget_exceeded",
                     *         "message": "The job's estimate does not fit what is left of the API key's budget, or the deployment's, for the period (error.remaining, error.budget = key|deployment); nothing was made."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `write` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `write` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`: The X-Idempotency-Key was used before with a different payload (error.path = X-Idempotency-Key). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_conflict",
                     *         "message": "The X-Idempotency-Key was used before with a different payload (error.path = X-Idempotency-Key)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: The body is larger than the limit (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The body is larger than the limit (1 MiB by default)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `queue_full`: The key already has its limits' max_queued jobs waiting for a slot; nothing was made. `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "queue_full",
                     *         "message": "The key already has its limits' max_queued jobs waiting for a slot; nothing was made."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `upstream_task_failed`, `timeout`, `cancelled`: With the wait: the edit job failed or was cancelled (error.code is the job's). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "upstream_task_failed",
                     *         "message": "With the wait: the edit job failed or was cancelled (error.code is the job's)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `start_failed`, `service_unavailable`: The job was recorded but could not be started (it is marked failed), or a dependency did not answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "start_failed",
                     *         "message": "The job was recorded but could not be started (it is marked failed), or a dependency did not answer."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1Jobs: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page. */
                cursor?: string;
                /**
                 * @description Seconds: only jobs whose outputs expire between now and that far ahead (`reelay jobs --expiring 24h` is 86400).
                 * @example 86400
                 */
                expiring_within?: number;
                /**
                 * @description video or image.
                 * @example video
                 */
                kind?: "video" | "image";
                /**
                 * @description Page size, 1 to 100.
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description Only jobs for this model.
                 * @example gamma-3.1
                 */
                model?: string;
                /**
                 * @description Where the job came from.
                 * @example api
                 */
                source?: string;
                /**
                 * @description Only jobs in this status.
                 * @example succeeded
                 */
                status?: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                /**
                 * @description Only jobs made for this end user (`user` / X-Reelay-User).
                 * @example user-4711
                 */
                user?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of jobs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T",
                     *           "kind": "video",
                     *           "status": "succeeded",
                     *           "model": "gamma-3.1",
                     *           "requested_model": "gamma-latest",
                     *           "mode": "text",
                     *           "request": {
                     *             "model": "gamma-3.1",
                     *             "prompt": "a paper boat in the rain",
                     *             "duration_sec": 8,
                     *             "generate_audio": false
                     *           },
                     *           "warnings": [],
                     *           "source": {
                     *             "type": "api"
                     *           },
                     *           "upstreamTaskId": "vidtsk_upstream123",
                     *           "usage": {
                     *             "unit": "video_second",
                     *             "quantity": 8,
                     *             "resolution": null,
                     *             "audio": false
                     *           },
                     *           "estimate": {
                     *             "cost": 0.4,
                     *             "currency": "USD",
                     *             "price_version": "5d41402abc4b2a76b9719d911017c592"
                     *           },
                     *           "cost": 0.4,
                     *           "charged": true,
                     *           "priority": "normal",
                     *           "upstream": {
                     *             "account": "default",
                     *             "task_id": "vidtsk_upstream123"
                     *           },
                     *           "attempts": [
                     *             {
                     *               "account": "default",
                     *               "task_id": "vidtsk_upstream123",
                     *               "outcome": "succeeded",
                     *               "charged": true,
                     *               "cost": 0.4
                     *             }
                     *           ],
                     *           "polls": 9,
                     *           "outputs": [
                     *             {
                     *               "bucket": "reelay",
                     *               "key": "outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/video.mp4",
                     *               "bytes": 1048576,
                     *               "sha256": "9f86d08...",
                     *               "contentType": "video/mp4",
                     *               "media": {
                     *                 "duration_s": 8,
                     *                 "width": 1280,
                     *                 "height": 720,
                     *                 "codec": "h264",
                     *                 "fps": 24,
                     *                 "bytes": 1048576
                     *               },
                     *               "url": "http://127.0.0.1:4701/reelay/outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/video.mp4?X-Amz-Signature=...",
                     *               "expiresAt": "2026-11-22T00:00:41.000Z"
                     *             }
                     *           ],
                     *           "media": {
                     *             "duration_s": 8,
                     *             "width": 1280,
                     *             "height": 720,
                     *             "codec": "h264",
                     *             "fps": 24,
                     *             "bytes": 1048576
                     *           },
                     *           "retention_days": 30,
                     *           "created_by_version": "0.1.0",
                     *           "expires_at": "2026-12-22T00:00:41.000Z",
                     *           "outputs_expired": false,
                     *           "output_target": null,
                     *           "metadata": {
                     *             "order": "42"
                     *           },
                     *           "previews": {
                     *             "thumbnail": {
                     *               "key": "outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/thumbnail.jpg",
                     *               "bytes": 31022,
                     *               "contentType": "image/jpeg",
                     *               "width": 640,
                     *               "height": 360,
                     *               "url": "https://reelay.s3.amazonaws.com/outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/thumbnail.jpg?X-Amz-Signature=..."
                     *             },
                     *             "spritesheet": {
                     *               "key": "outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/spritesheet.jpg",
                     *               "bytes": 48211,
                     *               "contentType": "image/jpeg",
                     *               "width": 800,
                     *               "height": 180,
                     *               "url": "https://reelay.s3.amazonaws.com/outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/spritesheet.jpg?X-Amz-Signature=...",
                     *               "columns": 5,
                     *               "rows": 2,
                     *               "frames": 10,
                     *               "frameWidth": 160,
                     *               "frameHeight": 90,
                     *               "intervalS": 0.8
                     *             }
                     *           },
                     *           "error": null,
                     *           "history": [
                     *             {
                     *               "status": "queued",
                     *               "at": "2026-11-22T00:00:00.000Z"
                     *             },
                     *             {
                     *               "status": "running",
                     *               "at": "2026-11-22T00:00:00.000Z"
                     *             },
                     *             {
                     *               "status": "downloading",
                     *               "at": "2026-11-22T00:00:41.000Z"
                     *             },
                     *             {
                     *               "status": "succeeded",
                     *               "at": "2026-11-22T00:00:41.000Z"
                     *             }
                     *           ],
                     *           "timings": {
                     *             "createdAt": "2026-11-22T00:00:00.000Z",
                     *             "updatedAt": "2026-11-22T00:00:41.000Z",
                     *             "submittedAt": "2026-11-22T00:00:00.000Z",
                     *             "upstreamDoneAt": "2026-11-22T00:00:41.000Z",
                     *             "finishedAt": "2026-11-22T00:00:41.000Z",
                     *             "deadlineAt": null,
                     *             "totalMs": 41000
                     *           }
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": {
                        data: ({
                            /** @description fit (X-Reelay-Fit: nearest): each value the model refused, moved to the nearest one it allows; absent when nothing was moved. */
                            adjustments?: {
                                /** @description The value asked for. */
                                from: string | number;
                                /** @description The field fit moved, e.g. `duration_sec`. */
                                path: string;
                                /** @description The nearest value the model allows, sent. */
                                to: string | number;
                            }[];
                            /** @description Each upstream attempt: tries whose task failed on another account (REELAY_FALLBACK_ATTEMPTS), then the current one. The job's cost is their sum. */
                            attempts: {
                                account: string;
                                charged: (boolean | "unknown") | null;
                                cost: number | null;
                                outcome: string;
                                task_id: string | null;
                            }[];
                            /** @description Once ended: false when no upstream task was made, true when one was (succeeded or cancelled while generating), unknown for a failed task. */
                            charged: (boolean | "unknown") | null;
                            /** @description What the job cost once ended (0 when not charged); null while running or unpriced. */
                            cost: number | null;
                            /** @description The reelay release that made the job; null for a job made before 0.1.0. */
                            created_by_version: string | null;
                            error: ({
                                /**
                                 * @description The failure's class (reelay's job routes and events).
                                 * @enum {string}
                                 */
                                class?: "invalid_request" | "content_policy" | "rate_limited" | "upstream_transient" | "upstream_failed" | "timeout" | "queue_timeout" | "budget_exceeded" | "output_unavailable" | "internal";
                                code: string;
                                message: string;
                                /** @description The request field the upstream named in its refusal, when it named one. */
                                path?: string;
                                /** @description Whether the same request may succeed later (never for content_policy). */
                                retryable?: boolean;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            /** @description The cost estimated when the job was made. */
                            estimate: {
                                /** @description Under the price table (REELAY_PRICES); null unpriced. */
                                cost: number | null;
                                currency: string | null;
                                /** @description sha256 of the price table used. */
                                price_version: string | null;
                            };
                            /** @description When the outputs expire; null before they are stored, or when kept for good. */
                            expires_at: string | null;
                            /** @description Every state the job went through, with timestamps. */
                            history: ({
                                at: string;
                                status: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            id: string;
                            /** @enum {string} */
                            kind: "video" | "image";
                            /** @description The (first) output's media; null until downloaded. A difference from the request is an `output_mismatch` warning. */
                            media: {
                                bytes: number;
                                /** @description ffprobe's codec name (h264, hevc, av1) or the image format. */
                                codec: string;
                                /** @description Seconds; null for an image. */
                                duration_s: number | null;
                                /** @description Frames per second; null for an image. */
                                fps: number | null;
                                height: number;
                                width: number;
                            } | null;
                            /** @description Your own string pairs (metadata / X-Reelay-Metadata) as given; {} when none. */
                            metadata: {
                                [key: string]: string;
                            };
                            mode: string;
                            model: string;
                            /** @description Where the outputs are copied besides reelay's bucket (output.s3_prefix). */
                            output_target: {
                                s3_prefix: string;
                            } | null;
                            outputs: {
                                bucket: string;
                                bytes: number;
                                contentType: string;
                                /** @description The copy in the job's output.s3_prefix: `<prefix><job id>/<file name>`. */
                                delivered?: {
                                    bucket: string;
                                    key: string;
                                };
                                /** @description When the link ends: never after the job's expires_at. */
                                expiresAt: string | null;
                                /** @description outputs/<jobId>/... */
                                key: string;
                                /** @description What the stored output is, read from its MP4 boxes or image header, never decoded. */
                                media?: {
                                    bytes: number;
                                    /** @description ffprobe's codec name (h264, hevc, av1) or the image format. */
                                    codec: string;
                                    /** @description Seconds; null for an image. */
                                    duration_s: number | null;
                                    /** @description Frames per second; null for an image. */
                                    fps: number | null;
                                    height: number;
                                    width: number;
                                };
                                sha256: string;
                                /** @description Presigned GET; null until succeeded, and again once the outputs expired. */
                                url: string | null;
                            }[];
                            /** @description True once expires_at passed: the record stays, its outputs have no links. */
                            outputs_expired: boolean;
                            polls: number;
                            previews: {
                                spritesheet: {
                                    bytes: number;
                                    columns: number;
                                    contentType: string;
                                    frameHeight: number;
                                    frames: number;
                                    frameWidth: number;
                                    height: number;
                                    /** @description Seconds of video between two frames; the first is at 0. */
                                    intervalS: number;
                                    /** @description outputs/<jobId>/thumbnail.jpg or spritesheet.jpg */
                                    key: string;
                                    rows: number;
                                    /** @description Presigned GET. */
                                    url: string;
                                    width: number;
                                };
                                thumbnail: {
                                    bytes: number;
                                    contentType: string;
                                    height: number;
                                    /** @description outputs/<jobId>/thumbnail.jpg or spritesheet.jpg */
                                    key: string;
                                    /** @description Presigned GET. */
                                    url: string;
                                    width: number;
                                };
                            } | null;
                            /**
                             * @description Admission order among the caller's own jobs (X-Reelay-Priority).
                             * @enum {string}
                             */
                            priority: "high" | "normal" | "low";
                            /** @description While the job waits for an upstream slot: its place among the same caller's waiting jobs (1 = next; approximate). */
                            queue_position?: number;
                            /** @description The normalised request (presigned URLs shown without their signature). */
                            request: {
                                [key: string]: unknown;
                            };
                            /** @description The name the request gave: an alias (`gamma-latest`), or a sunset model whose successor runs; else `model` itself. */
                            requested_model: string;
                            /** @description Days the outputs are kept once stored (retention_days, else REELAY_RETENTION_DAYS); null = for good. */
                            retention_days: number | null;
                            /** @description Where the job came from; a drop names its S3 object. */
                            source: {
                                bucket?: string;
                                key?: string;
                                line?: number;
                                /** @enum {string} */
                                type: "api" | "drop" | "cli";
                            } & {
                                [key: string]: unknown;
                            };
                            /**
                             * @description reelay's job status.
                             * @enum {string}
                             */
                            status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                            timings: {
                                createdAt: string;
                                totalMs: number | null;
                                updatedAt: string;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description The upstream account the job is pinned to (`default` without a pool) and its task there; every poll and download uses that account. */
                            upstream: {
                                account: string;
                                task_id: string | null;
                            } | null;
                            upstreamTaskId: string | null;
                            /** @description What the job asks the upstream to make, in the units generation is billed in. */
                            usage: {
                                audio?: boolean;
                                quantity: number;
                                reference_images?: number;
                                /** @description Video: null = the model's default. */
                                resolution?: string | null;
                                /** @description Images: image_size; null = default. */
                                tier?: string | null;
                                /** @enum {string} */
                                unit: "video_second" | "image";
                            } & {
                                [key: string]: unknown;
                            };
                            warnings: {
                                /** @description Stable machine-readable code. */
                                code: string;
                                /** @description A sentence naming the allowed values where there are any. */
                                message: string;
                                /** @description Field path, e.g. `frame_images[1].frame_type`; empty for the whole body. */
                                path: string;
                            }[];
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description `invalid_query`, `invalid_cursor`, `invalid_metadata`: A filter or the limit is out of range, or the cursor is not one this service returned. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_query",
                     *         "message": "A filter or the limit is out of range, or the cursor is not one this service returned."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `read` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: DynamoDB, S3 or Step Functions did not answer; retry (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "DynamoDB, S3 or Step Functions did not answer; retry (Retry-After)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1JobsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T",
                     *       "kind": "video",
                     *       "status": "succeeded",
                     *       "model": "gamma-3.1",
                     *       "requested_model": "gamma-latest",
                     *       "mode": "text",
                     *       "request": {
                     *         "model": "gamma-3.1",
                     *         "prompt": "a paper boat in the rain",
                     *         "duration_sec": 8,
                     *         "generate_audio": false
                     *       },
                     *       "warnings": [],
                     *       "source": {
                     *         "type": "api"
                     *       },
                     *       "upstreamTaskId": "vidtsk_upstream123",
                     *       "usage": {
                     *         "unit": "video_second",
                     *         "quantity": 8,
                     *         "resolution": null,
                     *         "audio": false
                     *       },
                     *       "estimate": {
                     *         "cost": 0.4,
                     *         "currency": "USD",
                     *         "price_version": "5d41402abc4b2a76b9719d911017c592"
                     *       },
                     *       "cost": 0.4,
                     *       "charged": true,
                     *       "priority": "normal",
                     *       "upstream": {
                     *         "account": "default",
                     *         "task_id": "vidtsk_upstream123"
                     *       },
                     *       "attempts": [
                     *         {
                     *           "account": "default",
                     *           "task_id": "vidtsk_upstream123",
                     *           "outcome": "succeeded",
                     *           "charged": true,
                     *           "cost": 0.4
                     *         }
                     *       ],
                     *       "polls": 9,
                     *       "outputs": [
                     *         {
                     *           "bucket": "reelay",
                     *           "key": "outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/video.mp4",
                     *           "bytes": 1048576,
                     *           "sha256": "9f86d08...",
                     *           "contentType": "video/mp4",
                     *           "media": {
                     *             "duration_s": 8,
                     *             "width": 1280,
                     *             "height": 720,
                     *             "codec": "h264",
                     *             "fps": 24,
                     *             "bytes": 1048576
                     *           },
                     *           "url": "http://127.0.0.1:4701/reelay/outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/video.mp4?X-Amz-Signature=...",
                     *           "expiresAt": "2026-11-22T00:00:41.000Z"
                     *         }
                     *       ],
                     *       "media": {
                     *         "duration_s": 8,
                     *         "width": 1280,
                     *         "height": 720,
                     *         "codec": "h264",
                     *         "fps": 24,
                     *         "bytes": 1048576
                     *       },
                     *       "retention_days": 30,
                     *       "created_by_version": "0.1.0",
                     *       "expires_at": "2026-12-22T00:00:41.000Z",
                     *       "outputs_expired": false,
                     *       "output_target": null,
                     *       "metadata": {
                     *         "order": "42"
                     *       },
                     *       "previews": {
                     *         "thumbnail": {
                     *           "key": "outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/thumbnail.jpg",
                     *           "bytes": 31022,
                     *           "contentType": "image/jpeg",
                     *           "width": 640,
                     *           "height": 360,
                     *           "url": "https://reelay.s3.amazonaws.com/outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/thumbnail.jpg?X-Amz-Signature=..."
                     *         },
                     *         "spritesheet": {
                     *           "key": "outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/spritesheet.jpg",
                     *           "bytes": 48211,
                     *           "contentType": "image/jpeg",
                     *           "width": 800,
                     *           "height": 180,
                     *           "url": "https://reelay.s3.amazonaws.com/outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/spritesheet.jpg?X-Amz-Signature=...",
                     *           "columns": 5,
                     *           "rows": 2,
                     *           "frames": 10,
                     *           "frameWidth": 160,
                     *           "frameHeight": 90,
                     *           "intervalS": 0.8
                     *         }
                     *       },
                     *       "error": null,
                     *       "history": [
                     *         {
                     *           "status": "queued",
                     *           "at": "2026-11-22T00:00:00.000Z"
                     *         },
                     *         {
                     *           "status": "running",
                     *           "at": "2026-11-22T00:00:00.000Z"
                     *         },
                     *         {
                     *           "status": "downloading",
                     *           "at": "2026-11-22T00:00:41.000Z"
                     *         },
                     *         {
                     *           "status": "succeeded",
                     *           "at": "2026-11-22T00:00:41.000Z"
                     *         }
                     *       ],
                     *       "timings": {
                     *         "createdAt": "2026-11-22T00:00:00.000Z",
                     *         "updatedAt": "2026-11-22T00:00:41.000Z",
                     *         "submittedAt": "2026-11-22T00:00:00.000Z",
                     *         "upstreamDoneAt": "2026-11-22T00:00:41.000Z",
                     *         "finishedAt": "2026-11-22T00:00:41.000Z",
                     *         "deadlineAt": null,
                     *         "totalMs": 41000
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description fit (X-Reelay-Fit: nearest): each value the model refused, moved to the nearest one it allows; absent when nothing was moved. */
                        adjustments?: {
                            /** @description The value asked for. */
                            from: string | number;
                            /** @description The field fit moved, e.g. `duration_sec`. */
                            path: string;
                            /** @description The nearest value the model allows, sent. */
                            to: string | number;
                        }[];
                        /** @description Each upstream attempt: tries whose task failed on another account (REELAY_FALLBACK_ATTEMPTS), then the current one. The job's cost is their sum. */
                        attempts: {
                            account: string;
                            charged: (boolean | "unknown") | null;
                            cost: number | null;
                            outcome: string;
                            task_id: string | null;
                        }[];
                        /** @description Once ended: false when no upstream task was made, true when one was (succeeded or cancelled while generating), unknown for a failed task. */
                        charged: (boolean | "unknown") | null;
                        /** @description What the job cost once ended (0 when not charged); null while running or unpriced. */
                        cost: number | null;
                        /** @description The reelay release that made the job; null for a job made before 0.1.0. */
                        created_by_version: string | null;
                        error: ({
                            /**
                             * @description The failure's class (reelay's job routes and events).
                             * @enum {string}
                             */
                            class?: "invalid_request" | "content_policy" | "rate_limited" | "upstream_transient" | "upstream_failed" | "timeout" | "queue_timeout" | "budget_exceeded" | "output_unavailable" | "internal";
                            code: string;
                            message: string;
                            /** @description The request field the upstream named in its refusal, when it named one. */
                            path?: string;
                            /** @description Whether the same request may succeed later (never for content_policy). */
                            retryable?: boolean;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        /** @description The cost estimated when the job was made. */
                        estimate: {
                            /** @description Under the price table (REELAY_PRICES); null unpriced. */
                            cost: number | null;
                            currency: string | null;
                            /** @description sha256 of the price table used. */
                            price_version: string | null;
                        };
                        /** @description When the outputs expire; null before they are stored, or when kept for good. */
                        expires_at: string | null;
                        /** @description Every state the job went through, with timestamps. */
                        history: ({
                            at: string;
                            status: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        id: string;
                        /** @enum {string} */
                        kind: "video" | "image";
                        /** @description The (first) output's media; null until downloaded. A difference from the request is an `output_mismatch` warning. */
                        media: {
                            bytes: number;
                            /** @description ffprobe's codec name (h264, hevc, av1) or the image format. */
                            codec: string;
                            /** @description Seconds; null for an image. */
                            duration_s: number | null;
                            /** @description Frames per second; null for an image. */
                            fps: number | null;
                            height: number;
                            width: number;
                        } | null;
                        /** @description Your own string pairs (metadata / X-Reelay-Metadata) as given; {} when none. */
                        metadata: {
                            [key: string]: string;
                        };
                        mode: string;
                        model: string;
                        /** @description Where the outputs are copied besides reelay's bucket (output.s3_prefix). */
                        output_target: {
                            s3_prefix: string;
                        } | null;
                        outputs: {
                            bucket: string;
                            bytes: number;
                            contentType: string;
                            /** @description The copy in the job's output.s3_prefix: `<prefix><job id>/<file name>`. */
                            delivered?: {
                                bucket: string;
                                key: string;
                            };
                            /** @description When the link ends: never after the job's expires_at. */
                            expiresAt: string | null;
                            /** @description outputs/<jobId>/... */
                            key: string;
                            /** @description What the stored output is, read from its MP4 boxes or image header, never decoded. */
                            media?: {
                                bytes: number;
                                /** @description ffprobe's codec name (h264, hevc, av1) or the image format. */
                                codec: string;
                                /** @description Seconds; null for an image. */
                                duration_s: number | null;
                                /** @description Frames per second; null for an image. */
                                fps: number | null;
                                height: number;
                                width: number;
                            };
                            sha256: string;
                            /** @description Presigned GET; null until succeeded, and again once the outputs expired. */
                            url: string | null;
                        }[];
                        /** @description True once expires_at passed: the record stays, its outputs have no links. */
                        outputs_expired: boolean;
                        polls: number;
                        previews: {
                            spritesheet: {
                                bytes: number;
                                columns: number;
                                contentType: string;
                                frameHeight: number;
                                frames: number;
                                frameWidth: number;
                                height: number;
                                /** @description Seconds of video between two frames; the first is at 0. */
                                intervalS: number;
                                /** @description outputs/<jobId>/thumbnail.jpg or spritesheet.jpg */
                                key: string;
                                rows: number;
                                /** @description Presigned GET. */
                                url: string;
                                width: number;
                            };
                            thumbnail: {
                                bytes: number;
                                contentType: string;
                                height: number;
                                /** @description outputs/<jobId>/thumbnail.jpg or spritesheet.jpg */
                                key: string;
                                /** @description Presigned GET. */
                                url: string;
                                width: number;
                            };
                        } | null;
                        /**
                         * @description Admission order among the caller's own jobs (X-Reelay-Priority).
                         * @enum {string}
                         */
                        priority: "high" | "normal" | "low";
                        /** @description While the job waits for an upstream slot: its place among the same caller's waiting jobs (1 = next; approximate). */
                        queue_position?: number;
                        /** @description The normalised request (presigned URLs shown without their signature). */
                        request: {
                            [key: string]: unknown;
                        };
                        /** @description The name the request gave: an alias (`gamma-latest`), or a sunset model whose successor runs; else `model` itself. */
                        requested_model: string;
                        /** @description Days the outputs are kept once stored (retention_days, else REELAY_RETENTION_DAYS); null = for good. */
                        retention_days: number | null;
                        /** @description Where the job came from; a drop names its S3 object. */
                        source: {
                            bucket?: string;
                            key?: string;
                            line?: number;
                            /** @enum {string} */
                            type: "api" | "drop" | "cli";
                        } & {
                            [key: string]: unknown;
                        };
                        /**
                         * @description reelay's job status.
                         * @enum {string}
                         */
                        status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                        timings: {
                            createdAt: string;
                            totalMs: number | null;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @description The upstream account the job is pinned to (`default` without a pool) and its task there; every poll and download uses that account. */
                        upstream: {
                            account: string;
                            task_id: string | null;
                        } | null;
                        upstreamTaskId: string | null;
                        /** @description What the job asks the upstream to make, in the units generation is billed in. */
                        usage: {
                            audio?: boolean;
                            quantity: number;
                            reference_images?: number;
                            /** @description Video: null = the model's default. */
                            resolution?: string | null;
                            /** @description Images: image_size; null = default. */
                            tier?: string | null;
                            /** @enum {string} */
                            unit: "video_second" | "image";
                        } & {
                            [key: string]: unknown;
                        };
                        warnings: {
                            /** @description Stable machine-readable code. */
                            code: string;
                            /** @description A sentence naming the allowed values where there are any. */
                            message: string;
                            /** @description Field path, e.g. `frame_images[1].frame_type`; empty for the whole body. */
                            path: string;
                        }[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: The job belongs to another API key. `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "The job belongs to another API key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `job_not_found`: No job (of this kind) has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "job_not_found",
                     *         "message": "No job (of this kind) has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: DynamoDB, S3 or Step Functions did not answer; retry (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "DynamoDB, S3 or Step Functions did not answer; retry (Retry-After)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1JobsIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job after cancelling. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T",
                     *       "kind": "video",
                     *       "status": "cancelled",
                     *       "model": "gamma-3.1",
                     *       "requested_model": "gamma-latest",
                     *       "mode": "text",
                     *       "request": {
                     *         "model": "gamma-3.1",
                     *         "prompt": "a paper boat in the rain",
                     *         "duration_sec": 8,
                     *         "generate_audio": false
                     *       },
                     *       "warnings": [],
                     *       "source": {
                     *         "type": "api"
                     *       },
                     *       "upstreamTaskId": "vidtsk_upstream123",
                     *       "usage": {
                     *         "unit": "video_second",
                     *         "quantity": 8,
                     *         "resolution": null,
                     *         "audio": false
                     *       },
                     *       "estimate": {
                     *         "cost": 0.4,
                     *         "currency": "USD",
                     *         "price_version": "5d41402abc4b2a76b9719d911017c592"
                     *       },
                     *       "cost": 0.4,
                     *       "charged": true,
                     *       "priority": "normal",
                     *       "upstream": {
                     *         "account": "default",
                     *         "task_id": "vidtsk_upstream123"
                     *       },
                     *       "attempts": [
                     *         {
                     *           "account": "default",
                     *           "task_id": "vidtsk_upstream123",
                     *           "outcome": "succeeded",
                     *           "charged": true,
                     *           "cost": 0.4
                     *         }
                     *       ],
                     *       "polls": 9,
                     *       "outputs": [],
                     *       "media": null,
                     *       "retention_days": 30,
                     *       "created_by_version": "0.1.0",
                     *       "expires_at": "2026-12-22T00:00:41.000Z",
                     *       "outputs_expired": false,
                     *       "output_target": null,
                     *       "metadata": {
                     *         "order": "42"
                     *       },
                     *       "previews": null,
                     *       "error": {
                     *         "code": "cancelled",
                     *         "message": "Cancelled by the caller."
                     *       },
                     *       "history": [
                     *         {
                     *           "status": "queued",
                     *           "at": "2026-11-22T00:00:00.000Z"
                     *         },
                     *         {
                     *           "status": "running",
                     *           "at": "2026-11-22T00:00:00.000Z"
                     *         },
                     *         {
                     *           "status": "downloading",
                     *           "at": "2026-11-22T00:00:41.000Z"
                     *         },
                     *         {
                     *           "status": "succeeded",
                     *           "at": "2026-11-22T00:00:41.000Z"
                     *         }
                     *       ],
                     *       "timings": {
                     *         "createdAt": "2026-11-22T00:00:00.000Z",
                     *         "updatedAt": "2026-11-22T00:00:41.000Z",
                     *         "submittedAt": "2026-11-22T00:00:00.000Z",
                     *         "upstreamDoneAt": "2026-11-22T00:00:41.000Z",
                     *         "finishedAt": "2026-11-22T00:00:41.000Z",
                     *         "deadlineAt": null,
                     *         "totalMs": 41000
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description fit (X-Reelay-Fit: nearest): each value the model refused, moved to the nearest one it allows; absent when nothing was moved. */
                        adjustments?: {
                            /** @description The value asked for. */
                            from: string | number;
                            /** @description The field fit moved, e.g. `duration_sec`. */
                            path: string;
                            /** @description The nearest value the model allows, sent. */
                            to: string | number;
                        }[];
                        /** @description Each upstream attempt: tries whose task failed on another account (REELAY_FALLBACK_ATTEMPTS), then the current one. The job's cost is their sum. */
                        attempts: {
                            account: string;
                            charged: (boolean | "unknown") | null;
                            cost: number | null;
                            outcome: string;
                            task_id: string | null;
                        }[];
                        /** @description Once ended: false when no upstream task was made, true when one was (succeeded or cancelled while generating), unknown for a failed task. */
                        charged: (boolean | "unknown") | null;
                        /** @description What the job cost once ended (0 when not charged); null while running or unpriced. */
                        cost: number | null;
                        /** @description The reelay release that made the job; null for a job made before 0.1.0. */
                        created_by_version: string | null;
                        error: ({
                            /**
                             * @description The failure's class (reelay's job routes and events).
                             * @enum {string}
                             */
                            class?: "invalid_request" | "content_policy" | "rate_limited" | "upstream_transient" | "upstream_failed" | "timeout" | "queue_timeout" | "budget_exceeded" | "output_unavailable" | "internal";
                            code: string;
                            message: string;
                            /** @description The request field the upstream named in its refusal, when it named one. */
                            path?: string;
                            /** @description Whether the same request may succeed later (never for content_policy). */
                            retryable?: boolean;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        /** @description The cost estimated when the job was made. */
                        estimate: {
                            /** @description Under the price table (REELAY_PRICES); null unpriced. */
                            cost: number | null;
                            currency: string | null;
                            /** @description sha256 of the price table used. */
                            price_version: string | null;
                        };
                        /** @description When the outputs expire; null before they are stored, or when kept for good. */
                        expires_at: string | null;
                        /** @description Every state the job went through, with timestamps. */
                        history: ({
                            at: string;
                            status: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        id: string;
                        /** @enum {string} */
                        kind: "video" | "image";
                        /** @description The (first) output's media; null until downloaded. A difference from the request is an `output_mismatch` warning. */
                        media: {
                            bytes: number;
                            /** @description ffprobe's codec name (h264, hevc, av1) or the image format. */
                            codec: string;
                            /** @description Seconds; null for an image. */
                            duration_s: number | null;
                            /** @description Frames per second; null for an image. */
                            fps: number | null;
                            height: number;
                            width: number;
                        } | null;
                        /** @description Your own string pairs (metadata / X-Reelay-Metadata) as given; {} when none. */
                        metadata: {
                            [key: string]: string;
                        };
                        mode: string;
                        model: string;
                        /** @description Where the outputs are copied besides reelay's bucket (output.s3_prefix). */
                        output_target: {
                            s3_prefix: string;
                        } | null;
                        outputs: {
                            bucket: string;
                            bytes: number;
                            contentType: string;
                            /** @description The copy in the job's output.s3_prefix: `<prefix><job id>/<file name>`. */
                            delivered?: {
                                bucket: string;
                                key: string;
                            };
                            /** @description When the link ends: never after the job's expires_at. */
                            expiresAt: string | null;
                            /** @description outputs/<jobId>/... */
                            key: string;
                            /** @description What the stored output is, read from its MP4 boxes or image header, never decoded. */
                            media?: {
                                bytes: number;
                                /** @description ffprobe's codec name (h264, hevc, av1) or the image format. */
                                codec: string;
                                /** @description Seconds; null for an image. */
                                duration_s: number | null;
                                /** @description Frames per second; null for an image. */
                                fps: number | null;
                                height: number;
                                width: number;
                            };
                            sha256: string;
                            /** @description Presigned GET; null until succeeded, and again once the outputs expired. */
                            url: string | null;
                        }[];
                        /** @description True once expires_at passed: the record stays, its outputs have no links. */
                        outputs_expired: boolean;
                        polls: number;
                        previews: {
                            spritesheet: {
                                bytes: number;
                                columns: number;
                                contentType: string;
                                frameHeight: number;
                                frames: number;
                                frameWidth: number;
                                height: number;
                                /** @description Seconds of video between two frames; the first is at 0. */
                                intervalS: number;
                                /** @description outputs/<jobId>/thumbnail.jpg or spritesheet.jpg */
                                key: string;
                                rows: number;
                                /** @description Presigned GET. */
                                url: string;
                                width: number;
                            };
                            thumbnail: {
                                bytes: number;
                                contentType: string;
                                height: number;
                                /** @description outputs/<jobId>/thumbnail.jpg or spritesheet.jpg */
                                key: string;
                                /** @description Presigned GET. */
                                url: string;
                                width: number;
                            };
                        } | null;
                        /**
                         * @description Admission order among the caller's own jobs (X-Reelay-Priority).
                         * @enum {string}
                         */
                        priority: "high" | "normal" | "low";
                        /** @description While the job waits for an upstream slot: its place among the same caller's waiting jobs (1 = next; approximate). */
                        queue_position?: number;
                        /** @description The normalised request (presigned URLs shown without their signature). */
                        request: {
                            [key: string]: unknown;
                        };
                        /** @description The name the request gave: an alias (`gamma-latest`), or a sunset model whose successor runs; else `model` itself. */
                        requested_model: string;
                        /** @description Days the outputs are kept once stored (retention_days, else REELAY_RETENTION_DAYS); null = for good. */
                        retention_days: number | null;
                        /** @description Where the job came from; a drop names its S3 object. */
                        source: {
                            bucket?: string;
                            key?: string;
                            line?: number;
                            /** @enum {string} */
                            type: "api" | "drop" | "cli";
                        } & {
                            [key: string]: unknown;
                        };
                        /**
                         * @description reelay's job status.
                         * @enum {string}
                         */
                        status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                        timings: {
                            createdAt: string;
                            totalMs: number | null;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @description The upstream account the job is pinned to (`default` without a pool) and its task there; every poll and download uses that account. */
                        upstream: {
                            account: string;
                            task_id: string | null;
                        } | null;
                        upstreamTaskId: string | null;
                        /** @description What the job asks the upstream to make, in the units generation is billed in. */
                        usage: {
                            audio?: boolean;
                            quantity: number;
                            reference_images?: number;
                            /** @description Video: null = the model's default. */
                            resolution?: string | null;
                            /** @description Images: image_size; null = default. */
                            tier?: string | null;
                            /** @enum {string} */
                            unit: "video_second" | "image";
                        } & {
                            [key: string]: unknown;
                        };
                        warnings: {
                            /** @description Stable machine-readable code. */
                            code: string;
                            /** @description A sentence naming the allowed values where there are any. */
                            message: string;
                            /** @description Field path, e.g. `frame_images[1].frame_type`; empty for the whole body. */
                            path: string;
                        }[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: The job belongs to another API key. `scope_missing`: The key lacks the `write` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "The job belongs to another API key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `job_not_found`: No job (of this kind) has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "job_not_found",
                     *         "message": "No job (of this kind) has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `job_not_cancellable`: The job is already succeeded, failed or cancelled. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "job_not_cancellable",
                     *         "message": "The job is already succeeded, failed or cancelled."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: DynamoDB, S3 or Step Functions did not answer; retry (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "DynamoDB, S3 or Step Functions did not answer; retry (Retry-After)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1JobsIdContent: {
        parameters: {
            query?: {
                /**
                 * @description video (default), thumbnail or spritesheet.
                 * @example thumbnail
                 */
                variant?: "video" | "thumbnail" | "spritesheet";
            };
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Location: a presigned GET of the object, valid for the presign TTL. */
            302: {
                headers: {
                    /** @description The presigned URL. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example  */
                    "text/plain": unknown;
                };
            };
            /** @description `invalid_query`: variant is not video, thumbnail or spritesheet (error.path is `variant`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_query",
                     *         "message": "variant is not video, thumbnail or spritesheet (error.path is `variant`)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: The job belongs to another API key. `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "The job belongs to another API key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `job_not_found`: No job (of this kind) has that id. `content_not_found`: The job is not succeeded, or has no such variant (an image's thumbnail, a video that could not be decoded). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "job_not_found",
                     *         "message": "No job (of this kind) has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: DynamoDB, S3 or Step Functions did not answer; retry (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "DynamoDB, S3 or Step Functions did not answer; retry (Retry-After)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1JobsIdEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job's stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example id: 1-1732700000000
                     *     event: status
                     *     data: {"id":"vidtsk_...","status":"queued","at":"2026-11-27T10:00:00.000Z"}
                     */
                    "text/event-stream": unknown;
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `read` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `job_not_found`: No job (of this kind) has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "job_not_found",
                     *         "message": "No job (of this kind) has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1JobsIdRetry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "prompt": "a paper boat in the rain, seen from above"
                 *     }
                 */
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The new job. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T",
                     *       "kind": "video",
                     *       "status": "queued",
                     *       "model": "gamma-3.1",
                     *       "requested_model": "gamma-latest",
                     *       "mode": "text",
                     *       "request": {
                     *         "model": "gamma-3.1",
                     *         "prompt": "a paper boat in the rain",
                     *         "duration_sec": 8,
                     *         "generate_audio": false
                     *       },
                     *       "warnings": [],
                     *       "source": {
                     *         "type": "api"
                     *       },
                     *       "upstreamTaskId": "vidtsk_upstream123",
                     *       "usage": {
                     *         "unit": "video_second",
                     *         "quantity": 8,
                     *         "resolution": null,
                     *         "audio": false
                     *       },
                     *       "estimate": {
                     *         "cost": 0.4,
                     *         "currency": "USD",
                     *         "price_version": "5d41402abc4b2a76b9719d911017c592"
                     *       },
                     *       "cost": 0.4,
                     *       "charged": true,
                     *       "priority": "normal",
                     *       "upstream": {
                     *         "account": "default",
                     *         "task_id": "vidtsk_upstream123"
                     *       },
                     *       "attempts": [
                     *         {
                     *           "account": "default",
                     *           "task_id": "vidtsk_upstream123",
                     *           "outcome": "succeeded",
                     *           "charged": true,
                     *           "cost": 0.4
                     *         }
                     *       ],
                     *       "polls": 9,
                     *       "outputs": [],
                     *       "media": null,
                     *       "retention_days": 30,
                     *       "created_by_version": "0.1.0",
                     *       "expires_at": "2026-12-22T00:00:41.000Z",
                     *       "outputs_expired": false,
                     *       "output_target": null,
                     *       "metadata": {
                     *         "order": "42"
                     *       },
                     *       "previews": null,
                     *       "error": null,
                     *       "history": [
                     *         {
                     *           "status": "queued",
                     *           "at": "2026-11-22T00:00:00.000Z"
                     *         },
                     *         {
                     *           "status": "running",
                     *           "at": "2026-11-22T00:00:00.000Z"
                     *         },
                     *         {
                     *           "status": "downloading",
                     *           "at": "2026-11-22T00:00:41.000Z"
                     *         },
                     *         {
                     *           "status": "succeeded",
                     *           "at": "2026-11-22T00:00:41.000Z"
                     *         }
                     *       ],
                     *       "timings": {
                     *         "createdAt": "2026-11-22T00:00:00.000Z",
                     *         "updatedAt": "2026-11-22T00:00:41.000Z",
                     *         "submittedAt": "2026-11-22T00:00:00.000Z",
                     *         "upstreamDoneAt": "2026-11-22T00:00:41.000Z",
                     *         "finishedAt": "2026-11-22T00:00:41.000Z",
                     *         "deadlineAt": null,
                     *         "totalMs": 41000
                     *       },
                     *       "retryOf": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T"
                     *     }
                     */
                    "application/json": {
                        /** @description fit (X-Reelay-Fit: nearest): each value the model refused, moved to the nearest one it allows; absent when nothing was moved. */
                        adjustments?: {
                            /** @description The value asked for. */
                            from: string | number;
                            /** @description The field fit moved, e.g. `duration_sec`. */
                            path: string;
                            /** @description The nearest value the model allows, sent. */
                            to: string | number;
                        }[];
                        /** @description Each upstream attempt: tries whose task failed on another account (REELAY_FALLBACK_ATTEMPTS), then the current one. The job's cost is their sum. */
                        attempts: {
                            account: string;
                            charged: (boolean | "unknown") | null;
                            cost: number | null;
                            outcome: string;
                            task_id: string | null;
                        }[];
                        /** @description Once ended: false when no upstream task was made, true when one was (succeeded or cancelled while generating), unknown for a failed task. */
                        charged: (boolean | "unknown") | null;
                        /** @description What the job cost once ended (0 when not charged); null while running or unpriced. */
                        cost: number | null;
                        /** @description The reelay release that made the job; null for a job made before 0.1.0. */
                        created_by_version: string | null;
                        error: ({
                            /**
                             * @description The failure's class (reelay's job routes and events).
                             * @enum {string}
                             */
                            class?: "invalid_request" | "content_policy" | "rate_limited" | "upstream_transient" | "upstream_failed" | "timeout" | "queue_timeout" | "budget_exceeded" | "output_unavailable" | "internal";
                            code: string;
                            message: string;
                            /** @description The request field the upstream named in its refusal, when it named one. */
                            path?: string;
                            /** @description Whether the same request may succeed later (never for content_policy). */
                            retryable?: boolean;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        /** @description The cost estimated when the job was made. */
                        estimate: {
                            /** @description Under the price table (REELAY_PRICES); null unpriced. */
                            cost: number | null;
                            currency: string | null;
                            /** @description sha256 of the price table used. */
                            price_version: string | null;
                        };
                        /** @description When the outputs expire; null before they are stored, or when kept for good. */
                        expires_at: string | null;
                        /** @description Every state the job went through, with timestamps. */
                        history: ({
                            at: string;
                            status: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        id: string;
                        /** @enum {string} */
                        kind: "video" | "image";
                        /** @description The (first) output's media; null until downloaded. A difference from the request is an `output_mismatch` warning. */
                        media: {
                            bytes: number;
                            /** @description ffprobe's codec name (h264, hevc, av1) or the image format. */
                            codec: string;
                            /** @description Seconds; null for an image. */
                            duration_s: number | null;
                            /** @description Frames per second; null for an image. */
                            fps: number | null;
                            height: number;
                            width: number;
                        } | null;
                        /** @description Your own string pairs (metadata / X-Reelay-Metadata) as given; {} when none. */
                        metadata: {
                            [key: string]: string;
                        };
                        mode: string;
                        model: string;
                        /** @description Where the outputs are copied besides reelay's bucket (output.s3_prefix). */
                        output_target: {
                            s3_prefix: string;
                        } | null;
                        outputs: {
                            bucket: string;
                            bytes: number;
                            contentType: string;
                            /** @description The copy in the job's output.s3_prefix: `<prefix><job id>/<file name>`. */
                            delivered?: {
                                bucket: string;
                                key: string;
                            };
                            /** @description When the link ends: never after the job's expires_at. */
                            expiresAt: string | null;
                            /** @description outputs/<jobId>/... */
                            key: string;
                            /** @description What the stored output is, read from its MP4 boxes or image header, never decoded. */
                            media?: {
                                bytes: number;
                                /** @description ffprobe's codec name (h264, hevc, av1) or the image format. */
                                codec: string;
                                /** @description Seconds; null for an image. */
                                duration_s: number | null;
                                /** @description Frames per second; null for an image. */
                                fps: number | null;
                                height: number;
                                width: number;
                            };
                            sha256: string;
                            /** @description Presigned GET; null until succeeded, and again once the outputs expired. */
                            url: string | null;
                        }[];
                        /** @description True once expires_at passed: the record stays, its outputs have no links. */
                        outputs_expired: boolean;
                        polls: number;
                        previews: {
                            spritesheet: {
                                bytes: number;
                                columns: number;
                                contentType: string;
                                frameHeight: number;
                                frames: number;
                                frameWidth: number;
                                height: number;
                                /** @description Seconds of video between two frames; the first is at 0. */
                                intervalS: number;
                                /** @description outputs/<jobId>/thumbnail.jpg or spritesheet.jpg */
                                key: string;
                                rows: number;
                                /** @description Presigned GET. */
                                url: string;
                                width: number;
                            };
                            thumbnail: {
                                bytes: number;
                                contentType: string;
                                height: number;
                                /** @description outputs/<jobId>/thumbnail.jpg or spritesheet.jpg */
                                key: string;
                                /** @description Presigned GET. */
                                url: string;
                                width: number;
                            };
                        } | null;
                        /**
                         * @description Admission order among the caller's own jobs (X-Reelay-Priority).
                         * @enum {string}
                         */
                        priority: "high" | "normal" | "low";
                        /** @description While the job waits for an upstream slot: its place among the same caller's waiting jobs (1 = next; approximate). */
                        queue_position?: number;
                        /** @description The normalised request (presigned URLs shown without their signature). */
                        request: {
                            [key: string]: unknown;
                        };
                        /** @description The name the request gave: an alias (`gamma-latest`), or a sunset model whose successor runs; else `model` itself. */
                        requested_model: string;
                        /** @description Days the outputs are kept once stored (retention_days, else REELAY_RETENTION_DAYS); null = for good. */
                        retention_days: number | null;
                        /** @description Where the job came from; a drop names its S3 object. */
                        source: {
                            bucket?: string;
                            key?: string;
                            line?: number;
                            /** @enum {string} */
                            type: "api" | "drop" | "cli";
                        } & {
                            [key: string]: unknown;
                        };
                        /**
                         * @description reelay's job status.
                         * @enum {string}
                         */
                        status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                        timings: {
                            createdAt: string;
                            totalMs: number | null;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @description The upstream account the job is pinned to (`default` without a pool) and its task there; every poll and download uses that account. */
                        upstream: {
                            account: string;
                            task_id: string | null;
                        } | null;
                        upstreamTaskId: string | null;
                        /** @description What the job asks the upstream to make, in the units generation is billed in. */
                        usage: {
                            audio?: boolean;
                            quantity: number;
                            reference_images?: number;
                            /** @description Video: null = the model's default. */
                            resolution?: string | null;
                            /** @description Images: image_size; null = default. */
                            tier?: string | null;
                            /** @enum {string} */
                            unit: "video_second" | "image";
                        } & {
                            [key: string]: unknown;
                        };
                        warnings: {
                            /** @description Stable machine-readable code. */
                            code: string;
                            /** @description A sentence naming the allowed values where there are any. */
                            message: string;
                            /** @description Field path, e.g. `frame_images[1].frame_type`; empty for the whole body. */
                            path: string;
                        }[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `invalid_json`, `invalid_request`: The body is not a JSON object, or the changed request breaks a model rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_json",
                     *         "message": "The body is not a JSON object, or the changed request breaks a model rule."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `budget_exceeded`: The new job's estimate does not fit what is left of the key's budget. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "budget_exceeded",
                     *         "message": "The new job's estimate does not fit what is left of the key's budget."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: The job belongs to another API key. `scope_missing`: The key lacks the `write` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "The job belongs to another API key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `job_not_found`: No job (of this kind) has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "job_not_found",
                     *         "message": "No job (of this kind) has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_retryable`: The job has not ended, or it failed with content_policy or invalid_request and the body does not change the request. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_retryable",
                     *         "message": "The job has not ended, or it failed with content_policy or invalid_request and the body does not change the request."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `queue_full`: The key already has its limits' max_queued jobs waiting for a slot; nothing was made. `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "queue_full",
                     *         "message": "The key already has its limits' max_queued jobs waiting for a slot; nothing was made."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: DynamoDB, S3 or Step Functions did not answer; retry (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "DynamoDB, S3 or Step Functions did not answer; retry (Retry-After)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1Keys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "key_01JD8ZB...",
                     *           "name": "ci",
                     *           "hint": "rl_live_3q2",
                     *           "createdAt": "2026-11-22T00:00:00.000Z",
                     *           "scopes": [
                     *             "read",
                     *             "write"
                     *           ],
                     *           "project": "video-team"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description What the key may spend per period; absent = no limit. */
                            budget?: {
                                amount: number;
                                /** @enum {string} */
                                period: "day" | "month" | "total";
                                /** @enum {string} */
                                unit: "currency" | "units";
                                /** @description This period's spend and open reservations. */
                                used?: number;
                            };
                            createdAt: string;
                            /** @description After this time the key is 401 key_expired. */
                            expires_at?: string;
                            /** @description The first characters of the key. */
                            hint: string;
                            /** @description Public id, recorded on the key's jobs. */
                            id: string;
                            /** @description The key itself: only in the answer to create. */
                            key?: string;
                            /** @description When a call last used the key, to the minute (written at most once a minute). */
                            last_used_at?: string;
                            /** @description The limits that hold for the key: its own over REELAY_KEY_LIMITS's; null = none. */
                            limits?: {
                                burst: number | null;
                                max_in_flight: number | null;
                                max_queued: number | null;
                                rate: number | null;
                            };
                            name: string;
                            /**
                             * @description A create on a model past its sunset_at: `successor` runs its successor (with a model_substituted warning); absent or `refuse`, 400 model_sunset.
                             * @enum {string}
                             */
                            on_sunset?: "refuse" | "successor";
                            /** @description Its project; a key made without one is alone in one named by its id. */
                            project: string;
                            revokedAt?: string;
                            /** @description What the key may do; a key made before scopes has read, write and webhooks. */
                            scopes: ("read" | "write" | "webhooks" | "admin")[];
                            /** @description The whsec_ secret that signs its jobs' own webhooks: only in the answer to create. */
                            webhook_secret?: string;
                        }[];
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key manages keys. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key manages keys."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1Keys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "ci",
                 *       "scopes": [
                 *         "read",
                 *         "write"
                 *       ],
                 *       "budget": {
                 *         "amount": 50,
                 *         "unit": "currency",
                 *         "period": "month"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description What the key may spend per period: money under the price table, or units (video seconds, images). Every create reserves its estimate; past it, 402 budget_exceeded. */
                    budget?: {
                        amount: number;
                        /**
                         * @default month
                         * @enum {string}
                         */
                        period?: "day" | "month" | "total";
                        /**
                         * @default currency
                         * @enum {string}
                         */
                        unit?: "currency" | "units";
                    };
                    /**
                     * Format: date-time
                     * @description When the key stops working (an ISO time with its zone, in the future); after it, 401 key_expired. Absent: until revoked.
                     */
                    expires_at?: string;
                    /** @description The key's own limits, each over REELAY_KEY_LIMITS's; null = no limit. rate: calls per second (past it and burst, 429 rate_limited); max_queued: its jobs waiting (past it, 429 queue_full, nothing made); max_in_flight: its jobs holding upstream slots (the rest wait). */
                    limits?: {
                        burst?: number | null;
                        max_in_flight?: number | null;
                        max_queued?: number | null;
                        rate?: number | null;
                    };
                    name?: string;
                    /**
                     * @description A create on a model past its sunset_at (REELAY_MODEL_LIFECYCLE): `refuse` answers 400 model_sunset naming the successor; `successor` runs the successor instead, the job keeping the name asked for in requested_model and a model_substituted warning.
                     * @default refuse
                     * @enum {string}
                     */
                    on_sunset?: "refuse" | "successor";
                    /** @description The key's project: every key of it sees the project's jobs, batches, usage and webhooks; another project's are 404. Absent: a new project of its own (named by the key's id). */
                    project?: string;
                    /**
                     * @description What the key may do: read (get and list), write (create, cancel, retry), webhooks (the subscribers), admin (keys, budgets, operations). A route outside them is 403 scope_missing.
                     * @default [
                     *       "read",
                     *       "write"
                     *     ]
                     */
                    scopes?: ("read" | "write" | "webhooks" | "admin")[];
                    /** @description Limits for each of the key's end users (`user` / X-Reelay-User), held per (key, user) as `limits` are per key; null or absent = none. A user past one gets the key's codes (429 rate_limited or queue_full, 402 budget_exceeded) naming the end user's limit while the key's other users are served; max_in_flight: that user's jobs holding upstream slots (the rest of its jobs wait); budget: what each user may spend per period, as the key's budget. */
                    user_limits?: {
                        budget?: {
                            amount: number;
                            /**
                             * @default month
                             * @enum {string}
                             */
                            period?: "day" | "month" | "total";
                            /**
                             * @default currency
                             * @enum {string}
                             */
                            unit?: "currency" | "units";
                        } | null;
                        burst?: number | null;
                        max_in_flight?: number | null;
                        max_queued?: number | null;
                        rate?: number | null;
                    };
                };
            };
        };
        responses: {
            /** @description The new key and its record. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "key_01JD8ZB...",
                     *       "name": "ci",
                     *       "hint": "rl_live_3q2",
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "scopes": [
                     *         "read",
                     *         "write"
                     *       ],
                     *       "project": "video-team",
                     *       "key": "rl_live_3q2...full key, shown once"
                     *     }
                     */
                    "application/json": {
                        /** @description What the key may spend per period; absent = no limit. */
                        budget?: {
                            amount: number;
                            /** @enum {string} */
                            period: "day" | "month" | "total";
                            /** @enum {string} */
                            unit: "currency" | "units";
                            /** @description This period's spend and open reservations. */
                            used?: number;
                        };
                        createdAt: string;
                        /** @description After this time the key is 401 key_expired. */
                        expires_at?: string;
                        /** @description The first characters of the key. */
                        hint: string;
                        /** @description Public id, recorded on the key's jobs. */
                        id: string;
                        /** @description The key itself: only in the answer to create. */
                        key?: string;
                        /** @description When a call last used the key, to the minute (written at most once a minute). */
                        last_used_at?: string;
                        /** @description The limits that hold for the key: its own over REELAY_KEY_LIMITS's; null = none. */
                        limits?: {
                            burst: number | null;
                            max_in_flight: number | null;
                            max_queued: number | null;
                            rate: number | null;
                        };
                        name: string;
                        /**
                         * @description A create on a model past its sunset_at: `successor` runs its successor (with a model_substituted warning); absent or `refuse`, 400 model_sunset.
                         * @enum {string}
                         */
                        on_sunset?: "refuse" | "successor";
                        /** @description Its project; a key made without one is alone in one named by its id. */
                        project: string;
                        revokedAt?: string;
                        /** @description What the key may do; a key made before scopes has read, write and webhooks. */
                        scopes: ("read" | "write" | "webhooks" | "admin")[];
                        /** @description The whsec_ secret that signs its jobs' own webhooks: only in the answer to create. */
                        webhook_secret?: string;
                    };
                };
            };
            /** @description `invalid_json`, `invalid_request`, `unknown_field`: The body is not JSON, name is not a string of at most 100 characters (error.path = name), scopes names no known scope, expires_at is not an ISO time ahead (error.path = expires_at), on_sunset is not refuse or successor (error.path = on_sunset), budget, limits or user_limits is malformed (error.path = budget.amount, limits.rate, user_limits.max_in_flight, ...), or a field is not one of these (unknown_field; no key is made). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_json",
                     *         "message": "The body is not JSON, name is not a string of at most 100 characters (error.path = name), scopes names no known scope, expires_at is not an ISO time ahead (error.path = expires_at), on_sunset is not refuse or successor (error.path = on_sunset), budget, limits or user_limits is malformed (error.path = budget.amount, limits.rate, user_limits.max_in_flight, ...), or a field is not one of these (unknown_field; no key is made)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key manages keys. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key manages keys."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteV1KeysId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The key's public id.
                 * @example key_01JD8ZB...
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key's record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "key_01JD8ZB...",
                     *       "name": "ci",
                     *       "hint": "rl_live_3q2",
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "scopes": [
                     *         "read",
                     *         "write"
                     *       ],
                     *       "project": "video-team",
                     *       "revokedAt": "2026-11-22T00:00:41.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @description What the key may spend per period; absent = no limit. */
                        budget?: {
                            amount: number;
                            /** @enum {string} */
                            period: "day" | "month" | "total";
                            /** @enum {string} */
                            unit: "currency" | "units";
                            /** @description This period's spend and open reservations. */
                            used?: number;
                        };
                        createdAt: string;
                        /** @description After this time the key is 401 key_expired. */
                        expires_at?: string;
                        /** @description The first characters of the key. */
                        hint: string;
                        /** @description Public id, recorded on the key's jobs. */
                        id: string;
                        /** @description The key itself: only in the answer to create. */
                        key?: string;
                        /** @description When a call last used the key, to the minute (written at most once a minute). */
                        last_used_at?: string;
                        /** @description The limits that hold for the key: its own over REELAY_KEY_LIMITS's; null = none. */
                        limits?: {
                            burst: number | null;
                            max_in_flight: number | null;
                            max_queued: number | null;
                            rate: number | null;
                        };
                        name: string;
                        /**
                         * @description A create on a model past its sunset_at: `successor` runs its successor (with a model_substituted warning); absent or `refuse`, 400 model_sunset.
                         * @enum {string}
                         */
                        on_sunset?: "refuse" | "successor";
                        /** @description Its project; a key made without one is alone in one named by its id. */
                        project: string;
                        revokedAt?: string;
                        /** @description What the key may do; a key made before scopes has read, write and webhooks. */
                        scopes: ("read" | "write" | "webhooks" | "admin")[];
                        /** @description The whsec_ secret that signs its jobs' own webhooks: only in the answer to create. */
                        webhook_secret?: string;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key manages keys. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key manages keys."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `key_not_found`: No key has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "key_not_found",
                     *         "message": "No key has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putV1KeysIdBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The key's public id.
                 * @example key_01JD8ZB...
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 100,
                 *       "unit": "currency",
                 *       "period": "month"
                 *     }
                 */
                "application/json": {
                    amount: number;
                    /**
                     * @default month
                     * @enum {string}
                     */
                    period?: "day" | "month" | "total";
                    /**
                     * @default currency
                     * @enum {string}
                     */
                    unit?: "currency" | "units";
                };
            };
        };
        responses: {
            /** @description The key with its budget and this period's use. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "key_01JD8ZB...",
                     *       "name": "ci",
                     *       "hint": "rl_live_3q2",
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "scopes": [
                     *         "read",
                     *         "write"
                     *       ],
                     *       "project": "video-team",
                     *       "budget": {
                     *         "amount": 100,
                     *         "unit": "currency",
                     *         "period": "month",
                     *         "used": 14.3
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description What the key may spend per period; absent = no limit. */
                        budget?: {
                            amount: number;
                            /** @enum {string} */
                            period: "day" | "month" | "total";
                            /** @enum {string} */
                            unit: "currency" | "units";
                            /** @description This period's spend and open reservations. */
                            used?: number;
                        };
                        createdAt: string;
                        /** @description After this time the key is 401 key_expired. */
                        expires_at?: string;
                        /** @description The first characters of the key. */
                        hint: string;
                        /** @description Public id, recorded on the key's jobs. */
                        id: string;
                        /** @description The key itself: only in the answer to create. */
                        key?: string;
                        /** @description When a call last used the key, to the minute (written at most once a minute). */
                        last_used_at?: string;
                        /** @description The limits that hold for the key: its own over REELAY_KEY_LIMITS's; null = none. */
                        limits?: {
                            burst: number | null;
                            max_in_flight: number | null;
                            max_queued: number | null;
                            rate: number | null;
                        };
                        name: string;
                        /**
                         * @description A create on a model past its sunset_at: `successor` runs its successor (with a model_substituted warning); absent or `refuse`, 400 model_sunset.
                         * @enum {string}
                         */
                        on_sunset?: "refuse" | "successor";
                        /** @description Its project; a key made without one is alone in one named by its id. */
                        project: string;
                        revokedAt?: string;
                        /** @description What the key may do; a key made before scopes has read, write and webhooks. */
                        scopes: ("read" | "write" | "webhooks" | "admin")[];
                        /** @description The whsec_ secret that signs its jobs' own webhooks: only in the answer to create. */
                        webhook_secret?: string;
                    };
                };
            };
            /** @description `invalid_json`, `invalid_request`: The body is not a budget (error.path = budget.amount, ...). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_json",
                     *         "message": "The body is not a budget (error.path = budget.amount, ...)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key manages keys. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key manages keys."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `key_not_found`: No key has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "key_not_found",
                     *         "message": "No key has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteV1KeysIdBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The key's public id.
                 * @example key_01JD8ZB...
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key without a budget. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "key_01JD8ZB...",
                     *       "name": "ci",
                     *       "hint": "rl_live_3q2",
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "scopes": [
                     *         "read",
                     *         "write"
                     *       ],
                     *       "project": "video-team"
                     *     }
                     */
                    "application/json": {
                        /** @description What the key may spend per period; absent = no limit. */
                        budget?: {
                            amount: number;
                            /** @enum {string} */
                            period: "day" | "month" | "total";
                            /** @enum {string} */
                            unit: "currency" | "units";
                            /** @description This period's spend and open reservations. */
                            used?: number;
                        };
                        createdAt: string;
                        /** @description After this time the key is 401 key_expired. */
                        expires_at?: string;
                        /** @description The first characters of the key. */
                        hint: string;
                        /** @description Public id, recorded on the key's jobs. */
                        id: string;
                        /** @description The key itself: only in the answer to create. */
                        key?: string;
                        /** @description When a call last used the key, to the minute (written at most once a minute). */
                        last_used_at?: string;
                        /** @description The limits that hold for the key: its own over REELAY_KEY_LIMITS's; null = none. */
                        limits?: {
                            burst: number | null;
                            max_in_flight: number | null;
                            max_queued: number | null;
                            rate: number | null;
                        };
                        name: string;
                        /**
                         * @description A create on a model past its sunset_at: `successor` runs its successor (with a model_substituted warning); absent or `refuse`, 400 model_sunset.
                         * @enum {string}
                         */
                        on_sunset?: "refuse" | "successor";
                        /** @description Its project; a key made without one is alone in one named by its id. */
                        project: string;
                        revokedAt?: string;
                        /** @description What the key may do; a key made before scopes has read, write and webhooks. */
                        scopes: ("read" | "write" | "webhooks" | "admin")[];
                        /** @description The whsec_ secret that signs its jobs' own webhooks: only in the answer to create. */
                        webhook_secret?: string;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key manages keys. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key manages keys."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `key_not_found`: No key has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "key_not_found",
                     *         "message": "No key has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putV1KeysIdLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The key's public id.
                 * @example key_01JD8ZB...
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "rate": 5,
                 *       "burst": 10,
                 *       "max_queued": 100
                 *     }
                 */
                "application/json": {
                    burst?: number | null;
                    max_in_flight?: number | null;
                    max_queued?: number | null;
                    rate?: number | null;
                };
            };
        };
        responses: {
            /** @description The key with its limits as they now hold for it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "key_01JD8ZB...",
                     *       "name": "ci",
                     *       "hint": "rl_live_3q2",
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "scopes": [
                     *         "read",
                     *         "write"
                     *       ],
                     *       "project": "video-team"
                     *     }
                     */
                    "application/json": {
                        /** @description What the key may spend per period; absent = no limit. */
                        budget?: {
                            amount: number;
                            /** @enum {string} */
                            period: "day" | "month" | "total";
                            /** @enum {string} */
                            unit: "currency" | "units";
                            /** @description This period's spend and open reservations. */
                            used?: number;
                        };
                        createdAt: string;
                        /** @description After this time the key is 401 key_expired. */
                        expires_at?: string;
                        /** @description The first characters of the key. */
                        hint: string;
                        /** @description Public id, recorded on the key's jobs. */
                        id: string;
                        /** @description The key itself: only in the answer to create. */
                        key?: string;
                        /** @description When a call last used the key, to the minute (written at most once a minute). */
                        last_used_at?: string;
                        /** @description The limits that hold for the key: its own over REELAY_KEY_LIMITS's; null = none. */
                        limits?: {
                            burst: number | null;
                            max_in_flight: number | null;
                            max_queued: number | null;
                            rate: number | null;
                        };
                        name: string;
                        /**
                         * @description A create on a model past its sunset_at: `successor` runs its successor (with a model_substituted warning); absent or `refuse`, 400 model_sunset.
                         * @enum {string}
                         */
                        on_sunset?: "refuse" | "successor";
                        /** @description Its project; a key made without one is alone in one named by its id. */
                        project: string;
                        revokedAt?: string;
                        /** @description What the key may do; a key made before scopes has read, write and webhooks. */
                        scopes: ("read" | "write" | "webhooks" | "admin")[];
                        /** @description The whsec_ secret that signs its jobs' own webhooks: only in the answer to create. */
                        webhook_secret?: string;
                    };
                };
            };
            /** @description `invalid_json`, `invalid_request`, `unknown_field`: The body is not an object of limits (error.path = limits.rate, ...). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_json",
                     *         "message": "The body is not an object of limits (error.path = limits.rate, ...)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key manages keys. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key manages keys."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `key_not_found`: No key has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "key_not_found",
                     *         "message": "No key has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteV1KeysIdLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The key's public id.
                 * @example key_01JD8ZB...
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key with the default limits. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "key_01JD8ZB...",
                     *       "name": "ci",
                     *       "hint": "rl_live_3q2",
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "scopes": [
                     *         "read",
                     *         "write"
                     *       ],
                     *       "project": "video-team"
                     *     }
                     */
                    "application/json": {
                        /** @description What the key may spend per period; absent = no limit. */
                        budget?: {
                            amount: number;
                            /** @enum {string} */
                            period: "day" | "month" | "total";
                            /** @enum {string} */
                            unit: "currency" | "units";
                            /** @description This period's spend and open reservations. */
                            used?: number;
                        };
                        createdAt: string;
                        /** @description After this time the key is 401 key_expired. */
                        expires_at?: string;
                        /** @description The first characters of the key. */
                        hint: string;
                        /** @description Public id, recorded on the key's jobs. */
                        id: string;
                        /** @description The key itself: only in the answer to create. */
                        key?: string;
                        /** @description When a call last used the key, to the minute (written at most once a minute). */
                        last_used_at?: string;
                        /** @description The limits that hold for the key: its own over REELAY_KEY_LIMITS's; null = none. */
                        limits?: {
                            burst: number | null;
                            max_in_flight: number | null;
                            max_queued: number | null;
                            rate: number | null;
                        };
                        name: string;
                        /**
                         * @description A create on a model past its sunset_at: `successor` runs its successor (with a model_substituted warning); absent or `refuse`, 400 model_sunset.
                         * @enum {string}
                         */
                        on_sunset?: "refuse" | "successor";
                        /** @description Its project; a key made without one is alone in one named by its id. */
                        project: string;
                        revokedAt?: string;
                        /** @description What the key may do; a key made before scopes has read, write and webhooks. */
                        scopes: ("read" | "write" | "webhooks" | "admin")[];
                        /** @description The whsec_ secret that signs its jobs' own webhooks: only in the answer to create. */
                        webhook_secret?: string;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key manages keys. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key manages keys."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `key_not_found`: No key has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "key_not_found",
                     *         "message": "No key has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1KeysIdWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The key's public id.
                 * @example key_01JD8ZB...
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key's id and its new webhook secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "key_01JD8ZB...",
                     *       "webhook_secret": "whsec_...shown once"
                     *     }
                     */
                    "application/json": unknown;
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key manages keys. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key manages keys."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `key_not_found`: No key has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "key_not_found",
                     *         "message": "No key has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1Models: {
        parameters: {
            query?: {
                /**
                 * @description Only models of this modality.
                 * @example video
                 */
                modality?: "video" | "image";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The models. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "gamma-3.1",
                     *           "object": "model",
                     *           "family": "gamma",
                     *           "modality": "video",
                     *           "match": "exact",
                     *           "modes": [
                     *             "text",
                     *             "first_frame",
                     *             "first_last_frame",
                     *             "reference"
                     *           ],
                     *           "resolutions": [
                     *             "720p",
                     *             "1080p",
                     *             "4k"
                     *           ],
                     *           "durations": [
                     *             4,
                     *             6,
                     *             8
                     *           ],
                     *           "aspect_ratios": [
                     *             "16:9",
                     *             "9:16"
                     *           ],
                     *           "audio_default": false,
                     *           "config_keys": [],
                     *           "source": "both",
                     *           "aliases": [
                     *             "gamma-latest"
                     *           ],
                     *           "deprecated_at": null,
                     *           "sunset_at": null,
                     *           "successor": null
                     *         },
                     *         {
                     *           "id": "newmodel-1",
                     *           "object": "model",
                     *           "family": null,
                     *           "modality": "video",
                     *           "match": "exact",
                     *           "modes": null,
                     *           "resolutions": null,
                     *           "durations": null,
                     *           "aspect_ratios": null,
                     *           "audio_default": null,
                     *           "config_keys": null,
                     *           "source": "upstream",
                     *           "aliases": [],
                     *           "deprecated_at": null,
                     *           "sunset_at": null,
                     *           "successor": null
                     *         }
                     *       ],
                     *       "aliases": {
                     *         "gamma-latest": "gamma-3.1"
                     *       },
                     *       "warnings": []
                     *     }
                     */
                    "application/json": {
                        /** @description Every alias and the model code it stands for. */
                        aliases: {
                            [key: string]: string;
                        };
                        data: {
                            /** @description Over a pool (REELAY_UPSTREAMS): the accounts that list the model and whose `models` allow it. */
                            accounts?: string[];
                            /** @description Names a create may give for this model (built-in `<family>-latest`, REELAY_MODEL_ALIASES). */
                            aliases: string[];
                            aspect_ratios: string[] | null;
                            /** @description generate_audio when the request leaves it out (video). */
                            audio_default: boolean | null;
                            /** @description The model_specific_config allow-list. */
                            config_keys: string[] | null;
                            /** @description ISO time from which the model is deprecated: creates get a `Deprecation` header and a `model_deprecated` warning. */
                            deprecated_at: string | null;
                            /** @description Allowed duration_sec values (video). */
                            durations: number[] | null;
                            family: string | null;
                            /** @description Model code; a prefix entry (match=prefix) stands for every code starting with it. */
                            id: string;
                            /** @enum {string} */
                            match: "exact" | "prefix";
                            modality: ("video" | "image") | null;
                            /** @description Video: text, first_frame, first_last_frame, reference, video_edit. Image: text, edit. */
                            modes: string[] | null;
                            /** @constant */
                            object: "model";
                            /** @description Video resolutions or image sizes the model takes. */
                            resolutions: string[] | null;
                            /**
                             * @description catalog: reelay's rules only; upstream: listed by the upstream, no rules known; both.
                             * @enum {string}
                             */
                            source: "catalog" | "upstream" | "both";
                            /** @description The model that replaces it. */
                            successor: string | null;
                            /** @description ISO time from which creates are refused `model_sunset` (or run the successor, for a key with `on_sunset: successor`). */
                            sunset_at: string | null;
                        }[];
                        /** @constant */
                        object: "list";
                        /** @description Set when the upstream's listing was not available. */
                        warnings: {
                            /** @description Stable machine-readable code. */
                            code: string;
                            /** @description A sentence naming the allowed values where there are any. */
                            message: string;
                            /** @description Field path, e.g. `frame_images[1].frame_type`; empty for the whole body. */
                            path: string;
                        }[];
                    };
                };
            };
            /** @description `invalid_query`: modality is not video or image (error.path = modality). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_query",
                     *         "message": "modality is not video or image (error.path = modality)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `read` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1Uploads: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content_type": "video/mp4",
                 *       "size": 73400320,
                 *       "name": "clip.mp4"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description What the bytes are: complete refuses bytes that are anything else.
                     * @enum {string}
                     */
                    content_type: "image/png" | "image/jpeg" | "image/webp" | "image/gif" | "video/mp4";
                    /** @description Taken and not kept: reelay goes by the bytes. */
                    name?: string;
                    /** @description Hex sha256 of the bytes: signed into the PUT (S3 checks it) and checked at complete. */
                    sha256?: string;
                    /** @description The file's length in bytes, signed into the PUT. */
                    size: number;
                };
                /**
                 * @example {
                 *       "file": "(binary)"
                 *     }
                 */
                "multipart/form-data": {
                    /** @description The image or video. */
                    file: string;
                };
            };
        };
        responses: {
            /** @description The upload was stored (multipart); or, for JSON, the pending upload with its `put` (`status` `pending`). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS",
                     *       "url": "upload://upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS",
                     *       "status": "ready",
                     *       "sha256": "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
                     *       "content_type": "image/png",
                     *       "size": 204800,
                     *       "created_at": "2026-11-22T00:00:00.000Z",
                     *       "expires_at": "2026-11-22T00:00:41.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @description Read from the bytes: image/png, image/jpeg, image/webp, image/gif or video/mp4 (a pending upload's as declared). */
                        content_type: string;
                        created_at: string;
                        /** @description When it is removed (REELAY_UPLOAD_RETENTION_DAYS after it was made, default 7). */
                        expires_at: string;
                        /** @description `upl_<ulid>`. */
                        id: string;
                        /** @description Only in the answer to a JSON POST /v1/uploads: where to PUT the bytes. */
                        put?: {
                            /** @description When the URL stops working (15 minutes on). */
                            expires_at: string;
                            /** @description Send these as they are; the declared length is signed too, so the body must be exactly `size` bytes. */
                            headers: {
                                [key: string]: string;
                            };
                            /** @constant */
                            method: "PUT";
                            /** @description A presigned S3 PUT URL (a bearer credential: keep it private). */
                            url: string;
                        };
                        /** @description Hex sha256 of the bytes (a pending upload's only when it was declared). */
                        sha256?: string;
                        /** @description Bytes. */
                        size: number;
                        /**
                         * @description `ready`: usable. `pending`: made for a presigned PUT and not completed yet (POST /v1/uploads/{id}/complete); a create naming it is refused with `upload_pending`.
                         * @enum {string}
                         */
                        status: "ready" | "pending";
                        /** @description `upload://upl_<ulid>`: give it wherever a material URL goes (frame_images, input_references, image_config.reference_images). */
                        url: string;
                    };
                };
            };
            /** @description `invalid_content_type`, `invalid_multipart`, `invalid_request`, `invalid_upload`, `upload_too_large`: Not multipart, no `file`, a file that is not an image or MP4 video, or one over the size limit; `path` is `file`. With JSON: a `content_type` that is not a taken image or video, or a `size` over its limit, at that field. Nothing is stored. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_content_type",
                     *         "message": "Not multipart, no `file`, a file that is not an image or MP4 video, or one over the size limit; `path` is `file`. With JSON: a `content_type` that is not a taken image or video, or a `size` over its limit, at that field. Nothing is stored."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `write` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `write` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: A JSON declaration over 16 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "A JSON declaration over 16 KiB."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1UploadsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS",
                     *       "url": "upload://upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS",
                     *       "status": "ready",
                     *       "sha256": "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
                     *       "content_type": "image/png",
                     *       "size": 204800,
                     *       "created_at": "2026-11-22T00:00:00.000Z",
                     *       "expires_at": "2026-11-22T00:00:41.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @description Read from the bytes: image/png, image/jpeg, image/webp, image/gif or video/mp4 (a pending upload's as declared). */
                        content_type: string;
                        created_at: string;
                        /** @description When it is removed (REELAY_UPLOAD_RETENTION_DAYS after it was made, default 7). */
                        expires_at: string;
                        /** @description `upl_<ulid>`. */
                        id: string;
                        /** @description Only in the answer to a JSON POST /v1/uploads: where to PUT the bytes. */
                        put?: {
                            /** @description When the URL stops working (15 minutes on). */
                            expires_at: string;
                            /** @description Send these as they are; the declared length is signed too, so the body must be exactly `size` bytes. */
                            headers: {
                                [key: string]: string;
                            };
                            /** @constant */
                            method: "PUT";
                            /** @description A presigned S3 PUT URL (a bearer credential: keep it private). */
                            url: string;
                        };
                        /** @description Hex sha256 of the bytes (a pending upload's only when it was declared). */
                        sha256?: string;
                        /** @description Bytes. */
                        size: number;
                        /**
                         * @description `ready`: usable. `pending`: made for a presigned PUT and not completed yet (POST /v1/uploads/{id}/complete); a create naming it is refused with `upload_pending`.
                         * @enum {string}
                         */
                        status: "ready" | "pending";
                        /** @description `upload://upl_<ulid>`: give it wherever a material URL goes (frame_images, input_references, image_config.reference_images). */
                        url: string;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `read` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `upload_not_found`: No upload has that id, it expired, or it is another project's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "upload_not_found",
                     *         "message": "No upload has that id, it expired, or it is another project's."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1UploadsIdComplete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload, ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS",
                     *       "url": "upload://upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS",
                     *       "status": "ready",
                     *       "sha256": "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
                     *       "content_type": "image/png",
                     *       "size": 204800,
                     *       "created_at": "2026-11-22T00:00:00.000Z",
                     *       "expires_at": "2026-11-22T00:00:41.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @description Read from the bytes: image/png, image/jpeg, image/webp, image/gif or video/mp4 (a pending upload's as declared). */
                        content_type: string;
                        created_at: string;
                        /** @description When it is removed (REELAY_UPLOAD_RETENTION_DAYS after it was made, default 7). */
                        expires_at: string;
                        /** @description `upl_<ulid>`. */
                        id: string;
                        /** @description Only in the answer to a JSON POST /v1/uploads: where to PUT the bytes. */
                        put?: {
                            /** @description When the URL stops working (15 minutes on). */
                            expires_at: string;
                            /** @description Send these as they are; the declared length is signed too, so the body must be exactly `size` bytes. */
                            headers: {
                                [key: string]: string;
                            };
                            /** @constant */
                            method: "PUT";
                            /** @description A presigned S3 PUT URL (a bearer credential: keep it private). */
                            url: string;
                        };
                        /** @description Hex sha256 of the bytes (a pending upload's only when it was declared). */
                        sha256?: string;
                        /** @description Bytes. */
                        size: number;
                        /**
                         * @description `ready`: usable. `pending`: made for a presigned PUT and not completed yet (POST /v1/uploads/{id}/complete); a create naming it is refused with `upload_pending`.
                         * @enum {string}
                         */
                        status: "ready" | "pending";
                        /** @description `upload://upl_<ulid>`: give it wherever a material URL goes (frame_images, input_references, image_config.reference_images). */
                        url: string;
                    };
                };
            };
            /** @description `invalid_upload`, `upload_too_large`: The bytes are not the declared type or length (`path` `file`), or not the declared `sha256` (`path` `sha256`). The upload is gone. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_upload",
                     *         "message": "The bytes are not the declared type or length (`path` `file`), or not the declared `sha256` (`path` `sha256`). The upload is gone."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `write` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `write` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `upload_not_found`: No upload has that id, it expired, or it is another project's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "upload_not_found",
                     *         "message": "No upload has that id, it expired, or it is another project's."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `upload_pending`: No bytes were PUT yet: PUT them, then complete again. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "upload_pending",
                     *         "message": "No bytes were PUT yet: PUT them, then complete again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1Upstreams: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The accounts now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "routing": "balanced",
                     *       "in_flight": 9,
                     *       "queued": 120,
                     *       "data": [
                     *         {
                     *           "name": "alpha",
                     *           "models": null,
                     *           "weight": 1,
                     *           "state": "closed",
                     *           "open_until": null,
                     *           "limit": 4,
                     *           "limit_source": "learned",
                     *           "rate": null,
                     *           "held_back_until": null,
                     *           "in_flight": 4,
                     *           "queue_share": 0.444,
                     *           "recent": {
                     *             "window_s": 900,
                     *             "rate_limited": 2,
                     *             "errors": 0
                     *           },
                     *           "last_error": {
                     *             "kind": "rate_limited",
                     *             "code": "upstream_rate_limited",
                     *             "message": "The upstream answered 429 to POST /video/generations.",
                     *             "at": "2026-11-27T10:02:11.000Z"
                     *           }
                     *         },
                     *         {
                     *           "name": "beta",
                     *           "models": [
                     *             "gamma-3.1"
                     *           ],
                     *           "weight": 2,
                     *           "state": "open",
                     *           "open_until": "2026-11-27T10:05:40.000Z",
                     *           "limit": 8,
                     *           "limit_source": "configured",
                     *           "rate": 2,
                     *           "held_back_until": null,
                     *           "in_flight": 5,
                     *           "queue_share": 0.556,
                     *           "recent": {
                     *             "window_s": 900,
                     *             "rate_limited": 0,
                     *             "errors": 3
                     *           },
                     *           "last_error": {
                     *             "kind": "error",
                     *             "code": "upstream_unavailable",
                     *             "message": "connect ECONNREFUSED 10.0.0.7:443",
                     *             "at": "2026-11-27T10:05:35.000Z"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Set while its create rate, a Retry-After or a refused create holds it back. */
                            held_back_until: string | null;
                            /** @description Its upstream tasks in flight (admission slots held). */
                            in_flight: number;
                            /** @description Its most recent problem, however old; null when it never had one. */
                            last_error: {
                                at: string;
                                /** @description reelay's error code for it. */
                                code: string;
                                /** @enum {string} */
                                kind: "rate_limited" | "error";
                                /** @description Short, with keys, credentials and query strings taken out. */
                                message: string;
                            } | null;
                            /** @description Upstream tasks in flight at most on this account, now. */
                            limit: number;
                            /**
                             * @description `concurrency` in REELAY_UPSTREAMS, or learned from the account's 429s.
                             * @enum {string}
                             */
                            limit_source: "configured" | "learned";
                            /** @description The models it serves; null = every model. */
                            models: string[] | null;
                            /** @description The account's name in REELAY_UPSTREAMS; `default` without a pool. */
                            name: string;
                            /** @description While open, when the cool-down ends. */
                            open_until: string | null;
                            /** @description Its part of all upstream tasks in flight now, 0..1 (0 when none is): where the queue is going. */
                            queue_share: number;
                            /** @description Creates per second at most; null = as slots free up. */
                            rate: number | null;
                            /** @description Its problems over the recent window, counted by every process. */
                            recent: {
                                /** @description Creates that failed there: refused, reset, timed out, a 5xx, a refused key. */
                                errors: number;
                                /** @description Creates it answered 429. */
                                rate_limited: number;
                                /** @description The window the counts cover, seconds (the last 15 minutes). */
                                window_s: number;
                            };
                            /**
                             * @description Its circuit: open takes no new create; half_open lets one probe through.
                             * @enum {string}
                             */
                            state: "closed" | "open" | "half_open";
                            /** @description Its share of the pool under `balanced` routing. */
                            weight: number;
                        }[];
                        /** @description Upstream tasks in flight over the whole pool. */
                        in_flight: number;
                        /** @constant */
                        object: "list";
                        /** @description Jobs waiting for a slot on any account. */
                        queued: number;
                        /**
                         * @description REELAY_ROUTING.
                         * @enum {string}
                         */
                        routing: "balanced" | "ordered" | "cheapest";
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key manages keys. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key manages keys."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1Usage: {
        parameters: {
            query?: {
                /**
                 * @description A day (its midnight UTC) or an ISO time with its zone; default the 1st of this month.
                 * @example 2026-11-01
                 */
                from?: string;
                /**
                 * @description model (default), key, day, batch or account (the upstream account: a job that fell back counts each failed try's cost where it ran and the rest where it ended; a job with no account under `default`) or user (the end user, `user` / X-Reelay-User; jobs made for none under the group null; the groups sum to the totals).
                 * @example model
                 */
                group_by?: string;
                /**
                 * @description Exclusive; default now.
                 * @example 2026-12-01
                 */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "from": "2026-11-01T00:00:00.000Z",
                     *       "to": "2026-12-01T00:00:00.000Z",
                     *       "group_by": "model",
                     *       "currency": "USD",
                     *       "totals": {
                     *         "jobs": 120,
                     *         "succeeded": 112,
                     *         "failed": 6,
                     *         "cancelled": 2,
                     *         "in_progress": 0,
                     *         "units": {
                     *           "video_seconds": 560,
                     *           "images": 0
                     *         },
                     *         "cost": 14.3,
                     *         "unpriced": 0,
                     *         "failures": {
                     *           "content_policy": 2,
                     *           "upstream_transient": 3,
                     *           "budget_exceeded": 1
                     *         },
                     *         "charged_failures": 2,
                     *         "charged": 110,
                     *         "reused": 8,
                     *         "saved": 1.6
                     *       },
                     *       "groups": [
                     *         {
                     *           "group": "gamma-3.1",
                     *           "jobs": 120,
                     *           "succeeded": 112,
                     *           "failed": 6,
                     *           "cancelled": 2,
                     *           "in_progress": 0,
                     *           "units": {
                     *             "video_seconds": 560,
                     *             "images": 0
                     *           },
                     *           "cost": 14.3,
                     *           "unpriced": 0,
                     *           "failures": {
                     *             "content_policy": 2,
                     *             "upstream_transient": 3,
                     *             "budget_exceeded": 1
                     *           },
                     *           "charged_failures": 2,
                     *           "charged": 110,
                     *           "reused": 8,
                     *           "saved": 1.6
                     *         }
                     *       ],
                     *       "budgets": [
                     *         {
                     *           "budget": "deployment",
                     *           "id": null,
                     *           "amount": 100,
                     *           "unit": "currency",
                     *           "period": "month",
                     *           "used": 14.3,
                     *           "remaining": 85.7
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        budgets: {
                            amount: number;
                            /** @enum {string} */
                            budget: "key" | "deployment";
                            id: string | null;
                            /** @enum {string} */
                            period: "day" | "month" | "total";
                            remaining: number;
                            /** @enum {string} */
                            unit: "currency" | "units";
                            used: number;
                        }[];
                        currency: string | null;
                        from: string;
                        /** @enum {string} */
                        group_by: "model" | "key" | "day" | "batch" | "account";
                        groups: {
                            cancelled: number;
                            /** @description Ended jobs that were or may have been charged: each made an upstream task. */
                            charged: number;
                            /** @description Failed jobs that were or may have been charged. */
                            charged_failures: number;
                            /** @description Null without a price table. */
                            cost: number | null;
                            failed: number;
                            /** @description Failed jobs by error.class. */
                            failures: {
                                [key: string]: number;
                            };
                            group: string | null;
                            /** @description Not ended yet: counted nowhere else until they end. */
                            in_progress: number;
                            jobs: number;
                            /** @description Ended jobs served from another job's output (reuse / X-Reelay-Reuse), charged nothing. */
                            reused: number;
                            /** @description What the reused jobs' sources were estimated to cost: the money reuse saved. Null without a price table. */
                            saved: number | null;
                            succeeded: number;
                            /** @description What was charged (or may have been: `unknown` counts, at its estimate). */
                            units: {
                                images: number;
                                video_seconds: number;
                            };
                            /** @description Charged jobs the table does not price (not in `cost`). */
                            unpriced: number;
                        }[];
                        to: string;
                        totals: {
                            cancelled: number;
                            /** @description Ended jobs that were or may have been charged: each made an upstream task. */
                            charged: number;
                            /** @description Failed jobs that were or may have been charged. */
                            charged_failures: number;
                            /** @description Null without a price table. */
                            cost: number | null;
                            failed: number;
                            /** @description Failed jobs by error.class. */
                            failures: {
                                [key: string]: number;
                            };
                            /** @description Not ended yet: counted nowhere else until they end. */
                            in_progress: number;
                            jobs: number;
                            /** @description Ended jobs served from another job's output (reuse / X-Reelay-Reuse), charged nothing. */
                            reused: number;
                            /** @description What the reused jobs' sources were estimated to cost: the money reuse saved. Null without a price table. */
                            saved: number | null;
                            succeeded: number;
                            /** @description What was charged (or may have been: `unknown` counts, at its estimate). */
                            units: {
                                images: number;
                                video_seconds: number;
                            };
                            /** @description Charged jobs the table does not price (not in `cost`). */
                            unpriced: number;
                        };
                    };
                };
            };
            /** @description `invalid_request`, `usage_range_too_large`: from, to or group_by is malformed (error.path names it), to is not after from, or the range holds more than 100,000 jobs. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "from, to or group_by is malformed (error.path names it), to is not after from, or the range holds more than 100,000 jobs."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `read` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: DynamoDB, S3 or Step Functions did not answer; retry (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "DynamoDB, S3 or Step Functions did not answer; retry (Retry-After)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1VideoGenerations: {
        parameters: {
            query?: {
                /**
                 * @description true: run every check of the create (options, fit, the model's rules and lifecycle, upload references) and answer reelay's own `{dry_run, valid, model, requested_model, request, adjustments, warnings, estimate}`, making nothing: no job, no idempotency record, no upstream call, no charge. The key's limits and budgets are not checked nor taken. A bad request is the create's own 400.
                 * @example true
                 */
                dry_run?: boolean;
            };
            header?: {
                /**
                 * @description The same key with the same payload returns the same job; with a different payload, 409.
                 * @example order-1234
                 */
                "X-Idempotency-Key"?: string;
                /**
                 * @description `nearest`: a duration, resolution or aspect ratio (an image's size or ratio) the model refuses moves to the nearest one it allows, instead of a 400: a duration to the closest whole seconds (a tie to the longer), a resolution to the closest in lines (a tie to the higher), a ratio to the closest as a ratio (a tie to the one the model lists first). The job's `adjustments` lists each move as `{path, from, to}`. A material the model cannot take is refused all the same, and a request fitting cannot make valid is refused as asked. Batches: `fit` in the JSON body, or this header.
                 * @example nearest
                 */
                "X-Reelay-Fit"?: "nearest";
                /**
                 * @description Your own string pairs as a JSON object, at most 16 pairs, keys of 1 to 40 characters, values of at most 500; shown back as given in the job's view, job.json, its terminal event and webhooks and its batch's results, and listed by with GET /v1/jobs?metadata.KEY=VALUE. Characters outside ASCII as JSON \u escapes. Over the limits, not JSON, or a value not a string: 400 invalid_metadata naming the key. Batches: `metadata` in the JSON body (a line's own `metadata` laid over it), or this header.
                 * @example {"order":"42","customer":"c_981"}
                 */
                "X-Reelay-Metadata"?: string;
                /**
                 * @description `s3://<bucket>/<prefix>/`: the outputs are also copied there, as `<prefix><job id>/<file name>`, besides reelay's bucket; the bucket must be listed in REELAY_OUTPUT_BUCKETS. Batches: `output: {s3_prefix}` in the JSON body, or this header.
                 * @example s3://my-renders/campaign-7/
                 */
                "X-Reelay-Output-S3-Prefix"?: string;
                /**
                 * @description Admission order among the caller's own jobs while they wait for an upstream slot: high, normal (the default) or low. Callers are served in turn whatever their priorities.
                 * @example high
                 */
                "X-Reelay-Priority"?: "high" | "normal" | "low";
                /**
                 * @description Seconds the job may wait for an upstream slot (1 to REELAY_QUEUE_TIMEOUT_S); not admitted by then, it ends failed `queue_timeout`, charged false, its reservation released. Batches: `queue_timeout_s` in the JSON body, or this header.
                 * @example 60
                 */
                "X-Reelay-Queue-Timeout"?: number;
                /**
                 * @description Days the job's outputs are kept once stored (fractions allowed, at most 3650); default REELAY_RETENTION_DAYS, unset = for good. Then the job answers `outputs_expired: true` with no links, its record kept 30 days more. Batches: `retention_days` in the JSON body, or this header.
                 * @example 7
                 */
                "X-Reelay-Retention-Days"?: number;
                /**
                 * @description Pay once for the same request: a maximum age (`30m`, `12h`, `7d`, at most 365d) or `false` (the default). A request whose fingerprint (model, normalized request, each stored material's sha256) matches a job of the same project that succeeded within that age succeeds from a copy of its output, `reused_from` set, charged false, cost 0, no upstream call; identical requests in flight share one upstream task. Batches: `reuse` in the JSON body, or this header.
                 * @example 7d
                 */
                "X-Reelay-Reuse"?: string;
                /**
                 * @description The app's own opaque id for its end user (1-128 printable characters, no control characters): the job keeps it (view, job.json, events, webhooks, batch results), the key's `user_limits` hold per end user (429/402 for that user while the key's other users are served), `GET /v1/jobs?user=` finds its jobs and `GET /v1/usage?group_by=user` sums by it. Batches: `user` in the JSON body, or this header.
                 * @example user-4711
                 */
                "X-Reelay-User"?: string;
                /**
                 * @description The job's own webhook: its terminal event is POSTed there per Standard Webhooks, with the durable retry schedule, signed with the webhook secret of the API key that made it (a stored key: `reelay keys create` shows it once). The URL is checked at create: https to a public address on AWS (400 webhook_url_scheme, webhook_url_loopback, webhook_url_private or webhook_url_metadata otherwise).
                 * @example https://hooks.example.com/reelay
                 */
                "X-Reelay-Webhook"?: string;
                /**
                 * @description With X-Reelay-Webhook: the event types it receives, comma separated (Generation Succeeded, Generation Failed, Generation Cancelled, Batch Completed); default all.
                 * @example Generation Succeeded,Generation Failed
                 */
                "X-Reelay-Webhook-Events"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "model": "gamma-3.1",
                 *       "prompt": "a paper boat in the rain",
                 *       "duration_sec": 8,
                 *       "resolution": "1080p",
                 *       "aspect_ratio": "16:9"
                 *     }
                 */
                "application/json": {
                    /** @description e.g. 16:9, 9:16, 1:1 (more per model). */
                    aspect_ratio?: string;
                    /** @description Seconds. Default 5, bounded by the model. */
                    duration_sec?: number;
                    /** @description First/last frame images. */
                    frame_images?: {
                        /**
                         * @description `first_frame` or `last_frame`.
                         * @enum {string}
                         */
                        frame_type: "first_frame" | "last_frame";
                        /** @description The frame image. */
                        image_url: {
                            /** @description Public HTTPS image URL, or `asset://vidast_<asset_id>`. */
                            url: string;
                        };
                        /**
                         * @description Fixed value `image_url`.
                         * @constant
                         */
                        type: "image_url";
                    }[];
                    /** @description Default false (kappa: true). */
                    generate_audio?: boolean;
                    /** @description Reference images, videos or audio. */
                    input_references?: {
                        /** @description Required when type is `audio_url`; HTTPS. */
                        audio_url?: string;
                        /** @description Required when type is `image_url`. */
                        image_url?: {
                            /** @description HTTPS or `asset://vidast_<asset_id>`. */
                            url: string;
                        };
                        /** @description Images of the same subject carry the same id; the prompt may cite `@<object_id>`. */
                        object_id?: string;
                        /** @description Reference semantics: asset/style (mu), subject/background (eta), feature/base (lambda, video). */
                        reference_type?: string;
                        /**
                         * @description `image_url` or `video_url` (§2.3); `audio_url` for models that take audio references (§4.8 beta, alpha-2.7).
                         * @enum {string}
                         */
                        type: "image_url" | "video_url" | "audio_url";
                        /** @description Required when type is `video_url`; HTTPS or `asset://vidast_<asset_id>`. */
                        video_url?: string;
                    }[];
                    /** @description Video model code. */
                    model: string;
                    /** @description Model-specific keys from the model's allow-list; `logo_add` is unsupported. */
                    model_specific_config?: {
                        [key: string]: unknown;
                    };
                    /** @description Required when neither frame_images nor input_references is given. */
                    prompt?: string;
                    /** @description Provider options (§2.1). */
                    provider?: {
                        /** @description Does not take part in create mapping. */
                        raw_passthrough?: boolean;
                    };
                    /** @description e.g. 480p, 720p, 1080p (some models 540p, 4k). */
                    resolution?: string;
                };
            };
        };
        responses: {
            /** @description The task was created (with ?dry_run=true: the CreateDryRun named at x-dry-run, nothing made). */
            200: {
                headers: {
                    /** @description RFC 9745: `@<unix seconds>` of the model's deprecated_at, when the model asked for is deprecated. */
                    Deprecation?: string;
                    /** @description RFC 8594: the HTTP-date of the model's sunset_at, from which creates on it are refused `model_sunset`. */
                    Sunset?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "service_task": {
                     *         "task_id": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T",
                     *         "status": "queued"
                     *       },
                     *       "task_id": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T",
                     *       "status": "queued",
                     *       "model": "gamma-3.1",
                     *       "requested_model": "gamma-3.1",
                     *       "warnings": [],
                     *       "estimate": {
                     *         "usage": {
                     *           "unit": "video_second",
                     *           "quantity": 8,
                     *           "resolution": null,
                     *           "audio": false
                     *         },
                     *         "cost": 0.4,
                     *         "currency": "USD",
                     *         "price_version": "5d41402abc4b2a76b9719d911017c592"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description fit (X-Reelay-Fit: nearest): each value the model refused, moved to the nearest one it allows; absent when nothing was moved. */
                        adjustments?: {
                            /** @description The value asked for. */
                            from: string | number;
                            /** @description The field fit moved, e.g. `duration_sec`. */
                            path: string;
                            /** @description The nearest value the model allows, sent. */
                            to: string | number;
                        }[];
                        /** @description What the job will use and (with a price table) cost. */
                        estimate: {
                            /** @description Under the price table (REELAY_PRICES); null unpriced. */
                            cost: number | null;
                            currency: string | null;
                            /** @description sha256 of the price table used. */
                            price_version: string | null;
                            /** @description What the job asks the upstream to make, in the units generation is billed in. */
                            usage: {
                                audio?: boolean;
                                quantity: number;
                                reference_images?: number;
                                /** @description Video: null = the model's default. */
                                resolution?: string | null;
                                /** @description Images: image_size; null = default. */
                                tier?: string | null;
                                /** @enum {string} */
                                unit: "video_second" | "image";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                        model: string;
                        /** @description The name the request gave: an alias (`gamma-latest`), or a sunset model whose successor runs; else `model` itself. */
                        requested_model: string;
                        /** @description The contract's task object (§2.5). */
                        service_task: {
                            /**
                             * @description reelay's job status.
                             * @enum {string}
                             */
                            status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                            task_id: string;
                        };
                        /**
                         * @description reelay's job status.
                         * @enum {string}
                         */
                        status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                        /** @description Top-level alias of service_task.task_id: `vidtsk_<ulid>` or `imgtsk_<ulid>`. */
                        task_id: string;
                        /** @description Soft rules the request broke; it went on anyway. */
                        warnings: {
                            /** @description Stable machine-readable code. */
                            code: string;
                            /** @description A sentence naming the allowed values where there are any. */
                            message: string;
                            /** @description Field path, e.g. `frame_images[1].frame_type`; empty for the whole body. */
                            path: string;
                        }[];
                    };
                };
            };
            /** @description `webhook_url_scheme`, `webhook_url_loopback`, `webhook_url_private`, `webhook_url_metadata`, `webhook_needs_stored_key`: The job's own webhook URL is refused (the code says why; error.path names the header or field), or it was asked for with the deployment's own key, which has no webhook secret. `invalid_json`, `invalid_request`, `invalid_idempotency_key`, `invalid_priority`, `invalid_queue_timeout`, `invalid_retention`, `invalid_output_target`, `output_bucket_not_allowed`, `invalid_reuse`, `invalid_fit`, `invalid_metadata`: The body is not JSON, breaks a model rule (every issue in error.errors, the first at error.path), or a header (the key, the priority, the queue timeout, the reuse age, the retention, the output prefix, the fit) is malformed; or the output prefix names a bucket outside REELAY_OUTPUT_BUCKETS. `model_sunset`: The model asked for (or the alias naming it) is past its sunset_at; the message names its successor (error.path = model). A key made with on_sunset: successor runs the successor instead. `invalid_query`: dry_run other than true or false. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "webhook_url_scheme",
                     *         "message": "The job's own webhook URL is refused (the code says why; error.path names the header or field), or it was asked for with the deployment's own key, which has no webhook secret."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `budget_exceeded`: The job's estimate does not fit what is left of the API key's budget, or the deployment's, for the period (error.remaining, error.budget = key|deployment); nothing was made. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "budget_exceeded",
                     *         "message": "The job's estimate does not fit what is left of the API key's budget, or the deployment's, for the period (error.remaining, error.budget = key|deployment); nothing was made."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `write` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `write` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`: The X-Idempotency-Key was used before with a different payload (error.path = X-Idempotency-Key). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_conflict",
                     *         "message": "The X-Idempotency-Key was used before with a different payload (error.path = X-Idempotency-Key)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: The body is larger than the limit (1 MiB by default). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The body is larger than the limit (1 MiB by default)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `queue_full`: The key already has its limits' max_queued jobs waiting for a slot; nothing was made. `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "queue_full",
                     *         "message": "The key already has its limits' max_queued jobs waiting for a slot; nothing was made."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `start_failed`, `service_unavailable`: The job was recorded but could not be started (it is marked failed), or a dependency did not answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "start_failed",
                     *         "message": "The job was recorded but could not be started (it is marked failed), or a dependency did not answer."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1VideoTasksTaskid: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id create returned, exactly.
                 * @example vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T
                 */
                taskId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "service_task": {
                     *         "task_id": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T",
                     *         "status": "succeeded",
                     *         "output": {
                     *           "video_url": "http://127.0.0.1:4701/reelay/outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/video.mp4?X-Amz-Signature=..."
                     *         }
                     *       },
                     *       "task_id": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T",
                     *       "status": "succeeded",
                     *       "video_url": "http://127.0.0.1:4701/reelay/outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/video.mp4?X-Amz-Signature=...",
                     *       "output": {
                     *         "url": "http://127.0.0.1:4701/reelay/outputs/vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/video.mp4?X-Amz-Signature=...",
                     *         "bytes": 1048576,
                     *         "sha256": "9f86d08...",
                     *         "content_type": "video/mp4",
                     *         "expires_at": "2026-11-22T00:00:41.000Z"
                     *       },
                     *       "error": null
                     *     }
                     */
                    "application/json": {
                        error: ({
                            /**
                             * @description The failure's class (reelay's job routes and events).
                             * @enum {string}
                             */
                            class?: "invalid_request" | "content_policy" | "rate_limited" | "upstream_transient" | "upstream_failed" | "timeout" | "queue_timeout" | "budget_exceeded" | "output_unavailable" | "internal";
                            code: string;
                            message: string;
                            /** @description The request field the upstream named in its refusal, when it named one. */
                            path?: string;
                            /** @description Whether the same request may succeed later (never for content_policy). */
                            retryable?: boolean;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        /** @description sha256 of the model, the normalized request and each stored material's sha256: identical requests share it, and reuse matches on it. */
                        fingerprint?: string;
                        /** @description The stored output, only once succeeded. */
                        output?: {
                            bytes: number;
                            content_type: string;
                            expires_at: string;
                            sha256: string;
                            url: string;
                        };
                        /** @description While the job waits for an upstream slot: its place among the same caller's waiting jobs (1 = next; approximate). */
                        queue_position?: number;
                        /** @description reuse (X-Reelay-Reuse): the job whose output this one copied into its own outputs/<id>/ instead of making an upstream task; such a job is charged false, cost 0. */
                        reused_from?: string;
                        /** @description The contract's task object (§2.5). */
                        service_task: {
                            output?: {
                                video_url: string;
                            };
                            /**
                             * @description reelay's job status.
                             * @enum {string}
                             */
                            status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                            task_id: string;
                        };
                        /**
                         * @description reelay's job status.
                         * @enum {string}
                         */
                        status: "queued" | "running" | "downloading" | "succeeded" | "failed" | "cancelled";
                        task_id: string;
                        /** @description Presigned GET of the durable S3 copy; only once succeeded. */
                        video_url?: string;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: The job belongs to another API key. `scope_missing`: The key lacks the `read` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "The job belongs to another API key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `job_not_found`: No job (of this kind) has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "job_not_found",
                     *         "message": "No job (of this kind) has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: DynamoDB, S3 or Step Functions did not answer; retry (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "DynamoDB, S3 or Step Functions did not answer; retry (Retry-After)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1Webhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscribers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "whsub_01JD8ZF0000000000000000000",
                     *           "url": "https://hooks.example.com/reelay",
                     *           "events": [
                     *             "Generation Succeeded",
                     *             "Generation Failed"
                     *           ],
                     *           "description": "CI",
                     *           "ownerKeyId": "key_01JD8ZB...",
                     *           "createdAt": "2026-11-22T00:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            createdAt: string;
                            description: string;
                            /** @description The event types it receives; absent = all. */
                            events?: string[];
                            /** @description `whsub_…` */
                            id: string;
                            /** @description The key that made it. */
                            ownerKeyId: string;
                            /** @description Its project: every key of it manages it, and it receives the project's jobs' events. */
                            project?: string;
                            url: string;
                        }[];
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `webhooks` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `webhooks` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1Webhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/reelay",
                 *       "events": [
                 *         "Generation Succeeded",
                 *         "Generation Failed"
                 *       ],
                 *       "description": "CI"
                 *     }
                 */
                "application/json": {
                    description?: string;
                    events?: ("Generation Succeeded" | "Generation Failed" | "Generation Cancelled" | "Batch Completed")[];
                    url: string;
                };
            };
        };
        responses: {
            /** @description The subscriber, with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whsub_01JD8ZF0000000000000000000",
                     *       "url": "https://hooks.example.com/reelay",
                     *       "events": [
                     *         "Generation Succeeded",
                     *         "Generation Failed"
                     *       ],
                     *       "description": "CI",
                     *       "ownerKeyId": "key_01JD8ZB...",
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": {
                        createdAt: string;
                        description: string;
                        /** @description The event types it receives; absent = all. */
                        events?: string[];
                        /** @description `whsub_…` */
                        id: string;
                        /** @description The key that made it. */
                        ownerKeyId: string;
                        /** @description Its project: every key of it manages it, and it receives the project's jobs' events. */
                        project?: string;
                        /** @description `whsec_…`: shown this once; verify signatures with it. */
                        secret: string;
                        url: string;
                    };
                };
            };
            /** @description `invalid_json`, `invalid_request`, `webhook_url_scheme`, `webhook_url_loopback`, `webhook_url_private`, `webhook_url_metadata`: The body is malformed, or the URL is one reelay does not deliver to (the code says why). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_json",
                     *         "message": "The body is malformed, or the URL is one reelay does not deliver to (the code says why)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `webhooks` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `webhooks` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteV1WebhooksId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscriber's id.
                 * @example whsub_01JD8ZF0000000000000000000
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The removed subscriber. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whsub_01JD8ZF0000000000000000000",
                     *       "url": "https://hooks.example.com/reelay",
                     *       "events": [
                     *         "Generation Succeeded",
                     *         "Generation Failed"
                     *       ],
                     *       "description": "CI",
                     *       "ownerKeyId": "key_01JD8ZB...",
                     *       "createdAt": "2026-11-22T00:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        createdAt: string;
                        description: string;
                        /** @description The event types it receives; absent = all. */
                        events?: string[];
                        /** @description `whsub_…` */
                        id: string;
                        /** @description The key that made it. */
                        ownerKeyId: string;
                        /** @description Its project: every key of it manages it, and it receives the project's jobs' events. */
                        project?: string;
                        url: string;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `webhooks` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `webhooks` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `webhook_subscriber_not_found`: No subscriber of this key has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "webhook_subscriber_not_found",
                     *         "message": "No subscriber of this key has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1WebhooksIdRotate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscriber's id.
                 * @example whsub_01JD8ZF0000000000000000000
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscriber, with its new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whsub_01JD8ZF0000000000000000000",
                     *       "url": "https://hooks.example.com/reelay",
                     *       "events": [
                     *         "Generation Succeeded",
                     *         "Generation Failed"
                     *       ],
                     *       "description": "CI",
                     *       "ownerKeyId": "key_01JD8ZB...",
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": {
                        createdAt: string;
                        description: string;
                        /** @description The event types it receives; absent = all. */
                        events?: string[];
                        /** @description `whsub_…` */
                        id: string;
                        /** @description The key that made it. */
                        ownerKeyId: string;
                        /** @description Its project: every key of it manages it, and it receives the project's jobs' events. */
                        project?: string;
                        /** @description `whsec_…`: shown this once; verify signatures with it. */
                        secret: string;
                        url: string;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `scope_missing`: The key lacks the `webhooks` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_missing",
                     *         "message": "The key lacks the `webhooks` scope (error.scope names it)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `webhook_subscriber_not_found`: No subscriber of this key has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "webhook_subscriber_not_found",
                     *         "message": "No subscriber of this key has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getV1WebhooksDeliveries: {
        parameters: {
            query?: {
                /**
                 * @description Only this event's deliveries (an event id), or this event type's (e.g. Generation Failed).
                 * @example vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T.succeeded
                 */
                event?: string;
                /** @description At most this many (1 to 100; default 50). */
                limit?: number;
                /** @description pending, delivered or dead. */
                status?: "pending" | "delivered" | "dead";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "dlv_01JD8ZD0000000000000000000",
                     *           "eventId": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T.succeeded",
                     *           "eventType": "Generation Succeeded",
                     *           "subscriber": "config:5d41402abc4b2a76",
                     *           "url": "https://hooks.example.com/reelay",
                     *           "status": "delivered",
                     *           "attempts": [
                     *             {
                     *               "at": "2026-11-22T00:00:41.000Z",
                     *               "latencyMs": 120,
                     *               "status": 503,
                     *               "response": "busy"
                     *             },
                     *             {
                     *               "at": "2026-11-22T00:00:46.300Z",
                     *               "latencyMs": 95,
                     *               "status": 200,
                     *               "response": "ok"
                     *             }
                     *           ],
                     *           "maxAttempts": 8,
                     *           "createdAt": "2026-11-22T00:00:41.000Z",
                     *           "updatedAt": "2026-11-22T00:00:46.395Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            attempts: {
                                /** @description When the attempt started (ISO 8601). */
                                at: string;
                                /** @description Why no answer came (network error, timeout, url_forbidden). */
                                error?: string;
                                /** @description How long the exchange took. */
                                latencyMs: number;
                                /** @description The first 1 KB of the answer, any secret cut out. */
                                response?: string;
                                /** @description The receiver's HTTP status, when it answered. */
                                status?: number;
                            }[];
                            createdAt: string;
                            /** @description The event's id, sent as `webhook-id` on every attempt. */
                            eventId: string;
                            eventType: string;
                            /** @description `dlv_…` */
                            id: string;
                            /** @description After this many failed attempts the delivery is dead. */
                            maxAttempts: number;
                            /** @description Pending only. */
                            nextAttemptAt?: string;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "dead";
                            /** @description The subscriber's id (`config:<digest>` for REELAY_WEBHOOKS). */
                            subscriber: string;
                            updatedAt: string;
                            /** @description The subscriber's URL without its query. */
                            url: string;
                        }[];
                    };
                };
            };
            /** @description `invalid_query`: status, event or limit is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_query",
                     *         "message": "status, event or limit is malformed."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postV1WebhooksDeliveriesIdRetry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The delivery's id.
                 * @example dlv_01JD8ZD0000000000000000000
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, due now. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "dlv_01JD8ZD0000000000000000000",
                     *       "eventId": "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T.succeeded",
                     *       "eventType": "Generation Succeeded",
                     *       "subscriber": "config:5d41402abc4b2a76",
                     *       "url": "https://hooks.example.com/reelay",
                     *       "status": "pending",
                     *       "attempts": [
                     *         {
                     *           "at": "2026-11-22T00:00:41.000Z",
                     *           "latencyMs": 120,
                     *           "status": 503,
                     *           "response": "busy"
                     *         },
                     *         {
                     *           "at": "2026-11-22T00:00:46.300Z",
                     *           "latencyMs": 95,
                     *           "status": 200,
                     *           "response": "ok"
                     *         }
                     *       ],
                     *       "maxAttempts": 8,
                     *       "createdAt": "2026-11-22T00:00:41.000Z",
                     *       "updatedAt": "2026-11-22T00:00:46.395Z"
                     *     }
                     */
                    "application/json": {
                        attempts: {
                            /** @description When the attempt started (ISO 8601). */
                            at: string;
                            /** @description Why no answer came (network error, timeout, url_forbidden). */
                            error?: string;
                            /** @description How long the exchange took. */
                            latencyMs: number;
                            /** @description The first 1 KB of the answer, any secret cut out. */
                            response?: string;
                            /** @description The receiver's HTTP status, when it answered. */
                            status?: number;
                        }[];
                        createdAt: string;
                        /** @description The event's id, sent as `webhook-id` on every attempt. */
                        eventId: string;
                        eventType: string;
                        /** @description `dlv_…` */
                        id: string;
                        /** @description After this many failed attempts the delivery is dead. */
                        maxAttempts: number;
                        /** @description Pending only. */
                        nextAttemptAt?: string;
                        /** @enum {string} */
                        status: "pending" | "delivered" | "dead";
                        /** @description The subscriber's id (`config:<digest>` for REELAY_WEBHOOKS). */
                        subscriber: string;
                        updatedAt: string;
                        /** @description The subscriber's URL without its query. */
                        url: string;
                    };
                };
            };
            /** @description `unauthorized`, `key_expired`: The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "The Bearer key is missing, unknown or revoked (unauthorized), or past its expires_at (key_expired)."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Only the deployment's own API key. `scope_missing`: The key lacks the `admin` scope (error.scope names it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "Only the deployment's own API key."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `delivery_not_found`: No delivery has that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "delivery_not_found",
                     *         "message": "No delivery has that id."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `delivery_conflict`: An attempt was recorded meanwhile; ask again. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "delivery_conflict",
                     *         "message": "An attempt was recorded meanwhile; ask again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: The key made more calls than its limits' rate and burst allow; Retry-After says when to call again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
