/**
 * Response shapes of reelay's API as zod schemas. They exist for the OpenAPI document (requests
 * come from core's contract schemas, which also validate); tests parse real responses with them,
 * so the document cannot drift from what the routes send.
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { FAILURE_CLASSES } from "@reelay/core/domain";

const IssueSchema = z
  .object({
    path: z
      .string()
      .describe("Field path, e.g. `frame_images[1].frame_type`; empty for the whole body."),
    code: z.string().describe("Stable machine-readable code."),
    message: z.string().describe("A sentence naming the allowed values where there are any."),
  })
  .describe("One problem with one field: an error (refused) or a warning (the request went on).");

const AdjustmentsSchema = z
  .array(
    z.object({
      path: z.string().describe("The field fit moved, e.g. `duration_sec`."),
      from: z.union([z.string(), z.number()]).describe("The value asked for."),
      to: z.union([z.string(), z.number()]).describe("The nearest value the model allows, sent."),
    }),
  )
  .describe(
    "fit (X-Reelay-Fit: nearest): each value the model refused, moved to the nearest one it allows; absent when nothing was moved.",
  );

export const ErrorSchema = z
  .object({
    error: z
      .looseObject({
        code: z.string().describe("Stable error code (see each operation's error list)."),
        message: z.string().describe("What went wrong, for a person."),
        path: z.string().optional().describe("The field at fault, when one is."),
        errors: z
          .array(IssueSchema)
          .optional()
          .describe("Every validation error, when the request broke model rules."),
      })
      .describe("The error."),
  })
  .describe("Every error reelay answers: `{error: {code, message, path?, errors?}}`.");

const StatusSchema = z
  .enum(["queued", "running", "downloading", "succeeded", "failed", "cancelled"])
  .describe("reelay's job status.");

const JobErrorSchema = z
  .looseObject({
    code: z.string(),
    message: z.string(),
    class: z
      .enum(FAILURE_CLASSES)
      .optional()
      .describe("The failure's class (reelay's job routes and events)."),
    retryable: z
      .boolean()
      .optional()
      .describe("Whether the same request may succeed later (never for content_policy)."),
    path: z
      .string()
      .optional()
      .describe("The request field the upstream named in its refusal, when it named one."),
  })
  .describe("Why the job failed or was cancelled.");

const UsageSchema = z
  .looseObject({
    unit: z.enum(["video_second", "image"]),
    quantity: z.number(),
    resolution: z.string().nullable().optional().describe("Video: null = the model's default."),
    audio: z.boolean().optional(),
    tier: z.string().nullable().optional().describe("Images: image_size; null = default."),
    reference_images: z.number().optional(),
  })
  .describe("What the job asks the upstream to make, in the units generation is billed in.");

const EstimateSchema = z
  .object({
    cost: z.number().nullable().describe("Under the price table (REELAY_PRICES); null unpriced."),
    currency: z.string().nullable(),
    price_version: z.string().nullable().describe("sha256 of the price table used."),
  })
  .describe("The cost estimated when the job was made.");

const REQUESTED_MODEL = z
  .string()
  .describe(
    "The name the request gave: an alias (`gamma-latest`), or a sunset model whose successor runs; else `model` itself.",
  );

export const TaskCreatedSchema = z
  .object({
    service_task: z
      .object({ task_id: z.string(), status: StatusSchema })
      .describe("The contract's task object (§2.5)."),
    task_id: z
      .string()
      .describe("Top-level alias of service_task.task_id: `vidtsk_<ulid>` or `imgtsk_<ulid>`."),
    status: StatusSchema,
    model: z.string(),
    requested_model: REQUESTED_MODEL,
    warnings: z.array(IssueSchema).describe("Soft rules the request broke; it went on anyway."),
    adjustments: AdjustmentsSchema.optional(),
    estimate: EstimateSchema.extend({ usage: UsageSchema }).describe(
      "What the job will use and (with a price table) cost.",
    ),
  })
  .describe("A created task.");

export const TaskSchema = z
  .object({
    service_task: z
      .object({
        task_id: z.string(),
        status: StatusSchema,
        output: z.object({ video_url: z.string() }).optional(),
      })
      .describe("The contract's task object (§2.5)."),
    task_id: z.string(),
    status: StatusSchema,
    video_url: z
      .string()
      .optional()
      .describe("Presigned GET of the durable S3 copy; only once succeeded."),
    output: z
      .object({
        url: z.string(),
        bytes: z.number(),
        sha256: z.string(),
        content_type: z.string(),
        expires_at: z.string(),
      })
      .optional()
      .describe("The stored output, only once succeeded."),
    error: JobErrorSchema.nullable(),
    reused_from: z
      .string()
      .optional()
      .describe(
        "reuse (X-Reelay-Reuse): the job whose output this one copied into its own outputs/<id>/ instead of making an upstream task; such a job is charged false, cost 0.",
      ),
    fingerprint: z
      .string()
      .optional()
      .describe(
        "sha256 of the model, the normalized request and each stored material's sha256: identical requests share it, and reuse matches on it.",
      ),
    queue_position: z
      .number()
      .optional()
      .describe(
        "While the job waits for an upstream slot: its place among the same caller's waiting jobs (1 = next; approximate).",
      ),
  })
  .describe(
    "A task as the service contract shows it: clients written for the upstream read it unchanged.",
  );

const MediaSchema = z
  .object({
    duration_s: z.number().nullable().describe("Seconds; null for an image."),
    width: z.number(),
    height: z.number(),
    codec: z.string().describe("ffprobe's codec name (h264, hevc, av1) or the image format."),
    fps: z.number().nullable().describe("Frames per second; null for an image."),
    bytes: z.number(),
  })
  .describe("What the stored output is, read from its MP4 boxes or image header, never decoded.");

const OutputSchema = z.object({
  bucket: z.string(),
  key: z.string().describe("outputs/<jobId>/..."),
  bytes: z.number(),
  sha256: z.string(),
  contentType: z.string(),
  media: MediaSchema.optional(),
  delivered: z
    .object({ bucket: z.string(), key: z.string() })
    .optional()
    .describe("The copy in the job's output.s3_prefix: `<prefix><job id>/<file name>`."),
  url: z
    .string()
    .nullable()
    .describe("Presigned GET; null until succeeded, and again once the outputs expired."),
  expiresAt: z
    .string()
    .nullable()
    .describe("When the link ends: never after the job's expires_at."),
});

const PreviewSchema = z.object({
  key: z.string().describe("outputs/<jobId>/thumbnail.jpg or spritesheet.jpg"),
  bytes: z.number(),
  contentType: z.string(),
  width: z.number(),
  height: z.number(),
  url: z.string().describe("Presigned GET."),
});

const PreviewsSchema = z
  .object({
    thumbnail: PreviewSchema,
    spritesheet: PreviewSchema.extend({
      columns: z.number(),
      rows: z.number(),
      frames: z.number(),
      frameWidth: z.number(),
      frameHeight: z.number(),
      intervalS: z.number().describe("Seconds of video between two frames; the first is at 0."),
    }),
  })
  .describe(
    "A succeeded video's poster frame and spritesheet (frames left to right, then top to bottom); null for images, unfinished jobs and videos that could not be decoded (a `thumbnail_failed` warning).",
  );

export const JobViewSchema = z
  .looseObject({
    id: z.string(),
    kind: z.enum(["video", "image"]),
    status: StatusSchema,
    model: z.string(),
    requested_model: REQUESTED_MODEL,
    mode: z.string(),
    request: z
      .looseObject({})
      .describe("The normalised request (presigned URLs shown without their signature)."),
    warnings: z.array(IssueSchema),
    adjustments: AdjustmentsSchema.optional(),
    source: z
      .looseObject({
        type: z.enum(["api", "drop", "cli"]),
        bucket: z.string().optional(),
        key: z.string().optional(),
        line: z.number().optional(),
      })
      .describe("Where the job came from; a drop names its S3 object."),
    upstreamTaskId: z.string().nullable(),
    upstream: z
      .object({ account: z.string(), task_id: z.string().nullable() })
      .nullable()
      .describe(
        "The upstream account the job is pinned to (`default` without a pool) and its task there; every poll and download uses that account.",
      ),
    attempts: z
      .array(
        z.object({
          account: z.string(),
          task_id: z.string().nullable(),
          outcome: z.string(),
          charged: z.union([z.boolean(), z.literal("unknown")]).nullable(),
          cost: z.number().nullable(),
        }),
      )
      .describe(
        "Each upstream attempt: tries whose task failed on another account (REELAY_FALLBACK_ATTEMPTS), then the current one. The job's cost is their sum.",
      ),
    polls: z.number(),
    outputs: z.array(OutputSchema),
    media: MediaSchema.nullable().describe(
      "The (first) output's media; null until downloaded. A difference from the request is an `output_mismatch` warning.",
    ),
    retention_days: z
      .number()
      .nullable()
      .describe(
        "Days the outputs are kept once stored (retention_days, else REELAY_RETENTION_DAYS); null = for good.",
      ),
    created_by_version: z
      .string()
      .nullable()
      .describe("The reelay release that made the job; null for a job made before 0.1.0."),
    expires_at: z
      .string()
      .nullable()
      .describe("When the outputs expire; null before they are stored, or when kept for good."),
    outputs_expired: z
      .boolean()
      .describe("True once expires_at passed: the record stays, its outputs have no links."),
    output_target: z
      .object({ s3_prefix: z.string() })
      .nullable()
      .describe("Where the outputs are copied besides reelay's bucket (output.s3_prefix)."),
    metadata: z
      .record(z.string(), z.string())
      .describe("Your own string pairs (metadata / X-Reelay-Metadata) as given; {} when none."),
    previews: PreviewsSchema.nullable(),
    error: JobErrorSchema.nullable(),
    usage: UsageSchema,
    estimate: EstimateSchema,
    cost: z
      .number()
      .nullable()
      .describe(
        "What the job cost once ended (0 when not charged); null while running or unpriced.",
      ),
    charged: z
      .union([z.boolean(), z.literal("unknown")])
      .nullable()
      .describe(
        "Once ended: false when no upstream task was made, true when one was (succeeded or cancelled while generating), unknown for a failed task.",
      ),
    history: z
      .array(z.looseObject({ status: z.string(), at: z.string() }))
      .describe("Every state the job went through, with timestamps."),
    timings: z.looseObject({
      createdAt: z.string(),
      updatedAt: z.string(),
      totalMs: z.number().nullable(),
    }),
    priority: z
      .enum(["high", "normal", "low"])
      .describe("Admission order among the caller's own jobs (X-Reelay-Priority)."),
    queue_position: z
      .number()
      .optional()
      .describe(
        "While the job waits for an upstream slot: its place among the same caller's waiting jobs (1 = next; approximate).",
      ),
  })
  .describe("reelay's full job record.");

export const JobListSchema = z
  .object({
    data: z.array(JobViewSchema),
    next_cursor: z
      .string()
      .nullable()
      .describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .describe("A page of jobs, newest first.");

const ModelItemSchema = z
  .object({
    id: z
      .string()
      .describe(
        "Model code; a prefix entry (match=prefix) stands for every code starting with it.",
      ),
    object: z.literal("model"),
    family: z.string().nullable(),
    modality: z.enum(["video", "image"]).nullable(),
    match: z.enum(["exact", "prefix"]),
    modes: z
      .array(z.string())
      .nullable()
      .describe(
        "Video: text, first_frame, first_last_frame, reference, video_edit. Image: text, edit.",
      ),
    resolutions: z
      .array(z.string())
      .nullable()
      .describe("Video resolutions or image sizes the model takes."),
    durations: z.array(z.number()).nullable().describe("Allowed duration_sec values (video)."),
    aspect_ratios: z.array(z.string()).nullable(),
    audio_default: z
      .boolean()
      .nullable()
      .describe("generate_audio when the request leaves it out (video)."),
    config_keys: z.array(z.string()).nullable().describe("The model_specific_config allow-list."),
    source: z
      .enum(["catalog", "upstream", "both"])
      .describe(
        "catalog: reelay's rules only; upstream: listed by the upstream, no rules known; both.",
      ),
    accounts: z
      .array(z.string())
      .optional()
      .describe(
        "Over a pool (REELAY_UPSTREAMS): the accounts that list the model and whose `models` allow it.",
      ),
    aliases: z
      .array(z.string())
      .describe(
        "Names a create may give for this model (built-in `<family>-latest`, REELAY_MODEL_ALIASES).",
      ),
    deprecated_at: z
      .string()
      .nullable()
      .describe(
        "ISO time from which the model is deprecated: creates get a `Deprecation` header and a `model_deprecated` warning.",
      ),
    sunset_at: z
      .string()
      .nullable()
      .describe(
        "ISO time from which creates are refused `model_sunset` (or run the successor, for a key with `on_sunset: successor`).",
      ),
    successor: z.string().nullable().describe("The model that replaces it."),
  })
  .describe("One model. Upstream-only models carry no ranges (null).");

export const ModelListSchema = z
  .object({
    object: z.literal("list"),
    data: z.array(ModelItemSchema),
    aliases: z
      .record(z.string(), z.string())
      .describe("Every alias and the model code it stands for."),
    warnings: z.array(IssueSchema).describe("Set when the upstream's listing was not available."),
  })
  .describe("The models reelay knows, merged with the upstream's listing.");

const StoredFileSchema = z.object({
  url: z.string().describe("Presigned GET of the S3 copy under outputs/<jobId>/."),
  bytes: z.number(),
  sha256: z.string(),
  content_type: z.string(),
  expires_at: z.string(),
});

export const ImageTaskSchema = z
  .object({
    service_task: z.object({ task_id: z.string(), status: StatusSchema }),
    task_id: z.string(),
    status: StatusSchema,
    model: z.string(),
    images: z
      .array(StoredFileSchema)
      .optional()
      .describe("Every stored image, only once succeeded."),
    data: z
      .array(z.object({ url: z.string() }))
      .optional()
      .describe("The same URLs in OpenAI's shape."),
    error: JobErrorSchema.nullable(),
  })
  .describe("An image task: the contract's task shape plus the stored images.");

export const ApiKeySchema = z
  .object({
    id: z.string().describe("Public id, recorded on the key's jobs."),
    name: z.string(),
    hint: z.string().describe("The first characters of the key."),
    createdAt: z.string(),
    revokedAt: z.string().optional(),
    expires_at: z.string().optional().describe("After this time the key is 401 key_expired."),
    on_sunset: z
      .enum(["refuse", "successor"])
      .optional()
      .describe(
        "A create on a model past its sunset_at: `successor` runs its successor (with a model_substituted warning); absent or `refuse`, 400 model_sunset.",
      ),
    last_used_at: z
      .string()
      .optional()
      .describe("When a call last used the key, to the minute (written at most once a minute)."),
    scopes: z
      .array(z.enum(["read", "write", "webhooks", "admin"]))
      .describe("What the key may do; a key made before scopes has read, write and webhooks."),
    project: z
      .string()
      .describe("Its project; a key made without one is alone in one named by its id."),
    budget: z
      .object({
        amount: z.number(),
        unit: z.enum(["currency", "units"]),
        period: z.enum(["day", "month", "total"]),
        used: z.number().optional().describe("This period's spend and open reservations."),
      })
      .optional()
      .describe("What the key may spend per period; absent = no limit."),
    limits: z
      .object({
        rate: z.number().nullable(),
        burst: z.number().nullable(),
        max_queued: z.number().nullable(),
        max_in_flight: z.number().nullable(),
      })
      .optional()
      .describe("The limits that hold for the key: its own over REELAY_KEY_LIMITS's; null = none."),
    key: z.string().optional().describe("The key itself: only in the answer to create."),
    webhook_secret: z
      .string()
      .optional()
      .describe(
        "The whsec_ secret that signs its jobs' own webhooks: only in the answer to create.",
      ),
  })
  .describe("A stored API key (hashed; the key is shown once).");

export const ApiKeyListSchema = z
  .object({ data: z.array(ApiKeySchema) })
  .describe("Every stored key.");

export const HealthSchema = z
  .looseObject({
    ok: z.boolean(),
    version: z.string().describe("The reelay release serving (CHANGELOG.md)."),
  })
  .describe("Readiness; local stack adds its S3 endpoint and upstream.");

export type ModelItem = z.infer<typeof ModelItemSchema>;

export const AdmissionSchema = z
  .object({
    limit: z.number().describe("Upstream tasks in flight at most, now."),
    limitSource: z
      .enum(["configured", "learned"])
      .describe("REELAY_UPSTREAM_CONCURRENCY, or learned from the upstream's 429s."),
    ratePerS: z.number().nullable().describe("REELAY_UPSTREAM_RATE, creates per second."),
    held: z.array(z.string()).describe("The jobs holding an upstream slot."),
    queued: z.number().describe("Jobs waiting for a slot."),
    heldBackUntil: z
      .string()
      .nullable()
      .describe("Set while the create rate or an upstream's Retry-After holds admissions back."),
  })
  .describe("Admission control: upstream slots and the queue.");

const CountsSchema = z
  .object({
    queued: z.number(),
    running: z.number(),
    downloading: z.number(),
    succeeded: z.number(),
    failed: z.number(),
    cancelled: z.number(),
    rejected: z.number().describe("Lines refused by validation: no job, nothing spent."),
  })
  .describe("Jobs by status, plus rejected lines; always sums to total.");

export const BatchSchema = z
  .object({
    id: z.string().describe("`bat_<ulid>`."),
    object: z.literal("batch"),
    status: z.enum(["in_progress", "completed"]),
    total: z.number().describe("Request lines, valid or not."),
    counts: CountsSchema,
    source: z.looseObject({ type: z.enum(["api", "drop", "cli"]) }),
    priority: z.enum(["high", "normal", "low"]),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    eta_seconds: z
      .number()
      .nullable()
      .describe("At the rate jobs have ended so far; null before the first."),
    results: z
      .object({ bucket: z.string(), key: z.string() })
      .nullable()
      .describe("outputs/batches/<id>/results.jsonl, once completed."),
    retry_of: z.string().nullable().describe("The batch whose failures this one retries."),
    metadata: z
      .record(z.string(), z.string())
      .describe("The batch's own metadata, under each line's own; {} when none."),
  })
  .describe("A batch: many requests made together, one job per valid line.");

export const BatchListSchema = z.object({ data: z.array(BatchSchema) });

export const BatchResultsSchema = z
  .string()
  .describe("JSON lines: line, job_id, status, outputs (with fresh links), error.");

const UsageRowSchema = z.object({
  jobs: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  cancelled: z.number(),
  in_progress: z.number().describe("Not ended yet: counted nowhere else until they end."),
  units: z
    .object({ video_seconds: z.number(), images: z.number() })
    .describe("What was charged (or may have been: `unknown` counts, at its estimate)."),
  cost: z.number().nullable().describe("Null without a price table."),
  unpriced: z.number().describe("Charged jobs the table does not price (not in `cost`)."),
  failures: z.record(z.string(), z.number()).describe("Failed jobs by error.class."),
  charged_failures: z.number().describe("Failed jobs that were or may have been charged."),
  charged: z
    .number()
    .describe("Ended jobs that were or may have been charged: each made an upstream task."),
  reused: z
    .number()
    .describe(
      "Ended jobs served from another job's output (reuse / X-Reelay-Reuse), charged nothing.",
    ),
  saved: z
    .number()
    .nullable()
    .describe(
      "What the reused jobs' sources were estimated to cost: the money reuse saved. Null without a price table.",
    ),
});

export const UsageReportSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    group_by: z.enum(["model", "key", "day", "batch", "account"]),
    currency: z.string().nullable(),
    totals: UsageRowSchema,
    groups: z.array(UsageRowSchema.extend({ group: z.string().nullable() })),
    budgets: z.array(
      z.object({
        budget: z.enum(["key", "deployment"]),
        id: z.string().nullable(),
        amount: z.number(),
        unit: z.enum(["currency", "units"]),
        period: z.enum(["day", "month", "total"]),
        used: z.number(),
        remaining: z.number(),
      }),
    ),
  })
  .describe("Usage over the jobs created in [from, to), with the budgets in force.");
