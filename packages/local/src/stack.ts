/**
 * The whole service on one machine: dynalite and s3rver under the data dir (each in a child
 * process that ends with this one), the job flow's synthesized ASL run by aws-local-stepfunctions
 * with the core steps as its Tasks, s3rver's `inbox/` notifications to the drop ingester, the same
 * API app, and the bundled simulator unless a real upstream is configured. Same handlers, same state machine as on AWS; only the transport differs.
 */
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { setTimeout as pause } from "node:timers/promises";
import ffmpeg from "@ffmpeg-installer/ffmpeg";
import { apiDepsFrom, createApp, type WebhookApiDeps } from "@reelay/api";
// Its own entry: the Lambda bundle of the API never loads a Node HTTP server.
import { type RunningServer, serveApp } from "@reelay/api/serve";
import { JsonlFileSink, JobStore, UpstreamClient } from "@reelay/core/adapters";
import { jobFlowDefinition } from "@reelay/flow/job-flow-asl";
import { DEFAULT_ACCOUNT, type Job, type UpstreamAccount, ReelayError } from "@reelay/core/domain";
import {
  deliveringSink,
  isWaiting,
  releaseStrandedSlots,
  type AuditBus,
  type EventSink,
  type JobQueue,
  type Metrics,
  admissionReading,
} from "@reelay/core/usecases";
import {
  dropDepsFrom,
  type PoolMember,
  SIMULATOR_URL,
  wirePipeline,
  wireWebhooks,
  type Config,
} from "@reelay/core/wiring";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { loadOrCreateApiKey } from "./api-key.ts";
import { startStandins, type Standins } from "./aws-standins.ts";
import { claimDataDir } from "./data-dir.ts";
import { routeDrops } from "./drops.ts";
import { jobFlowHandlers } from "./handlers.ts";
import { consoleLogger, silentLogger, type Logger } from "./log.ts";
import { type PrometheusMetrics, prometheusMetrics } from "./metrics.ts";
import { announceLeftovers, leftoverJobs } from "./resume.ts";
import { readResumeMark } from "./resume-mark.ts";
import { startHousekeeping } from "./housekeeping.ts";
import { type SimAccountSpec, startSimulatedAccounts } from "./sim-accounts.ts";
import { LocalDispatcher } from "./dispatcher.ts";
import { LocalJobStarter } from "./starter.ts";
import { type Pause, windowSleeper } from "./window-sleep.ts";
import { startWebhookSweeper } from "./webhook-sweeper.ts";
import { startTracing } from "./otel.ts";

export const EVENTS_FILE = "events.jsonl";
export const SIMULATOR_STATE_FILE = join("simulator", "tasks.jsonl");
/** The simulator's generation time when nothing else is asked: a believable wait, not minutes. */
const DEFAULT_SIM_GENERATION_MS = 20_000;

export interface LocalStackOptions {
  config: Config;
  simulator?: {
    timeScale?: number;
    generationMs?: number;
    /** The bundled upstream's account limits (a create beyond answers 429). */
    maxConcurrent?: number;
    createRate?: number;
    /** A simulated pool instead of the one simulator: one simulated account per spec. */
    accounts?: SimAccountSpec[];
    /** Tell reelay each simulated account's cap (its `concurrency`) instead of letting it learn them. */
    setLimits?: boolean;
    /** The bundled simulator's clock in epoch ms (default the real one); see `clock` below. */
    now?: () => number;
  };
  /**
   * Tests: reelay's own pauses at this fraction of their length (the poll window's pauses, the
   * state machine's Waits and Retry intervals), so a job against a simulator run at the same time
   * scale is looked at as often as at real time, in a fraction of the time. Default 1.
   */
  waitScale?: number;
  /**
   * Tests: a clock the test moves. The pipeline reads it, and every pause of a job (the Wait before
   * each Poll, the poll window's pauses) is taken on it, so the test decides when each look
   * happens; Retry intervals are 0. Given to the simulator too (`simulator.now`), it times the
   * upstream's tasks on the same clock. The API's clock stays real.
   */
  clock?: { now: () => Date; sleep: Pause };
  /** No background log lines (tests). */
  quiet?: boolean;
  logger?: Logger;
  /** S3 port; default REELAY_PORT + 1 (so tools find it across restarts), 0 = any free port. */
  s3Port?: number;
  /**
   * A video's previews (ffmpeg decoding it in Download). Default true, as on AWS. Tests that are
   * not about previews and the throughput figure turn them off: ffmpeg then spends no CPU on
   * every video job (the thumbnail tests and figure measure it).
   */
  previews?: boolean;
  /**
   * s3rver in a child process of its own (default), so storing outputs runs on another core. Tests
   * that start many short stacks run it in this process: a child's start (Node and tsx loading
   * s3rver) costs about 0.7 CPU-seconds, more than most of those tests' jobs.
   */
  s3InChild?: boolean;
}

