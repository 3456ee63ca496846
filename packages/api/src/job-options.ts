/**
 * A job's options (domain/jobs/job-options.ts) as a request gives them: fields of reelay's own
 * bodies (a batch's JSON), X-Reelay-* headers on the contract's create routes, whose bodies are the
 * contract's own (and on a batch, for what its body does not give). One zod schema reads the body
 * form; the headers are mapped onto that form and read by the same schema, so each option is checked
 * once, and a refusal (400, the option's own code) names the field or the header it came from.
 *
 * - `priority`: the job's place among the caller's own (high, normal, low).
 * - `queue_timeout_s`: how long it may wait for an upstream slot before it ends `failed` /
 *   `queue_timeout`, whole seconds from 1 to REELAY_QUEUE_TIMEOUT_S: a longer wait than the
 *   deployment allows is refused, not cut short silently.
 * - `reuse`: whether a request may be served from an earlier identical one: a maximum age, a whole
 *   number of minutes, hours or days (`30m`, `12h`, `7d`, at most 365 days), or `false`; off when
 *   absent, since a generation is not deterministic and a caller must ask for a copy.
 * - `webhook_url`, `webhook_events`: the job's own webhook. Its deliveries are signed with the
 *   webhook secret of the key that asked (`reelay keys create` shows it once), so the deployment's
 *   own key, which has none, cannot ask. The URL is user input: it gets the managed subscribers'
 *   check (domain/webhooks/url-guard.ts), a 400 whose code names why.
 * - `retention_days`: how long its outputs are kept, a positive number of days, fractions allowed
 *   (0.5 is twelve hours), up to MAX_RETENTION_DAYS; absent = REELAY_RETENTION_DAYS.
 * - `output: {"s3_prefix": "s3://bucket/prefix/"}`: where its outputs are also copied; the bucket
 *   must be one of REELAY_OUTPUT_BUCKETS.
 * - `fit`: `nearest` moves a duration, resolution or aspect ratio the model refuses to the nearest
 *   one it allows (domain/validate/fit.ts), the moves kept on the job as `adjustments`.
 * - `metadata`: the caller's own string pairs (domain/jobs/metadata.ts has the limits), a JSON
 *   object in the body or in X-Reelay-Metadata; a refusal (`invalid_metadata`) names the key.
 * - `user`: the app's own opaque id for its end user, 1 to MAX_USER_LENGTH printable characters (no
 *   control characters); the key's user_limits hold per end user.
 *
 * A new option is its field in JobOptions (domain/jobs/job-options.ts, with its name, and whether a
 * retry keeps it), its header, zod field, refusal and header mapping here, and the code that acts on
 * it; the record, a batch's lines and the batch body's known fields carry it with no more change.
 * Its header is in the OpenAPI document, so the client's generated types are made again
 * (`npm run schema -w @reelay/client`).
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all of it).
import * as z from "zod";
import {
  checkMetadata,
  checkWebhookUrl,
  FIT_MODES,
  givenOptions,
  invalidUser,
  isUserId,
  type JobOptions,
  type JobWebhook,
  MAX_METADATA_KEY,
  MAX_METADATA_PAIRS,
  MAX_METADATA_VALUE,
  MAX_RETENTION_DAYS,
  parseOutputTarget,
  PRIORITIES,
  ReelayError,
  WEBHOOK_EVENT_TYPES,
} from "@reelay/core/domain";
import { systemResolver } from "@reelay/core/wiring";
import { isAdmin } from "./auth.ts";
import type { Caller, ResolvedDeps } from "./api-deps.ts";

/** Each field of the body form, and the header that carries it as the OpenAPI document describes it. */
const OPTION_HEADERS = {
  priority: {
    name: "X-Reelay-Priority",
    description:
      "Admission order among the caller's own jobs while they wait for an upstream slot: high, normal (the default) or low. Callers are served in turn whatever their priorities.",
    schema: { type: "string", enum: [...PRIORITIES] },
    example: "high",
  },
  queue_timeout_s: {
    name: "X-Reelay-Queue-Timeout",
    description:
      "Seconds the job may wait for an upstream slot (1 to REELAY_QUEUE_TIMEOUT_S); not admitted by then, it ends failed `queue_timeout`, charged false, its reservation released. Batches: `queue_timeout_s` in the JSON body, or this header.",
    schema: { type: "integer", minimum: 1 },
    example: "60",
  },
  reuse: {
    name: "X-Reelay-Reuse",
    description:
      "Pay once for the same request: a maximum age (`30m`, `12h`, `7d`, at most 365d) or `false` (the default). A request whose fingerprint (model, normalized request, each stored material's sha256) matches a job of the same project that succeeded within that age succeeds from a copy of its output, `reused_from` set, charged false, cost 0, no upstream call; identical requests in flight share one upstream task. Batches: `reuse` in the JSON body, or this header.",
    schema: { type: "string", pattern: "^(\\d{1,6}[mhd]|false)$" },
    example: "7d",
  },
  webhook_url: {
    name: "X-Reelay-Webhook",
    description:
      "The job's own webhook: its terminal event is POSTed there per Standard Webhooks, with the durable retry schedule, signed with the webhook secret of the API key that made it (a stored key: `reelay keys create` shows it once). The URL is checked at create: https to a public address on AWS (400 webhook_url_scheme, webhook_url_loopback, webhook_url_private or webhook_url_metadata otherwise).",
    schema: { type: "string", format: "uri", maxLength: 2000 },
    example: "https://hooks.example.com/reelay",
  },
  webhook_events: {
    name: "X-Reelay-Webhook-Events",
    description:
      "With X-Reelay-Webhook: the event types it receives, comma separated (Generation Succeeded, Generation Failed, Generation Cancelled, Batch Completed); default all.",
    schema: { type: "string" },
    example: "Generation Succeeded,Generation Failed",
  },
  retention_days: {
    name: "X-Reelay-Retention-Days",
    description:
      "Days the job's outputs are kept once stored (fractions allowed, at most 3650); default REELAY_RETENTION_DAYS, unset = for good. Then the job answers `outputs_expired: true` with no links, its record kept 30 days more. Batches: `retention_days` in the JSON body, or this header.",
    schema: { type: "number", exclusiveMinimum: 0, maximum: 3650 },
    example: "7",
  },
  output: {
    name: "X-Reelay-Output-S3-Prefix",
    description:
      "`s3://<bucket>/<prefix>/`: the outputs are also copied there, as `<prefix><job id>/<file name>`, besides reelay's bucket; the bucket must be listed in REELAY_OUTPUT_BUCKETS. Batches: `output: {s3_prefix}` in the JSON body, or this header.",
    schema: { type: "string" },
    example: "s3://my-renders/campaign-7/",
  },
  fit: {
    name: "X-Reelay-Fit",
    description:
      "`nearest`: a duration, resolution or aspect ratio (an image's size or ratio) the model refuses moves to the nearest one it allows, instead of a 400: a duration to the closest whole seconds (a tie to the longer), a resolution to the closest in lines (a tie to the higher), a ratio to the closest as a ratio (a tie to the one the model lists first). The job's `adjustments` lists each move as `{path, from, to}`. A material the model cannot take is refused all the same, and a request fitting cannot make valid is refused as asked. Batches: `fit` in the JSON body, or this header.",
    schema: { type: "string", enum: [...FIT_MODES] },
    example: "nearest",
  },
  metadata: {
    name: "X-Reelay-Metadata",
    description: `Your own string pairs as a JSON object, at most ${MAX_METADATA_PAIRS} pairs, keys of 1 to ${MAX_METADATA_KEY} characters, values of at most ${MAX_METADATA_VALUE}; shown back as given in the job's view, job.json, its terminal event and webhooks and its batch's results, and listed by with GET /v1/jobs?metadata.KEY=VALUE. Characters outside ASCII as JSON \\u escapes. Over the limits, not JSON, or a value not a string: 400 invalid_metadata naming the key. Batches: \`metadata\` in the JSON body (a line's own \`metadata\` laid over it), or this header.`,
    schema: { type: "string", maxLength: 16_384 },
    example: '{"order":"42","customer":"c_981"}',
  },
  user: {
    name: "X-Reelay-User",
    description:
      "The app's own opaque id for its end user (1-128 printable characters, no control characters): the job keeps it (view, job.json, events, webhooks, batch results), the key's `user_limits` hold per end user (429/402 for that user while the key's other users are served), `GET /v1/jobs?user=` finds its jobs and `GET /v1/usage?group_by=user` sums by it. Batches: `user` in the JSON body, or this header.",
    schema: { type: "string", minLength: 1, maxLength: 128 },
    example: "user-4711",
  },
};
type OptionField = keyof typeof OPTION_HEADERS;
export const OPTION_FIELDS = Object.keys(OPTION_HEADERS) as OptionField[];

