/**
 * The AWS side of the wiring: the config and the SDK clients are made once per cold start, from
 * the names the stack put on the function, and handed to core's `wirePipeline`. The upstream API
 * keys come from SST's Config (SSM), never the environment.
 */
import type { Tracer } from "@aws-lambda-powertools/tracer";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import type { SFNClient } from "@aws-sdk/client-sfn";
import { EventBridgeSink, UpstreamClient } from "@reelay/core/adapters";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  type Config,
  loadConfig,
  type PlatformClients,
  type PoolMember,
  type Wiring,
  wirePipeline,
} from "@reelay/core/wiring";
import {
  DEFAULT_ACCOUNT,
  ReelayError,
  type FetchPolicy,
  outputFetchPolicy,
} from "@reelay/core/domain";
import type {
  PipelineDeps,
  DispatchWaker,
  ExecutionStopper,
  ExecutionStarter,
  Metrics,
} from "@reelay/core/usecases";
import { type EmfMetrics, emfMetrics } from "./metrics.ts";
import { accountKeySecret, readSecret, readSecrets, UPSTREAM_KEY_SECRET } from "./secrets.ts";
import { functionTracer } from "./xray.ts";

/** A setting the stack sets on this function: its name in the error when it is missing. */
export function required(value: string | undefined, name: string): string {
  if (value === undefined) {
    throw new ReelayError(
      "invalid_config",
      `${name} is not set on this function; the stack sets it.`,
      {
        path: name,
      },
    );
  }
  return value;
}

interface AwsProcess {
  config: Config;
  clients: PlatformClients;
  events: EventBridgeSink;
  waker: DispatchWaker;
  /** EMF lines, written at the end of each invocation (withMetrics). */
  metrics: EmfMetrics;
  /** Made before any client sends: it instruments http, https and fetch (on Lambda only). */
  tracer: Tracer;
}

let made: AwsProcess | undefined;

/** This process's config and clients, made on first use (tests set the env before that). */
export function awsProcess(): AwsProcess {
  if (made !== undefined) return made;
  const config = loadConfig();
  const region = config.aws.region;
  const tracer = functionTracer();
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  made = {
    config,
    clients: {
      db,
      s3: s3Client,
      tableName: required(config.aws.tableName, "REELAY_TABLE_NAME"),
      bucket: required(config.aws.bucketName, "REELAY_BUCKET_NAME"),
    },
    metrics: emfMetrics(),
    tracer,
    events: new EventBridgeSink(new EventBridgeClient({ region }), config.aws.eventBusName),
    waker: { wake: async () => (await dispatchWaker()).wake() },
  };
  return made;
}

/**
 * `make` run at the first call, its answer kept (a failure is made again at the next call). The
 * Lambda and Step Functions clients are loaded so, each a chunk of its own in the bundle: a cold
 * start compiles only the clients its function uses on every invocation.
 */
function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}

/** The Dispatch function's waker, made at the first wake: a function that never wakes it needs no name for it. */
const dispatchWaker = onFirstUse(async () => {
  const { config } = awsProcess();
  const name = required(config.aws.dispatchFunctionName, "REELAY_DISPATCH_FUNCTION");
  const [{ LambdaClient }, { lambdaWaker }] = await Promise.all([
    import("@aws-sdk/client-lambda"),
    import("./waker.ts"),
  ]);
  return lambdaWaker(new LambdaClient({ region: config.aws.region }), name);
});

/**
 * The S3 client, loaded at the bucket's first use (ObjectStore): Submit, Poll, Dispatch and the
 * webhook sender never use it; the functions that do on every call load it as they start
 * (bucket.ts).
 */
const s3Client = onFirstUse(async () =>
  (await import("./s3-client.ts")).functionS3Client(awsProcess().config.aws.region),
);

/** The Step Functions client: only the API (cancel) and Dispatch (start) functions call it. */
const sfnClient = onFirstUse(async () => {
  const { SFNClient } = await import("@aws-sdk/client-sfn");
  return new SFNClient({ region: awsProcess().config.aws.region });
});

/** Stands in for the upstream client in functions that must never call it (no key bound). */
function unboundUpstream(): UpstreamClient {
  return new Proxy({} as UpstreamClient, {
    get(_target, property) {
      throw new ReelayError(
        "upstream_not_bound",
        `This function has no upstream API key; it cannot use upstream.${String(property)}.`,
      );
    },
  });
}