export interface LocalStack {
  url: string;
  apiKey: string;
  bucket: string;
  s3Endpoint: string;
  dataDir: string;
  /** "simulator" or the real upstream's host. */
  upstream: string;
  /** The bundled simulator, when it is the upstream (tests read its tasks and counters). */
  simulator?: Simulator;
  /** The simulated accounts of `--sim-accounts`, by name (tests take one down, read its counters). */
  simulators?: Record<string, Simulator>;
  /** Jobs resumed at start. */
  resumed: string[];
  /** The dynalite and s3rver children: pids and restarts (one that dies is started again). */
  children: Standins["children"];
  stop(): Promise<void>;
}

interface Upstream {
  client: UpstreamClient;
  name: string;
  simulator?: Simulator;
  /** A pool's accounts and their clients (REELAY_UPSTREAMS, or simulated accounts). */
  pool?: PoolMember[];
  simulators?: Record<string, Simulator>;
  close?: () => Promise<void>;
}

/** `--sim-accounts`: one simulator per account, each with its own key, cap and task ids. */
async function simulatedPool(
  options: LocalStackOptions,
  specs: SimAccountSpec[],
  metrics: Metrics,
): Promise<Upstream> {
  const { config } = options;
  if (config.upstreams !== undefined || config.upstreamUrl !== undefined)
    throw new ReelayError(
      "invalid_config",
      "--sim-accounts runs simulated accounts; unset REELAY_UPSTREAMS and REELAY_UPSTREAM_URL to use it.",
      { path: "--sim-accounts" },
    );
  const started = await startSimulatedAccounts(specs, {
    dataDir: config.dataDir,
    generationMs: options.simulator?.generationMs ?? DEFAULT_SIM_GENERATION_MS,
    timeScale: options.simulator?.timeScale ?? 1,
    ...(options.simulator?.createRate === undefined
      ? {}
      : { createRate: options.simulator.createRate }),
  });
  const pool = started.accounts.map(({ name, url, apiKey }) => {
    const cap = specs.find((spec) => spec.name === name)?.cap;
    return {
      account: {
        name,
        weight: 1,
        ...(options.simulator?.setLimits === true && cap !== undefined ? { concurrency: cap } : {}),
      },
      client: new UpstreamClient({ baseUrl: url, apiKey, metrics, labels: { account: name } }),
    };
  });
  return {
    client: pool[0]?.client as UpstreamClient,
    name: `simulated pool of ${specs.map((s) => `${s.name}:${s.cap}`).join(", ")}`,
    pool,
    simulators: started.simulators,
    close: started.close,
  };
}

/** REELAY_UPSTREAMS: one client per account, each with its own URL and key. */
function configuredPool(accounts: readonly UpstreamAccount[], metrics: Metrics): Upstream {
  const deployed = accounts.findIndex((account) => account.url === SIMULATOR_URL);
  if (deployed >= 0)
    throw new ReelayError(
      "invalid_config",
      `Account ${accounts[deployed]?.name} names url "${SIMULATOR_URL}", the simulator a trial stage deploys on AWS; locally, --sim-accounts runs simulated accounts.`,
      { path: `REELAY_UPSTREAMS[${deployed}].url` },
    );
  const pool = accounts.map(({ apiKey, url, ...account }) => ({
    account,
    client: new UpstreamClient({
      baseUrl: url,
      apiKey,
      metrics,
      labels: { account: account.name },
    }),
  }));
  return {
    client: pool[0]?.client as UpstreamClient,
    name: `pool of ${accounts.map((a) => a.name).join(", ")}`,
    pool,
  };
}