/** The headers as OpenAPI parameters of the create routes and of a batch. */
export const OPTION_PARAMETERS = OPTION_FIELDS.map((field) => {
  const { name, description, schema, example } = OPTION_HEADERS[field];
  return { name, in: "header" as const, required: false, description, schema, example };
});

/** What the checks need: the deployment's limits and the caller who asks. */
export interface OptionsContext {
  deps: Pick<ResolvedDeps, "outputBuckets"> & {
    admission: { settings: Pick<ResolvedDeps["admission"]["settings"], "queueTimeoutS"> };
    /** Where reelay runs, for a job webhook URL's check. */
    webhooks: { managed: Pick<ResolvedDeps["webhooks"]["managed"], "deployment"> };
  };
  caller: Caller;
}

/** Where a form came from: the name a refusal gives each field. */
interface Door {
  shown: (field: OptionField) => string;
  s3Prefix: string;
}
const BODY: Door = { shown: (field) => field, s3Prefix: "output.s3_prefix" };
const HEADERS: Door = {
  shown: (field) => OPTION_HEADERS[field].name,
  s3Prefix: OPTION_HEADERS.output.name,
};

const REUSE_UNIT_S: Record<string, number> = { m: 60, h: 3600, d: 86_400 };
const MAX_REUSE_AGE_S = 365 * 86_400;
const REUSE_AGE = /^(\d{1,6})([mhd])$/;
const MAX_WEBHOOK_URL = 2000;

