/**
 * The only module that reads `process.env`. Everything else receives a Config.
 * Values are validated once; a bad value is a ReelayError naming the variable.
 */
import {
  type AdmissionSettings,
  DEFAULT_QUEUE_TIMEOUT_S,
  MAX_UPSTREAM_CONCURRENCY,
} from "../domain/admission/settings.ts";
import { createCatalog } from "../domain/catalog/catalog.ts";
import { closeMatches } from "../domain/catalog/close-matches.ts";
import {
  type ModelSettings,
  parseModelAliases,
  parseModelLifecycle,
} from "../domain/catalog/model-settings.ts";
import { ReelayError, shownInput } from "../domain/errors.ts";
import { DEFAULT_MAX_OUTPUT_BYTES } from "../domain/net/policy.ts";
import { isBucketName } from "../domain/jobs/delivery.ts";
import { MAX_RETENTION_DAYS } from "../domain/jobs/retention.ts";
import { DEFAULT_UPLOAD_RETENTION_DAYS } from "../domain/uploads/upload.ts";
import { MAX_JOB_TIMEOUT_S } from "../domain/polling/policy.ts";
import { VERIFY_MODES, type VerifyMode } from "../domain/media/types.ts";
import { parseBaseUrl } from "../adapters/upstream/base-url.ts";
import { type Budget, parseBudgetText } from "../domain/money/budget-schema.ts";
import {
  type KeyLimitDefaults,
  NO_KEY_LIMITS,
  parseKeyLimitDefaults,
} from "../domain/keys/key-limits.ts";
import { parsePrices, type PriceTable } from "../domain/money/prices.ts";
import { DEFAULT_WEBHOOK_SCHEDULE_S, parseSchedule } from "../domain/webhooks/schedule.ts";
import {
  parseUpstreams,
  ROUTINGS,
  type Routing,
  type UpstreamAccount,
} from "../domain/upstreams/accounts.ts";
import { parseSubscribersText, type WebhookSubscriber } from "../domain/webhooks/subscribers.ts";
import { email, type Env, jsonOrFile, nonEmpty, oneOf } from "./setting-readers.ts";

/** Log levels, least severe first: a level shows its own lines and those of the levels after it. */
const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ["text", "json"] as const;

/**
 * Where the local stack exports its spans, over OTLP/HTTP. Read as given: the local stack checks
 * it when it starts the SDK (a Lambda function never does, so a layer's settings cannot stop it).
 */
export interface TraceExport {
  /** The traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  url: string;
  /** As set (lower case), default `http/protobuf`; the local stack refuses the ones it cannot send. */
  protocol: string;
  serviceName: string;
}

/** The local stack's log lines: readable text (the default) or one JSON object per line. */
export interface LogSettings {
  format: (typeof LOG_FORMATS)[number];
  level: LogLevel;
}