async function startUpstream(options: LocalStackOptions, metrics: Metrics): Promise<Upstream> {
  const { config } = options;
  const specs = options.simulator?.accounts;
  if (specs !== undefined && specs.length > 0) return simulatedPool(options, specs, metrics);
  if (config.upstreams !== undefined) return configuredPool(config.upstreams, metrics);
  if (config.upstreamUrl !== undefined) {
    return {
      client: new UpstreamClient({
        baseUrl: config.upstreamUrl,
        apiKey: config.upstreamApiKey ?? "",
        metrics,
        labels: { account: DEFAULT_ACCOUNT },
      }),
      name: new URL(config.upstreamUrl).host,
    };
  }
  const apiKey = randomBytes(18).toString("base64url");
  const simulator = await startSimulator({
    apiKey,
    generationMs: options.simulator?.generationMs ?? DEFAULT_SIM_GENERATION_MS,
    timeScale: options.simulator?.timeScale ?? 1,
    ...(options.simulator?.maxConcurrent === undefined
      ? {}
      : { maxConcurrent: options.simulator.maxConcurrent }),
    ...(options.simulator?.createRate === undefined
      ? {}
      : { createRate: options.simulator.createRate }),
    ...(options.simulator?.now === undefined ? {} : { now: options.simulator.now }),
    // The bundled upstream remembers its tasks across restarts, as a real one would; otherwise a
    // job in flight at Ctrl-C or a crash would resume against a task that no longer exists.
    stateFile: join(config.dataDir, SIMULATOR_STATE_FILE),
  });
  return {
    client: new UpstreamClient({
      baseUrl: simulator.url,
      apiKey,
      metrics,
      labels: { account: DEFAULT_ACCOUNT },
    }),
    name: "simulator",
    simulator,
  };
}

/** Steps undone in reverse order of setup, each even if an earlier one failed; the first failure is rethrown. */
class Cleanups {
  readonly #steps: (() => Promise<void> | void)[] = [];

  push(...steps: (() => Promise<void> | void)[]): void {
    this.#steps.push(...steps);
  }

  async run(): Promise<void> {
    let first: unknown;
    for (const step of this.#steps.reverse()) {
      try {
        await step();
      } catch (error) {
        first ??= error;
      }
    }
    if (first !== undefined) throw first;
  }
}

/** The deliveries' side of the wiring: what the API's webhook routes and the event sink use. */
interface LocalWebhooks {
  /** Events, each recorded as deliveries (in dynalite) before it is appended to events.jsonl. */
  sink: EventSink;
  api: WebhookApiDeps;
}

/**
 * Events to the REELAY_WEBHOOKS subscribers and the managed ones: recorded as pending deliveries in
 * the jobs table, sent by the sweep on its schedule (REELAY_WEBHOOK_SCHEDULE), so a restart carries
 * on where it stopped.
 */
function startWebhooks(
  options: LocalStackOptions,
  clients: { ddb: Standins["ddb"]; tableName: string; events: JsonlFileSink },
  log: Logger,
  cleanups: Cleanups,
  metrics: Metrics,
): LocalWebhooks {
  const { deliveries, api } = wireWebhooks({
    config: options.config,
    platform: "local",
    clients: { db: clients.ddb, tableName: clients.tableName },
    subscribers: options.config.webhooks,
    metrics,
  });
  const sweeper = startWebhookSweeper(deliveries, log);
  cleanups.push(() => sweeper.stop());
  return {
    sink: deliveringSink(clients.events, deliveries, sweeper.wake),
    api: { ...api, wake: sweeper.wake },
  };
}

