/**
 * The whole service on one machine: dynalite and s3rver under the data dir (each in a child
 * process that ends with this one), the job flow's synthesized ASL run by aws-local-stepfunctions
 * with the core steps as its Tasks, s3rver's `inbox/` notifications to the drop ingester, the same
 * API app, and the bundled simulator unless a real upstream is configured. Same handlers, same state machine as on AWS; only the transport differs.
 */
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createApp, keyStoreAuthenticator, serveApp, type RunningServer } from "@reelay/api";
import type { Config } from "@reelay/core";
import { UpstreamClient } from "@reelay/core";
import { JsonlFileSink } from "@reelay/core/events/jsonl";
import { synthJobFlowDefinition } from "@reelay/core/flow/synth-definition";
import { CachedGenerationStats, GenerationStatsStore } from "@reelay/core/jobs/generation-stats";
import { JobStore } from "@reelay/core/jobs/store";
import { guardedFetch } from "@reelay/core/net/guarded-fetch";
import { outputFetchPolicy, webhookFetchPolicy } from "@reelay/core/net/policy";
import { ApiKeyStore } from "@reelay/core/keys/store";
import type { PipelineDeps } from "@reelay/core/pipeline/deps";
import { POLL_WINDOW_MS } from "@reelay/core/polling/policy";
import { ObjectStore } from "@reelay/core/storage/objects";
import { DEAD_LETTER_FILE, JsonlDeadLetters } from "@reelay/core/webhooks/dead-letter";
import type { RetryPolicy } from "@reelay/core/webhooks/deliver";
import { WebhookDispatcher } from "@reelay/core/webhooks/dispatch";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { loadOrCreateApiKey } from "./api-key.ts";
import { startStandins, type Standins } from "./aws-standins.ts";
import { routeDrops } from "./drops.ts";
import { jobFlowHandlers } from "./handlers.ts";
import { consoleLogger, silentLogger, type Logger } from "./log.ts";
import { announceLeftovers, leftoverJobs } from "./resume.ts";
import { LocalJobStarter } from "./starter.ts";
import { windowSleeper } from "./window-sleep.ts";

export const EVENTS_FILE = "events.jsonl";
export const SIMULATOR_STATE_FILE = join("simulator", "tasks.jsonl");
/** The simulator's generation time when nothing else is asked: a believable wait, not minutes. */
export const DEFAULT_SIM_GENERATION_MS = 20_000;

export interface LocalStackOptions {
  config: Config;
  simulator?: { timeScale?: number; generationMs?: number };
  /** No background log lines (tests). */
  quiet?: boolean;
  logger?: Logger;
  /** S3 port; default REELAY_PORT + 1 (so tools find it across restarts), 0 = any free port. */
  s3Port?: number;
  /** Webhook retry timing (tests shorten it); subscribers come from config.webhooks. */
  webhookRetry?: Partial<RetryPolicy>;
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
  /** Jobs resumed at start. */
  resumed: string[];
  stop(): Promise<void>;
}

interface Upstream {
  client: UpstreamClient;
  name: string;
  simulator?: Simulator;
}

async function startUpstream(options: LocalStackOptions): Promise<Upstream> {
  const { config } = options;
  if (config.upstreamUrl !== undefined) {
    return {
      client: new UpstreamClient({
        baseUrl: config.upstreamUrl,
        apiKey: config.upstreamApiKey ?? "",
      }),
      name: new URL(config.upstreamUrl).host,
    };
  }
  const apiKey = randomBytes(18).toString("base64url");
  const simulator = await startSimulator({
    apiKey,
    generationMs: options.simulator?.generationMs ?? DEFAULT_SIM_GENERATION_MS,
    timeScale: options.simulator?.timeScale ?? 1,
    // The bundled upstream remembers its tasks across restarts, as a real one would; otherwise a
    // job in flight at Ctrl-C or a crash would resume against a task that no longer exists.
    stateFile: join(config.dataDir, SIMULATOR_STATE_FILE),
  });
  return {
    client: new UpstreamClient({ baseUrl: simulator.url, apiKey }),
    name: "simulator",
    simulator,
  };
}