export interface Config {
  /**
   * One line per REELAY_* variable reelay does not read (a typo: CONCURENCY for CONCURRENCY),
   * naming the closest known one. A warning, not a refusal: the variable changes nothing, and a
   * stack must not stop over a leftover a newer version may know.
   */
  warnings: string[];
  port: number;
  host: string;
  dataDir: string;
  apiKey: string | undefined;
  /** Base URL of the real upstream, ending in /v1; undefined = the bundled simulator. */
  upstreamUrl: string | undefined;
  /** REELAY_UPSTREAM_URL=simulator: on AWS the stack deploys the simulator (never on prod). */
  upstreamSimulator: boolean;
  upstreamApiKey: string | undefined;
  /** A pool of upstream accounts (REELAY_UPSTREAMS); undefined = the one-account form above. */
  upstreams: UpstreamAccount[] | undefined;
  /** How a queued job picks its account in a pool (REELAY_ROUTING). */
  routing: Routing;
  /** Times a job whose upstream task failed may be tried again on another account (REELAY_FALLBACK_ATTEMPTS). */
  fallbackAttempts: number;
  /** Overrides the per-job deadline computed by the polling policy. */
  jobTimeoutS: number | undefined;
  /** Largest output reelay copies (REELAY_MAX_OUTPUT_BYTES); a bigger one fails output_too_large. */
  maxOutputBytes: number;
  /** What an output that differs from its request does (REELAY_VERIFY): a warning, or under `strict` a failure. */
  verify: VerifyMode;
  /** Client side: where the reelay API is. */
  apiUrl: string;
  /** Model used for `inbox/*.txt` drops and CLI prompts without --model. */
  defaultModel: string;
  /** The operator's aliases and model lifecycles (REELAY_MODEL_ALIASES, REELAY_MODEL_LIFECYCLE), checked. */
  models: ModelSettings;
  /** Admission control against the upstream account's limits (domain/admission/settings.ts). */
  admission: AdmissionSettings;
  /** The operator's price table (REELAY_PRICES); undefined = no prices, costs are null. */
  prices: PriceTable | undefined;
  /** The deployment's own budget over every job (REELAY_BUDGET); undefined = none. */
  budget: Budget | undefined;
  /** Limits of keys without their own, and of the deployment's key and drops (REELAY_KEY_LIMITS). */
  keyLimits: KeyLimitDefaults;
  /** Local stack: REELAY_LOG_FORMAT and REELAY_LOG_LEVEL. */
  log: LogSettings;
  /** AWS stack, read at synth: who the alarms' SNS topic emails (ALERT_EMAIL); undefined = nobody. */
  alertEmail: string | undefined;
  /** Local stack: who receives terminal events as Standard Webhooks (REELAY_WEBHOOKS). */
  webhooks: WebhookSubscriber[];
  /** Waits in seconds before each delivery attempt (REELAY_WEBHOOK_SCHEDULE, domain/webhooks/schedule.ts). */
  webhookSchedule: readonly number[];
  /**
   * Days a job's outputs are kept when its request does not say (REELAY_RETENTION_DAYS,
   * domain/jobs/retention.ts); undefined = kept for good.
   */
  retentionDays: number | undefined;
  /** Days an upload is kept after it was made (REELAY_UPLOAD_RETENTION_DAYS, default 7). */
  uploadRetentionDays: number;
  /**
   * Local stack: where its spans go (the standard OTEL_EXPORTER_OTLP_* settings); undefined = no
   * endpoint (or OTEL_SDK_DISABLED), and no OpenTelemetry SDK is loaded.
   */
  traceExport: TraceExport | undefined;
  /** Buckets a job's output.s3_prefix may name (REELAY_OUTPUT_BUCKETS). */
  outputBuckets: string[];
  /** AWS resource names, set by the stack on every function (the local stack fills them itself). */
  aws: {
    region: string;
    tableName: string | undefined;
    bucketName: string | undefined;
    eventBusName: string;
    stateMachineArn: string | undefined;
    /** The Dispatch function that admits queued jobs (usecases/admission/dispatch.ts). */
    dispatchFunctionName: string | undefined;
    /** The Download function's ffmpeg, from its layer; the local stack passes the npm package's. */
    ffmpegPath: string | undefined;
    /** The deployed simulator's function: the secret holding its key. */
    simulatorKeySecret: string | undefined;
    /**
     * The stack runs on this machine as `npm run rehearse` (REELAY_REHEARSAL): fetches of URLs
     * reelay did not choose may reach loopback over http, as on the local stack.
     */
    rehearsal: boolean;
  };
}

/**
 * Every variable loadConfig reads, with its default as a user sees it and one line on what it does.
 * The readers below take only these names, and docs/settings.md is generated from this list.
 */