/** Jobs a crash or Ctrl-C left behind: terminal ones get their missing event, the rest run again. */
async function resumeLeftovers(
  deps: Pick<Wiring["pipeline"], "jobs" | "now" | "metrics" | "batches" | "budgets"> & {
    events: EventSink & Pick<JsonlFileSink, "readAll">;
  },
  starters: { queue: JobQueue; executions: LocalJobStarter },
  log: Logger,
  dataDir: string,
): Promise<Job[]> {
  const { unfinished, unannounced } = await leftoverJobs(deps.jobs, await readResumeMark(dataDir));
  const announced = await announceLeftovers(unannounced, deps);
  if (announced.length > 0) {
    log.info(
      `sent the terminal event of ${announced.length} job(s) that ended without it: ${announced.join(", ")}`,
    );
  }
  for (const job of unfinished) {
    await (isWaiting(job) ? starters.queue : starters.executions).start(job);
  }
  if (unfinished.length > 0) {
    log.info(
      `resumed ${unfinished.length} unfinished job(s): ${unfinished.map((job) => job.id).join(", ")}`,
    );
  }
  return unfinished;
}

async function startParts(
  options: LocalStackOptions,
  dataDir: string,
  log: Logger,
  cleanups: Cleanups,
  metrics: Metrics,
) {
  const { config } = options;
  const standins: Standins = await startStandins({
    dataDir,
    log,
    host: "127.0.0.1",
    s3Port: options.s3Port ?? (config.port === 0 ? 0 : config.port + 1),
    // Storing outputs (hashing, file writes) on the other core, as dynalite's work is.
    s3InChild: options.s3InChild ?? true,
    ...(config.aws.bucketName === undefined ? {} : { bucket: config.aws.bucketName }),
    ...(config.aws.tableName === undefined ? {} : { tableName: config.aws.tableName }),
    outputBuckets: config.outputBuckets,
  });
  cleanups.push(() => standins.close());
  const { s3, bucket, ddb, tableName } = standins;
  const housekeeping = startHousekeeping(
    {
      jobs: new JobStore(ddb, tableName),
      dataDir,
      now: () => new Date(),
      retention: {
        s3,
        bucket,
        retentionDays: config.retentionDays,
        uploadRetentionDays: config.uploadRetentionDays,
      },
      ...(options.waitScale === undefined ? {} : { waitScale: options.waitScale }),
    },
    log,
  );
  // Undone after everything that could still end a job (cleanups run in reverse), before the stores close.
  cleanups.push(() => housekeeping.stop());
  const upstream = await startUpstream(options, metrics);
  if (upstream.simulator !== undefined) cleanups.push(() => upstream.simulator?.close());
  if (upstream.close !== undefined) cleanups.push(upstream.close);
  return { standins, upstream };
}

type Wiring = ReturnType<typeof wirePipeline>;

/** The poll window's pause: on a test's clock, scaled, or real. */
function pauseOf(time: Pick<LocalStackOptions, "waitScale" | "clock">): Pause | undefined {
  if (time.clock !== undefined) return time.clock.sleep;
  const scale = time.waitScale;
  return scale === undefined ? undefined : (ms, signal) => pause(ms * scale, undefined, { signal });
}

/** The state machine's Waits: on a test's clock (the interpreter's own then 0), scaled, or real. */
function waitsOf(time: Pick<LocalStackOptions, "waitScale" | "clock">) {
  if (time.clock !== undefined) return { waitScale: 0, waits: time.clock.sleep };
  return time.waitScale === undefined ? {} : { waitScale: time.waitScale };
}

/**
 * The executions: the state machine on the local interpreter, started by the dispatcher once a job
 * holds a slot. Undone in reverse: the dispatcher stops starting executions, the poll windows'
 * pauses end, then the executions are aborted.
 */