/** A metadata header whose text is not JSON, carried to the schema to be refused there. */
class NotJson {
  constructor(readonly reason: string) {}
}

function metadataOf(value: unknown, door: Door, zctx: z.RefinementCtx) {
  if (value === undefined) return undefined;
  const field = door.shown("metadata");
  try {
    if (value instanceof NotJson)
      throw new ReelayError(
        "invalid_metadata",
        `${field} must be a JSON object of string pairs, such as {"order":"42"}: ${value.reason}.`,
        { status: 400, path: field },
      );
    return checkMetadata(value, field);
  } catch (error) {
    return refused(zctx, value, error);
  }
}

/** A header's JSON text parsed, or NotJson; undefined when it is absent. */
function jsonIn(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return new NotJson(error instanceof SyntaxError ? error.message.slice(0, 120) : "unreadable");
  }
}

/** A domain check's refusal carried through zod as the issue's own. */
function refused(ctx: z.RefinementCtx, input: unknown, error: unknown): typeof z.NEVER {
  if (!(error instanceof ReelayError)) throw error;
  ctx.addIssue({ code: "custom", input, message: error.message, params: { error } });
  return z.NEVER;
}

function reuseSeconds(value: string | false | undefined, ctx: z.RefinementCtx) {
  if (value === undefined || value === false) return undefined;
  const match = REUSE_AGE.exec(value.trim());
  const seconds = match === null ? 0 : Number(match[1]) * (REUSE_UNIT_S[match[2] ?? ""] ?? 0);
  if (seconds >= 1 && seconds <= MAX_REUSE_AGE_S) return seconds;
  ctx.addIssue({ code: "custom", input: value, message: "not a maximum age" });
  return z.NEVER;
}

function invalidWebhook(path: string, message: string): ReelayError {
  return new ReelayError("invalid_request", message, { status: 400, path });
}

function webhookEvents(raw: unknown, path: string): string[] | undefined {
  if (raw === undefined) return undefined;
  const list =
    typeof raw === "string" ? raw.split(",").map((part) => part.trim()) : (raw as unknown[]);
  const known = WEBHOOK_EVENT_TYPES as readonly string[];
  if (!Array.isArray(list) || list.length === 0 || !list.every((e) => known.includes(e as string)))
    throw invalidWebhook(path, `${path} lists event types, each one of: ${known.join(", ")}.`);
  return list as string[];
}