export const SETTINGS = {
  REELAY_PORT: {
    default: "4700",
    about:
      "Port of the local stack (0 = any free port; S3 then takes any free port too; otherwise S3 is at this port + 1).",
  },
  REELAY_HOST: { default: "127.0.0.1", about: "Address the local stack listens on." },
  REELAY_DATA_DIR: {
    default: "`.reelay`",
    about: "Where the local stack keeps its data: jobs table, bucket, events, API key.",
  },
  REELAY_API_KEY: {
    default: "generated once, kept in the data dir",
    about: "The admin key of reelay's own API; the CLI sends it too. On AWS an SST secret.",
  },
  REELAY_UPSTREAM_URL: {
    default: "unset = the bundled simulator",
    about:
      "Base URL of the real upstream, ending in `/v1`. On AWS read at deploy time; `simulator` deploys the simulator as the upstream (refused on stage `prod`; docs/deploy.md).",
  },
  REELAY_UPSTREAM_API_KEY: {
    default: "none",
    about: "Key for the real upstream; never logged. On AWS the SST secret `UPSTREAM_API_KEY`.",
  },
  REELAY_UPSTREAMS: {
    default: "unset = one account (REELAY_UPSTREAM_URL, or the simulator)",
    about:
      "A pool of upstream accounts: JSON `[{name, url, api_key, models, concurrency, rate, weight, prices}]` or a file path (docs/pools.md).",
  },
  REELAY_ROUTING: {
    default: "`balanced`",
    about:
      "How a queued job picks its account in a pool: `balanced` (least loaded for its weight), `ordered` (the list's order), `cheapest`.",
  },
  REELAY_FALLBACK_ATTEMPTS: {
    default: "0",
    about:
      "Times a job whose upstream task failed (a retryable class) is tried again on another account; each try may be billed.",
  },
  REELAY_JOB_TIMEOUT_S: {
    default: "from the polling policy (5-15 min)",
    about: `Replaces every job's deadline, 1-${MAX_JOB_TIMEOUT_S} s.`,
  },
  REELAY_MAX_OUTPUT_BYTES: {
    default: `${DEFAULT_MAX_OUTPUT_BYTES / 1024 ** 3} GiB`,
    about: "Largest output reelay copies; a bigger one fails with `output_too_large`.",
  },
  REELAY_VERIFY: {
    default: "`warn`",
    about:
      "An output whose duration, resolution or aspect ratio differs from the request: `warn` succeeds with an `output_mismatch` warning, `strict` fails the job `output_mismatch`. On AWS read at deploy time.",
  },
  REELAY_API_URL: {
    default: "the local stack, `http://REELAY_HOST:REELAY_PORT`",
    about: "Client side: where the CLI finds reelay's API.",
  },
  REELAY_DEFAULT_MODEL: {
    default: "`gamma-3.1`",
    about: "Model for `inbox/*.txt` drops and CLI prompts without `--model`.",
  },
  REELAY_MODEL_ALIASES: {
    default: "the built-in `<family>-latest` aliases",
    about:
      "Model aliases over the built-in ones: JSON `{alias: model}` or a file path. An alias to an unknown model, or one that is also a model code, stops the start (docs/models.md).",
  },
  REELAY_MODEL_LIFECYCLE: {
    default: "none: no model deprecated",
    about:
      "Per model `{deprecated_at, sunset_at, successor}` (ISO dates): JSON `{model: {...}}` or a file path. Deprecated creates get `Deprecation`/`Sunset` headers; past `sunset_at`, 400 `model_sunset` (docs/models.md).",
  },
  REELAY_WEBHOOKS: {
    default: "none",
    about:
      "The deployment's webhook subscribers: JSON `[{url, secret}]` or a file path. On AWS an SST secret.",
  },
  REELAY_RETENTION_DAYS: {
    default: "unset = kept for good",
    about:
      "Days a job's outputs are kept once stored (fractions allowed, at most 3650) when its request gives no `retention_days`; its record stays 30 days longer, answering `outputs_expired` (docs/operations.md#retention). On AWS read at deploy time.",
  },
  REELAY_UPLOAD_RETENTION_DAYS: {
    default: `\`${DEFAULT_UPLOAD_RETENTION_DAYS}\``,
    about:
      "Whole days an upload (`POST /v1/uploads`) is kept after it was made; then its `upload://` reference is unknown. On AWS a lifecycle rule on `uploads/` (read at deploy time); locally the housekeeping's sweep.",
  },
  REELAY_OUTPUT_BUCKETS: {
    default: "none",
    about:
      "Comma-separated bucket names a job's `output.s3_prefix` may name; its outputs are copied there besides reelay's bucket. On AWS read at deploy time: the functions are granted s3:PutObject on them.",
  },
  REELAY_WEBHOOK_SCHEDULE: {
    default: `\`${DEFAULT_WEBHOOK_SCHEDULE_S.join(",")}\``,
    about:
      "Waits in seconds before each delivery attempt (1-50 of them, each at most a week), ±10 % jitter; on AWS read at deploy time.",
  },
  REELAY_PRICES: {
    default: "none: costs are null",
    about: "The operator's price table: JSON or a file path (docs/money.md).",
  },
  REELAY_BUDGET: {
    default: "none",
    about:
      "The deployment's budget over every job: JSON `{amount, unit, period}` or a file path (docs/money.md).",
  },
  REELAY_KEY_LIMITS: {
    default: "none: every key unlimited",
    about:
      "Limits of every stored key without its own: JSON `{rate, burst, max_queued, max_in_flight}` or a file path; `deployment: {...}` limits the deployment's own key and drops (docs/api.md#limits).",
  },
  REELAY_LOG_FORMAT: {
    default: "`text`",
    about: "Local stack's log lines: `text` (readable) or `json` (one object a line).",
  },
  REELAY_LOG_LEVEL: {
    default: "`info`",
    about: "Least severe log lines shown: `debug`, `info`, `warn`, `error`.",
  },
  ALERT_EMAIL: {
    default: "none: no subscriber",
    about: "AWS, read at deploy time: the address the alarms' SNS topic emails.",
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    default: "unset: no traces, no SDK loaded",
    about:
      "Local stack: OTLP/HTTP base URL its spans are exported to (`/v1/traces` is added), e.g. `http://127.0.0.1:4318`. One trace per job ([operations.md](operations.md#traces)).",
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    default: "from `OTEL_EXPORTER_OTLP_ENDPOINT`",
    about: "Local stack: the full traces URL, used as given (wins over the base URL).",
  },
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: {
    default: "`OTEL_EXPORTER_OTLP_PROTOCOL`, else `http/protobuf`",
    about:
      "Local stack: `http/protobuf` or `http/json` (`grpc` is refused). Headers, timeout and compression are read by the exporter from the other standard `OTEL_EXPORTER_OTLP_*` variables.",
  },
  OTEL_EXPORTER_OTLP_PROTOCOL: {
    default: "`http/protobuf`",
    about: "Local stack: the protocol for every signal; reelay exports only traces.",
  },
  OTEL_SERVICE_NAME: {
    default: "`reelay`",
    about: "Local stack: the `service.name` its spans carry.",
  },
  OTEL_SDK_DISABLED: {
    default: "`false`",
    about: "Local stack: `true` exports nothing even with an endpoint set.",
  },
  REELAY_UPSTREAM_CONCURRENCY: {
    default: "unset = learned from 429s",
    about: `Upstream tasks in flight at most (1-${MAX_UPSTREAM_CONCURRENCY}).`,
  },
  REELAY_UPSTREAM_RATE: {
    default: "unset = as slots free up",
    about: "Upstream creates per second at most.",
  },
  REELAY_QUEUE_TIMEOUT_S: {
    default: String(DEFAULT_QUEUE_TIMEOUT_S),
    about: "A job that waited this long for an upstream slot fails with `queue_timeout`.",
  },
  AWS_REGION: {
    default: "`us-east-1`",
    about: "AWS: the region of the stack's resources (Lambda sets it).",
  },
  REELAY_TABLE_NAME: {
    default: "the local stack's own",
    about: "AWS: the jobs table; the stack sets it on each function.",
  },
  REELAY_BUCKET_NAME: {
    default: "the local stack's own",
    about: "AWS: the bucket; the stack sets it on each function.",
  },
  REELAY_EVENT_BUS_NAME: {
    default: "`reelay`",
    about: "AWS: the event bus; the stack sets it on each function.",
  },
  REELAY_STATE_MACHINE_ARN: {
    default: "the local stack's own",
    about: "AWS: the job flow's state machine; the stack sets it on each function.",
  },
  REELAY_DISPATCH_FUNCTION: {
    default: "the local stack's own",
    about: "AWS: the Dispatch function that admits queued jobs; the stack sets it.",
  },
  REELAY_FFMPEG_PATH: {
    default: "the one `@ffmpeg-installer/ffmpeg` ships",
    about:
      "AWS: the ffmpeg binary the Download function runs for a video's previews (its layer's); the stack sets it on that function only.",
  },
  REELAY_SIMULATOR_KEY_SECRET: {
    default: "unset",
    about:
      "AWS: the SST secret that holds the deployed simulator's key (an upstream key secret); the stack sets it on that function only.",
  },
  REELAY_REHEARSAL: {
    default: "unset",
    about:
      "Set by the stack on stage `rehearsal` only (`npm run rehearse`, never deployable): the functions' output downloads and webhook deliveries may then reach loopback over http, where the rehearsal's simulator and subscribers live.",
  },
} as const satisfies Record<string, { default: string; about: string }>;
type Setting = keyof typeof SETTINGS;

