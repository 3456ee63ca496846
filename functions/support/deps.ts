/**
 * The AWS side of the wiring: the config and the SDK clients are made once per cold start, from
 * the names the stack put on the function, and handed to core's `wirePipeline`. The upstream API
 * key comes from SST's Config (SSM), never the environment.
 */
import type { Tracer } from "@aws-lambda-powertools/tracer";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { S3Client } from "@aws-sdk/client-s3";
import type { SFNClient } from "@aws-sdk/client-sfn";
import { withUnsignedUploads, EventBridgeSink, UpstreamClient } from "@reelay/core/adapters";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  type Config,
  loadConfig,
  type PlatformClients,
  type Wiring,
  wirePipeline,
} from "@reelay/core/wiring";
import { ReelayError, type FetchPolicy, outputFetchPolicy } from "@reelay/core/domain";
import type {
  PipelineDeps,
  DispatchWaker,
  ExecutionStopper,
  JobStarter,
  Metrics,
} from "@reelay/core/usecases";
import { type EmfMetrics, emfMetrics } from "./metrics.ts";
import { readSecret } from "./secrets.ts";
import { functionTracer } from "./xray.ts";

function required(value: string | undefined, name: string): string {
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
      s3: withUnsignedUploads(new S3Client({ region })),
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

async function upstreamClient(config: Config, metrics: Metrics): Promise<UpstreamClient> {
  // Read only where the secret is bound (Submit, Poll): from SSM, once per cold start.
  const apiKey = await readSecret("UPSTREAM_API_KEY");
  return new UpstreamClient({
    baseUrl: required(config.upstreamUrl, "REELAY_UPSTREAM_URL"),
    apiKey,
    // 3 attempts of at most 15 s, plus Retry-After waits, fit the 180 s Submit/Poll functions;
    // anything longer is the state machine's ReelayTransientError retry.
    timeoutMs: 15_000,
    maxAttempts: 3,
    metrics,
  });
}

/**
 * The pipeline on Lambda; only Submit and Poll hold the upstream key. The Dispatch function runs
 * dispatch() right after whatever it frees, so it passes a waker that does nothing.
 */
export async function awsWiring(opts: {
  callsUpstream: boolean;
  waker?: DispatchWaker;
}): Promise<Wiring> {
  const { config, clients, events, waker, metrics } = awsProcess();
  const upstream = opts.callsUpstream ? await upstreamClient(config, metrics) : unboundUpstream();
  return wirePipeline({
    config,
    platform: "aws",
    clients,
    events,
    upstream,
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
export function awsStarter(): JobStarter {
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
  return outputFetchPolicy("aws", config.maxOutputBytes);
}