/** The webhook asked for (its URL's shape already checked), checked; undefined when none was. */
async function checkedWebhook(
  ctx: OptionsContext,
  door: Door,
  url: string | undefined,
  events: unknown,
): Promise<JobWebhook | undefined> {
  const paths = { url: door.shown("webhook_url"), events: door.shown("webhook_events") };
  if (url === undefined) {
    if (events !== undefined)
      throw invalidWebhook(paths.events, `${paths.events} needs ${paths.url}.`);
    return undefined;
  }
  if (isAdmin(ctx.caller))
    throw new ReelayError(
      "webhook_needs_stored_key",
      "A job's own webhook is signed with the webhook secret of the API key that made the job; the deployment's own key has none. Make a key with `reelay keys create` (it shows its whsec_ secret once) and create the job with it.",
      { status: 400, path: paths.url },
    );
  const deployment = ctx.deps.webhooks.managed.deployment;
  let checked: string;
  try {
    checked = await checkWebhookUrl(url, deployment, systemResolver);
  } catch (error) {
    if (!(error instanceof ReelayError)) throw error;
    throw new ReelayError(error.code, error.message, { status: 400, path: paths.url });
  }
  const list = webhookEvents(events, paths.events);
  return { url: checked, ...(list === undefined ? {} : { events: list }) };
}

/** The body form, as JobOptions; a form read from the headers gives its refusals the headers' names. */
function optionsSchema(ctx: OptionsContext, door: Door) {
  const maxWaitS = ctx.deps.admission.settings.queueTimeoutS;
  const buckets = ctx.deps.outputBuckets ?? [];
  return z
    .object({
      priority: z.enum(PRIORITIES).optional(),
      queue_timeout_s: z.int().min(1).max(maxWaitS).optional(),
      reuse: z
        .union([z.literal(false), z.string()])
        .optional()
        .transform(reuseSeconds),
      webhook_url: z.string().min(1).max(MAX_WEBHOOK_URL).optional(),
      webhook_events: z.unknown().optional(),
      retention_days: z.number().positive().max(MAX_RETENTION_DAYS).optional(),
      output: z
        .strictObject({ s3_prefix: z.unknown() })
        .optional()
        .transform((output, zctx) => {
          if (output === undefined) return undefined;
          try {
            return parseOutputTarget(output.s3_prefix, buckets, door.s3Prefix);
          } catch (error) {
            return refused(zctx, output, error);
          }
        }),
      fit: z.enum(FIT_MODES).optional(),
      metadata: z
        .unknown()
        .optional()
        .transform((value, zctx) => metadataOf(value, door, zctx)),
      user: z.string().refine(isUserId).optional(),
    })
    .transform(async (form, zctx): Promise<JobOptions> => {
      let webhook: JobWebhook | undefined;
      try {
        webhook = await checkedWebhook(ctx, door, form.webhook_url, form.webhook_events);
      } catch (error) {
        return refused(zctx, form, error);
      }
      return givenOptions({
        priority: form.priority,
        queueTimeoutS: form.queue_timeout_s,
        reuseMaxAgeS: form.reuse,
        webhook,
        retentionDays: form.retention_days,
        outputTarget: form.output,
        fit: form.fit,
        metadata: form.metadata,
        user: form.user,
      });
    });
}