async function startExecutions(
  wiring: Wiring,
  parts: {
    definition: Record<string, unknown>;
    dispatcher: LocalDispatcher;
    log: Logger;
    windows: ReturnType<typeof windowSleeper>;
    time: Pick<LocalStackOptions, "waitScale" | "clock">;
  },
  cleanups: Cleanups,
): Promise<LocalJobStarter> {
  const starter = new LocalJobStarter({
    definition: parts.definition,
    handlers: jobFlowHandlers(wiring.pipeline),
    log: parts.log,
    jobs: wiring.pipeline.jobs,
    ...waitsOf(parts.time),
  });
  cleanups.push(
    () => starter.stop(),
    () => parts.windows.end(),
    () => parts.dispatcher.stop(),
  );
  // Before the dispatcher's first run: slots a killed process left to waiting jobs.
  const stranded = await releaseStrandedSlots(wiring.pipeline);
  if (stranded.length > 0)
    parts.log.info(
      `freed the upstream slots of ${stranded.length} job(s) a killed process left waiting`,
    );
  parts.dispatcher.attach({
    ...wiring.pipeline,
    starter,
    sleep: (ms) => pause(ms),
    completion: { ...wiring.pipeline, batches: wiring.batches },
  });
  return starter;
}

/** Each stand-in child's pid and restarts as they are now, for /healthz. */
function childrenNow(children: Standins["children"]) {
  return Object.fromEntries(
    Object.entries(children).map(([name, child]) => [
      name,
      { pid: child.pid, restarts: child.restarts },
    ]),
  );
}

/** reelay's HTTP API over the wiring: jobs go into the admission queue, cancel aborts executions. */
async function serveApi(
  wiring: Wiring,
  parts: {
    starter: LocalJobStarter;
    events: JsonlFileSink;
    apiKey: string;
    config: Config;
    webhooks: WebhookApiDeps;
    log: Logger;
    metrics: PrometheusMetrics;
  },
  stores: { standins: Standins; upstream: Upstream },
  cleanups: Cleanups,
): Promise<RunningServer> {
  const { standins, upstream } = stores;
  const app = createApp(
    apiDepsFrom(wiring, {
      starter: wiring.queue,
      stopper: { stop: (execution) => parts.starter.cancel(execution) },
      adminKey: parts.apiKey,
      eventStream: parts.events,
      // One process over dynalite: a job's or batch's stream reads its record four times a second.
      streamPollMs: 250,
      webhooks: parts.webhooks,
      upstreamModels:
        upstream.pool?.map(({ account, client }) => ({
          account: account.name,
          ...(account.models === undefined ? {} : { models: account.models }),
          list: (modality?: "video" | "image") => (client ?? upstream.client).listModels(modality),
        })) ?? ((modality) => upstream.client.listModels(modality)),
      reportError: (message, error) => parts.log.error(message, error),
      scrape: () => parts.metrics.scrape(),
      // Loaded on the first MCP request: a stack no agent talks to does not load the MCP SDK.
      mcp: async (request, options) =>
        (await import("@reelay/mcp")).handleMcpRequest(request, options),
      health: async () => ({
        s3: { endpoint: standins.s3Endpoint, bucket: standins.bucket },
        upstream: upstream.name,
        children: childrenNow(standins.children),
      }),
    }),
  );
  const { host, port } = parts.config;
  const server = await serveApp(app, { hostname: host, port });
  cleanups.push(() => server.close());
  return server;
}

/**
 * The Download step's ffmpeg (a video's previews): the npm package's binary, as the AWS function's
 * layer carries; none when the stack runs with previews off.
 */
function withFfmpeg(config: Config, previews: boolean): Config {
  const ffmpegPath = previews ? (config.aws.ffmpegPath ?? ffmpeg.path) : undefined;
  return { ...config, aws: { ...config.aws, ffmpegPath } };
}