function positiveInt(
  env: Env,
  name: Setting,
  fallback?: number,
  max?: { value: number; why: string },
): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new ReelayError(
      "invalid_config",
      `${name} must be a positive whole number, got "${raw}".`,
      {
        path: name,
      },
    );
  }
  if (max !== undefined && value > max.value) {
    throw new ReelayError(
      "invalid_config",
      `${name} must be at most ${max.value}${max.why}, got ${value}.`,
      { path: name },
    );
  }
  return value;
}

function positiveNumber(env: Env, name: Setting): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new ReelayError("invalid_config", `${name} must be a positive number, got "${raw}".`, {
      path: name,
    });
  }
  return value;
}

function admission(env: Env): AdmissionSettings {
  const concurrency = positiveInt(env, "REELAY_UPSTREAM_CONCURRENCY", undefined, {
    value: MAX_UPSTREAM_CONCURRENCY,
    why: " tasks in flight",
  });
  const rate = positiveNumber(env, "REELAY_UPSTREAM_RATE");
  return {
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(rate === undefined ? {} : { ratePerS: rate }),
    queueTimeoutS: positiveInt(env, "REELAY_QUEUE_TIMEOUT_S", DEFAULT_QUEUE_TIMEOUT_S) as number,
  };
}

function webhookSchedule(env: Env): readonly number[] {
  const raw = nonEmpty(env, "REELAY_WEBHOOK_SCHEDULE");
  return raw === undefined
    ? DEFAULT_WEBHOOK_SCHEDULE_S
    : parseSchedule(raw, "REELAY_WEBHOOK_SCHEDULE");
}