/** The first issue as the option's own refusal: its code, and the field or header it came from. */
function refusal(issue: z.core.$ZodIssue, door: Door, maxWaitS: number): ReelayError {
  const carried = (issue as { params?: { error?: unknown } }).params?.error;
  if (carried instanceof ReelayError) return carried;
  const field = issue.path[0] as OptionField;
  const path = door.shown(field);
  const at = { status: 400, path };
  switch (field) {
    case "priority":
      return new ReelayError(
        "invalid_priority",
        `${path} must be one of ${PRIORITIES.join(", ")}.`,
        at,
      );
    case "queue_timeout_s":
      return new ReelayError(
        "invalid_queue_timeout",
        `${path} must be a whole number of seconds from 1 to ${maxWaitS} (REELAY_QUEUE_TIMEOUT_S).`,
        at,
      );
    case "reuse": {
      const shown = JSON.stringify(issue.input)?.slice(0, 40) ?? String(issue.input);
      return new ReelayError(
        "invalid_reuse",
        `${path} must be a maximum age such as 30m, 12h or 7d (at most 365d), or false; got ${shown}.`,
        at,
      );
    }
    case "retention_days":
      return new ReelayError(
        "invalid_retention",
        `${path} must be a positive number of days (fractions allowed) up to ${MAX_RETENTION_DAYS}.`,
        at,
      );
    case "fit":
      return new ReelayError("invalid_fit", `${path} must be ${FIT_MODES.join(" or ")}.`, at);
    case "output": {
      if (issue.code !== "unrecognized_keys")
        return new ReelayError(
          "invalid_output_target",
          `${path} must be {"s3_prefix": "s3://..."}.`,
          at,
        );
      const unknown = (issue.keys[0] ?? "").slice(0, 40);
      return new ReelayError(
        "invalid_output_target",
        `${path} takes only s3_prefix, not ${unknown}.`,
        {
          status: 400,
          path: `${path}.${unknown}`,
        },
      );
    }
    case "user":
      return invalidUser(path);
    default:
      return invalidWebhook(
        path,
        `${path} is an absolute https URL of at most ${MAX_WEBHOOK_URL} characters.`,
      );
  }
}

async function readForm(ctx: OptionsContext, form: unknown, door: Door): Promise<JobOptions> {
  const read = await optionsSchema(ctx, door).safeParseAsync(form, { reportInput: true });
  if (read.success) return read.data;
  const maxWaitS = ctx.deps.admission.settings.queueTimeoutS;
  const [first] = read.error.issues;
  if (first === undefined) throw read.error;
  throw refusal(first, door, maxWaitS);
}

type HeaderOf = (name: string) => string | undefined;

/** A number's text, or NaN (refused) when it is not only such digits. */
function numberIn(text: string | undefined, digits: RegExp): number | undefined {
  if (text === undefined) return undefined;
  return digits.test(text) ? Number(text) : Number.NaN;
}

/** The headers mapped onto the body form: each header's text as the field's JSON value. */
function headerForm(header: HeaderOf): Record<OptionField, unknown> {
  const text = (field: OptionField) => header(OPTION_HEADERS[field].name);
  const reuse = text("reuse")?.trim().toLowerCase();
  const output = text("output");
  return {
    priority: text("priority")?.trim().toLowerCase(),
    queue_timeout_s: numberIn(text("queue_timeout_s"), /^\s*\d{1,9}\s*$/),
    reuse: reuse === "false" ? false : reuse,
    webhook_url: text("webhook_url"),
    webhook_events: text("webhook_events"),
    retention_days: numberIn(text("retention_days"), /^\s*\d{1,6}(\.\d{1,12})?\s*$/),
    output: output === undefined ? undefined : { s3_prefix: output },
    fit: text("fit")?.trim().toLowerCase(),
    metadata: jsonIn(text("metadata")),
    user: text("user"),
  };
}

/** The contract's create routes: the options in the X-Reelay-* headers. */
export function readHeaderOptions(ctx: OptionsContext, header: HeaderOf): Promise<JobOptions> {
  return readForm(ctx, headerForm(header), HEADERS);
}

/**
 * A batch: the options its JSON body gives (`form`, its option fields unchecked), the headers for
 * the rest. The body's field wins over its header, but for priority, where the header wins; a
 * webhook is taken whole (URL and events) from the body or from the headers.
 */
export async function readBatchOptions(
  ctx: OptionsContext,
  form: Record<string, unknown>,
  header: HeaderOf,
): Promise<JobOptions> {
  const fromBody = await readForm(ctx, form, BODY);
  const webhookInBody = form.webhook_url !== undefined || form.webhook_events !== undefined;
  const inBody = (field: OptionField) =>
    field.startsWith("webhook_")
      ? webhookInBody
      : field !== "priority" && form[field] !== undefined;
  const rest = Object.entries(headerForm(header)).filter(
    ([field]) => !inBody(field as OptionField),
  );
  const fromHeaders = await readForm(ctx, Object.fromEntries(rest), HEADERS);
  return givenOptions({
    ...fromHeaders,
    ...fromBody,
    priority: fromHeaders.priority ?? fromBody.priority,
  });
}