/** The pipeline over the stand-ins and the upstream, woken by the dispatcher. */
function wireLocal(
  config: Config,
  stores: { standins: Standins; upstream: Upstream; events: EventSink; auditBus: AuditBus },
  windows: ReturnType<typeof windowSleeper>,
  dispatcher: LocalDispatcher,
  metrics: Metrics,
  clock: (() => Date) | undefined,
): Wiring {
  const { ddb: db, s3, tableName, bucket } = stores.standins;
  return wirePipeline({
    config,
    platform: "local",
    clients: { db, s3, tableName, bucket },
    events: stores.events,
    auditBus: stores.auditBus,
    upstream: stores.upstream.client,
    ...(stores.upstream.pool === undefined ? {} : { pool: stores.upstream.pool }),
    sleep: windows.sleep,
    waker: dispatcher,
    metrics,
    ...(clock === undefined ? {} : { now: clock }),
  });
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { config } = options;
  const log =
    options.logger ?? (options.quiet ? silentLogger : consoleLogger(undefined, config.log));
  for (const warning of config.warnings) log.warn(warning);
  const dataDir = resolve(config.dataDir);
  const lock = await claimDataDir(dataDir);
  const cleanups = new Cleanups();
  cleanups.push(() => lock.release());
  try {
    // Before any span can start; stopped after every part, so the last spans are sent.
    if (config.traceExport !== undefined) {
      const tracing = await startTracing(config.traceExport);
      cleanups.push(() => tracing.stop());
    }
    // The deployed definition, as synthesized (committed: no CDK App built at each start).
    const definition = jobFlowDefinition();
    const apiKey = await loadOrCreateApiKey(dataDir, config.apiKey);
    // The admission gauges are read at each scrape, from the wiring made below.
    const metrics = prometheusMetrics(() =>
      admissionReading(wiring.pipeline.admission, wiring.pipeline.now()),
    );
    const { standins, upstream } = await startParts(options, dataDir, log, cleanups, metrics);
    const events = new JsonlFileSink(join(dataDir, EVENTS_FILE));
    const { ddb: db, s3, tableName, bucket } = standins;
    const webhooks = startWebhooks(options, { ddb: db, tableName, events }, log, cleanups, metrics);
    const windows = windowSleeper(pauseOf(options));
    const dispatcher = new LocalDispatcher(log);
    const wiring = wireLocal(
      withFfmpeg(config, options.previews ?? true),
      { standins, upstream, events: webhooks.sink, auditBus: events },
      windows,
      dispatcher,
      metrics,
      options.clock?.now,
    );
    const parts = { definition, dispatcher, log, windows, time: options };
    const starter = await startExecutions(wiring, parts, cleanups);
    const drops = routeDrops(standins.s3rver, dropDepsFrom(wiring, config.defaultModel), log);
    // Undone in reverse: notifications are ignored first, then the drops being handled finish.
    cleanups.push(
      () => drops.drain(),
      () => drops.stop(),
    );
    // Before the API listens: a job submitted while the stack starts is this run's, never a
    // leftover of the last one (after the API was up, such a job was handed to its starter a
    // second time and logged as resumed; the starter's execution names kept it to one run).
    const resumed = await resumeLeftovers(
      // A job that ended without its event still counts for its batch and settles its budget.
      { ...wiring.pipeline, events: { emit: webhooks.sink.emit, readAll: () => events.readAll() } },
      { queue: wiring.queue, executions: starter },
      log,
      dataDir,
    );
    const served = { starter, events, apiKey, config, webhooks: webhooks.api, log, metrics };
    const server = await serveApi(wiring, served, { standins, upstream }, cleanups);
    await lock.announce(server.url);
    // In the background: readiness must not wait on a large inbox.
    void drops.rescan(s3).catch((error: unknown) => log.error("the inbox rescan stopped", error));
    let stopping: Promise<void> | undefined;
    return {
      url: server.url,
      apiKey,
      bucket,
      s3Endpoint: standins.s3Endpoint,
      dataDir,
      upstream: upstream.name,
      ...(upstream.simulator === undefined ? {} : { simulator: upstream.simulator }),
      ...(upstream.simulators === undefined ? {} : { simulators: upstream.simulators }),
      resumed: resumed.map((job) => job.id),
      children: standins.children,
      // Stop accepting (API, drops) first, then abort executions, then close the stores they used.
      stop: () => (stopping ??= cleanups.run()),
    };
  } catch (error) {
    await cleanups.run().catch(() => undefined);
    throw error;
  }
}