/**
 * The upstream URL (REELAY_UPSTREAM_URL, or a pool account's `url`) that stands for the simulator,
 * deployed by the stack on AWS (docs/deploy.md). Locally REELAY_UPSTREAM_URL=simulator is the
 * built-in one, as unset is; a pool's simulated accounts are `reelay up --sim-accounts`.
 */
export const SIMULATOR_URL = "simulator";

/** REELAY_UPSTREAMS, its base URLs normalised; refused beside REELAY_UPSTREAM_URL (which would win?). */
function upstreams(env: Env): UpstreamAccount[] | undefined {
  const accounts = jsonOrFile(env, "REELAY_UPSTREAMS", "[", parseUpstreams);
  if (accounts === undefined) return undefined;
  if (nonEmpty(env, "REELAY_UPSTREAM_URL") !== undefined)
    throw new ReelayError(
      "invalid_config",
      "REELAY_UPSTREAMS and REELAY_UPSTREAM_URL are both set; keep one (a pool lists every account, its URL included).",
      { path: "REELAY_UPSTREAMS" },
    );
  return accounts.map((account, index) => ({
    ...account,
    url:
      account.url === SIMULATOR_URL
        ? SIMULATOR_URL
        : parseBaseUrl(account.url, `REELAY_UPSTREAMS[${index}].url`),
  }));
}