/** An upstream client as Submit, Poll and Download use it, with `apiKey` read from its secret. */
function upstreamClient(
  baseUrl: string,
  apiKey: string,
  metrics: Metrics,
  account: string,
): UpstreamClient {
  return new UpstreamClient({
    baseUrl,
    apiKey,
    // Every count names its account, as on the local stack.
    labels: { account },
    // 3 attempts of at most 15 s, plus Retry-After waits, fit the 180 s Submit/Poll functions;
    // anything longer is the state machine's ReelayTransientError retry.
    timeoutMs: 15_000,
    maxAttempts: 3,
    metrics,
  });
}

/** The upstream of the one-account form and, in a pool, its accounts for wirePipeline. */
interface Upstreams {
  upstream: UpstreamClient;
  pool?: PoolMember[];
}

/**
 * Where this function reaches the upstream. Only the functions that call it (Submit, Poll,
 * Download) have the key secrets bound, and read them here, once per cold start: the one
 * account's, or every pool account's in one SSM read. The others get a pool's accounts without
 * clients (their admission needs each account's settings, never its key). A pool account's key is
 * always its secret's value: the `api_key` in the function's REELAY_UPSTREAMS is only the
 * placeholder the stack put there (stacks/upstream.ts), and is never sent.
 */
async function upstreamsOf(
  config: Config,
  callsUpstream: boolean,
  metrics: Metrics,
): Promise<Upstreams> {
  const accounts = config.upstreams;
  if (accounts === undefined) {
    if (!callsUpstream) return { upstream: unboundUpstream() };
    const baseUrl = required(config.upstreamUrl, "REELAY_UPSTREAM_URL");
    return {
      upstream: upstreamClient(
        baseUrl,
        await readSecret(UPSTREAM_KEY_SECRET),
        metrics,
        DEFAULT_ACCOUNT,
      ),
    };
  }
  if (!callsUpstream)
    return {
      upstream: unboundUpstream(),
      pool: accounts.map(({ apiKey: _placeholder, url: _url, ...account }) => ({ account })),
    };
  const keys = await readSecrets(accounts.map((account) => accountKeySecret(account.name)));
  const pool = accounts.map(({ apiKey: _placeholder, url, ...account }) => ({
    account,
    client: upstreamClient(
      url,
      keys.get(accountKeySecret(account.name)) as string,
      metrics,
      account.name,
    ),
  }));
  // The first account's client stands for the pool where no account is named (the model listing).
  return { upstream: pool[0]?.client as UpstreamClient, pool };
}

/**
 * The pipeline on Lambda; only Submit, Poll and Download hold upstream keys. The Dispatch function
 * runs dispatch() right after whatever it frees, so it passes a waker that does nothing.
 */
export async function awsWiring(opts: {
  callsUpstream: boolean;
  waker?: DispatchWaker;
}): Promise<Wiring> {
  const { config, clients, events, waker, metrics } = awsProcess();
  return wirePipeline({
    config,
    platform: "aws",
    clients,
    events,
    auditBus: events,
    ...(await upstreamsOf(config, opts.callsUpstream, metrics)),
    waker: opts.waker ?? waker,
    metrics,
  });
}

export async function buildPipelineDeps(opts: { callsUpstream: boolean }): Promise<PipelineDeps> {
  return (await awsWiring(opts)).pipeline;
}

/**
 * A starter or stopper of this stack's state machine; it and the Step Functions client are loaded
 * at its first call.
 */
function onStateMachine<T>(
  load: () => Promise<(sfn: SFNClient, stateMachineArn: string) => T>,
): () => Promise<T> {
  const arn = required(awsProcess().config.aws.stateMachineArn, "REELAY_STATE_MACHINE_ARN");
  return onFirstUse(async () => {
    const [sfn, make] = await Promise.all([sfnClient(), load()]);
    return make(sfn, arn);
  });
}

/** Starts executions of this stack's state machine (the Dispatch function). */
export function awsStarter(): ExecutionStarter {
  const starter = onStateMachine(async () => (await import("./starter.ts")).stateMachineStarter);
  return { start: async (job) => (await starter()).start(job) };
}

/** Stops executions of this stack's state machine (the API's cancel). */
export function awsStopper(): ExecutionStopper {
  const stopper = onStateMachine(async () => (await import("./stopper.ts")).stateMachineStopper);
  return { stop: async (execution) => (await stopper()).stop(execution) };
}

/** Output downloads on AWS: https only, public addresses only, REELAY_MAX_OUTPUT_BYTES at most. */
export function awsOutputFetchPolicy(config: Config): FetchPolicy {
  return outputFetchPolicy(config.aws.rehearsal ? "local" : "aws", config.maxOutputBytes);
}