/** Runs `stop` steps in order, each even if an earlier one failed, then rethrows the first failure. */
async function inOrder(steps: (() => Promise<void> | void)[]): Promise<void> {
  let first: unknown;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      first ??= error;
    }
  }
  if (first !== undefined) throw first;
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { config } = options;
  const log = options.logger ?? (options.quiet ? silentLogger : consoleLogger());
  const dataDir = resolve(config.dataDir);
  await mkdir(dataDir, { recursive: true });

  // The definition is synthesized first: it is the slowest part and needs nothing else.
  const definition = synthJobFlowDefinition();
  const apiKey = await loadOrCreateApiKey(dataDir, config.apiKey);
  const cleanups: (() => Promise<void> | void)[] = [];
  const undo = () => inOrder(cleanups.reverse());

  try {
    const standins: Standins = await startStandins({
      dataDir,
      host: "127.0.0.1",
      s3Port: options.s3Port ?? (config.port === 0 ? 0 : config.port + 1),
      // Storing outputs (hashing, file writes) on the other core, as dynalite's work is.
      s3InChild: true,
      ...(config.aws.bucketName === undefined ? {} : { bucket: config.aws.bucketName }),
      ...(config.aws.tableName === undefined ? {} : { tableName: config.aws.tableName }),
    });
    cleanups.push(() => standins.close());
    const upstream = await startUpstream(options);
    if (upstream.simulator !== undefined) cleanups.push(() => upstream.simulator?.close());

    const jobs = new JobStore(standins.ddb, standins.tableName);
    const objects = new ObjectStore(standins.s3, standins.bucket);
    const events = new JsonlFileSink(join(dataDir, EVENTS_FILE));
    // Loopback subscribers are allowed here (a local receiver); private and metadata addresses are not.
    const webhooks = new WebhookDispatcher(config.webhooks, {
      fetch: guardedFetch(webhookFetchPolicy("local")),
      deadLetters: new JsonlDeadLetters(join(dataDir, DEAD_LETTER_FILE)),
      ...(options.webhookRetry === undefined ? {} : { retry: options.webhookRetry }),
      onError: (error) => log.error("a webhook delivery stopped", error),
    });
    const unsubscribeWebhooks = events.subscribe(webhooks.handle);
    cleanups.push(() => webhooks.drain(), unsubscribeWebhooks);
    const windows = windowSleeper();
    const deps: PipelineDeps = {
      jobs,
      objects,
      upstream: upstream.client,
      events,
      // Outputs come from the simulator on 127.0.0.1: loopback (and http) downloads are allowed here,
      // and only here; functions/support/deps.ts builds the strict AWS policy.
      fetch: guardedFetch(outputFetchPolicy("local", config.maxOutputBytes)),
      now: () => new Date(),
      // One process runs every step: Submit's and Poll's reads of a model's stats share one read.
      generationStats: new CachedGenerationStats(
        new GenerationStatsStore(standins.ddb, standins.tableName),
      ),
      pollWindowMs: POLL_WINDOW_MS,
      sleep: windows.sleep,
      ...(config.jobTimeoutS === undefined ? {} : { jobTimeoutS: config.jobTimeoutS }),
    };
    const starter = new LocalJobStarter({ definition, handlers: jobFlowHandlers(deps), log });
    cleanups.push(() => starter.stop());
    cleanups.push(() => windows.end());

    const drops = routeDrops(
      standins.s3rver,
      { jobs, objects, starter, defaultModel: config.defaultModel },
      log,
    );
    cleanups.push(
      () => drops.drain(),
      () => drops.stop(),
    );

    const apiKeys = new ApiKeyStore(standins.ddb, standins.tableName);
    const app = createApp({
      jobs,
      objects,
      starter,
      stopper: { stop: (jobId) => starter.cancel(jobId) },
      sink: events,
      events,
      // The stack's own key is the admin key: it sees every job and manages the stored keys.
      keys: apiKeys,
      authenticate: keyStoreAuthenticator(apiKey, apiKeys),
      upstreamModels: (modality) => upstream.client.listModels(modality),
      health: async () => ({
        s3: { endpoint: standins.s3Endpoint, bucket: standins.bucket },
        upstream: upstream.name,
      }),
    });
    const server: RunningServer = await serveApp(app, { hostname: config.host, port: config.port });
    cleanups.push(() => server.close());

    const { unfinished: resumed, unannounced } = await leftoverJobs(jobs);
    const announced = await announceLeftovers(unannounced, { jobs, events, now: () => new Date() });
    if (announced.length > 0)
      log.info(
        `sent the terminal event of ${announced.length} job(s) that ended without it: ${announced.join(", ")}`,
      );
    for (const job of resumed) await starter.start(job);
    if (resumed.length > 0)
      log.info(
        `resumed ${resumed.length} unfinished job(s): ${resumed.map((job) => job.id).join(", ")}`,
      );
    // In the background: readiness must not wait on a large inbox.
    void drops
      .rescan(standins.s3)
      .catch((error: unknown) => log.error("the inbox rescan stopped", error));

    let stopping: Promise<void> | undefined;
    return {
      url: server.url,
      apiKey,
      bucket: standins.bucket,
      s3Endpoint: standins.s3Endpoint,
      dataDir,
      upstream: upstream.name,
      ...(upstream.simulator === undefined ? {} : { simulator: upstream.simulator }),
      resumed: resumed.map((job) => job.id),
      // Stop accepting (API, drops) first, then abort executions, then close the stores they used.
      stop: () => (stopping ??= undo()),
    };
  } catch (error) {
    await undo().catch(() => undefined);
    throw error;
  }
}