function traceExport(env: Env): TraceExport | undefined {
  const disabled = nonEmpty(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true";
  const traces = nonEmpty(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const base = nonEmpty(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  const protocol =
    nonEmpty(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ??
    nonEmpty(env, "OTEL_EXPORTER_OTLP_PROTOCOL") ??
    "http/protobuf";
  const serviceName = nonEmpty(env, "OTEL_SERVICE_NAME") ?? "reelay";
  const url = traces ?? (base === undefined ? undefined : `${base.replace(/\/+$/, "")}/v1/traces`);
  if (disabled || url === undefined) return undefined;
  return { url, protocol: protocol.toLowerCase(), serviceName };
}

function fallbackAttempts(env: Env): number {
  const raw = nonEmpty(env, "REELAY_FALLBACK_ATTEMPTS");
  if (raw === undefined) return 0;
  const value = Number(raw);
  if (Number.isInteger(value) && value >= 0 && value <= 10) return value;
  throw new ReelayError(
    "invalid_config",
    `REELAY_FALLBACK_ATTEMPTS must be a whole number from 0 to 10, got ${shownInput(raw, 20)}.`,
    { path: "REELAY_FALLBACK_ATTEMPTS" },
  );
}

function retentionDays(env: Env): number | undefined {
  const days = positiveNumber(env, "REELAY_RETENTION_DAYS");
  if (days === undefined || days <= MAX_RETENTION_DAYS) return days;
  throw new ReelayError(
    "invalid_config",
    `REELAY_RETENTION_DAYS must be at most ${MAX_RETENTION_DAYS} days, got ${days}.`,
    { path: "REELAY_RETENTION_DAYS" },
  );
}

function outputBuckets(env: Env): string[] {
  const names = (nonEmpty(env, "REELAY_OUTPUT_BUCKETS") ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const bad = names.find((name) => !isBucketName(name));
  if (bad !== undefined)
    throw new ReelayError(
      "invalid_config",
      `REELAY_OUTPUT_BUCKETS must be comma-separated S3 bucket names, got ${shownInput(bad, 70)}.`,
      { path: "REELAY_OUTPUT_BUCKETS" },
    );
  return [...new Set(names)];
}

/** The operator's aliases and lifecycles, held against the catalog now: a bad one stops the start. */
function modelSettings(env: Env): ModelSettings {
  const settings = {
    aliases: jsonOrFile(env, "REELAY_MODEL_ALIASES", "{", parseModelAliases) ?? {},
    lifecycle: jsonOrFile(env, "REELAY_MODEL_LIFECYCLE", "{", parseModelLifecycle) ?? {},
  };
  createCatalog([], settings);
  return settings;
}

/** Each REELAY_* variable in `env` that SETTINGS does not list, with the known names it is closest to. */
function unknownSettings(env: Env): string[] {
  const known = Object.keys(SETTINGS);
  return Object.keys(env)
    .filter((name) => name.startsWith("REELAY_") && !Object.hasOwn(SETTINGS, name))
    .sort()
    .map((name) => {
      const [closest] = closeMatches(name, known, 1);
      const hint = closest === undefined ? "" : `; did you mean ${closest}?`;
      return `${shownInput(name, 60)} is not a reelay setting and changes nothing${hint} (docs/settings.md lists them).`;
    });
}

export function loadConfig(env: Env = process.env): Config {
  // 0 asks for any free port (tests and side-by-side stacks); S3 then takes any free port too.
  const port =
    env.REELAY_PORT?.trim() === "0"
      ? 0
      : (positiveInt(env, "REELAY_PORT", 4700, { value: 65535, why: "" }) as number);
  const host = nonEmpty(env, "REELAY_HOST") ?? "127.0.0.1";
  const upstreamUrl = nonEmpty(env, "REELAY_UPSTREAM_URL");
  const upstreamSimulator = upstreamUrl === SIMULATOR_URL;
  return {
    warnings: unknownSettings(env),
    port,
    host,
    dataDir: nonEmpty(env, "REELAY_DATA_DIR") ?? ".reelay",
    apiKey: nonEmpty(env, "REELAY_API_KEY"),
    upstreamUrl:
      upstreamUrl === undefined || upstreamSimulator
        ? undefined
        : parseBaseUrl(upstreamUrl, "REELAY_UPSTREAM_URL"),
    upstreamSimulator,
    upstreamApiKey: nonEmpty(env, "REELAY_UPSTREAM_API_KEY"),
    upstreams: upstreams(env),
    routing: oneOf(env, "REELAY_ROUTING", ROUTINGS, "balanced"),
    fallbackAttempts: fallbackAttempts(env),
    jobTimeoutS: positiveInt(env, "REELAY_JOB_TIMEOUT_S", undefined, {
      value: MAX_JOB_TIMEOUT_S,
      why: " seconds (the longest job deadline; see domain/polling/policy.ts)",
    }),
    maxOutputBytes: positiveInt(env, "REELAY_MAX_OUTPUT_BYTES", DEFAULT_MAX_OUTPUT_BYTES) as number,
    verify: oneOf(env, "REELAY_VERIFY", VERIFY_MODES, "warn"),
    apiUrl: nonEmpty(env, "REELAY_API_URL") ?? `http://${host}:${port}`,
    defaultModel: nonEmpty(env, "REELAY_DEFAULT_MODEL") ?? "gamma-3.1",
    models: modelSettings(env),
    // The local stack's subscribers: a JSON array [{url, secret}], or a file holding one.
    webhooks: jsonOrFile(env, "REELAY_WEBHOOKS", "[", parseSubscribersText) ?? [],
    retentionDays: retentionDays(env),
    uploadRetentionDays: positiveInt(
      env,
      "REELAY_UPLOAD_RETENTION_DAYS",
      DEFAULT_UPLOAD_RETENTION_DAYS,
      { value: MAX_RETENTION_DAYS, why: " days" },
    ) as number,
    outputBuckets: outputBuckets(env),
    webhookSchedule: webhookSchedule(env),
    prices: jsonOrFile(env, "REELAY_PRICES", "{", parsePrices),
    budget: jsonOrFile(env, "REELAY_BUDGET", "{", parseBudgetText),
    keyLimits: jsonOrFile(env, "REELAY_KEY_LIMITS", "{", parseKeyLimitDefaults) ?? NO_KEY_LIMITS,
    log: {
      format: oneOf(env, "REELAY_LOG_FORMAT", LOG_FORMATS, "text"),
      level: oneOf(env, "REELAY_LOG_LEVEL", LOG_LEVELS, "info"),
    },
    alertEmail: email(env, "ALERT_EMAIL"),
    admission: admission(env),
    traceExport: traceExport(env),
    aws: {
      region: nonEmpty(env, "AWS_REGION") ?? "us-east-1",
      tableName: nonEmpty(env, "REELAY_TABLE_NAME"),
      bucketName: nonEmpty(env, "REELAY_BUCKET_NAME"),
      eventBusName: nonEmpty(env, "REELAY_EVENT_BUS_NAME") ?? "reelay",
      stateMachineArn: nonEmpty(env, "REELAY_STATE_MACHINE_ARN"),
      dispatchFunctionName: nonEmpty(env, "REELAY_DISPATCH_FUNCTION"),
      ffmpegPath: nonEmpty(env, "REELAY_FFMPEG_PATH"),
      simulatorKeySecret: nonEmpty(env, "REELAY_SIMULATOR_KEY_SECRET"),
      rehearsal: env.REELAY_REHEARSAL === "1",
    },
  };
}
