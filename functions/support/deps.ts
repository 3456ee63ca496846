/**
 * The AWS side of the wiring: the config and the SDK clients are made once per cold start, from
 * the names the stack put on the function, and handed to core's `wirePipeline`. The upstream API
 * key comes from SST's Config (SSM), never the environment.
 */
import type { Tracer } from "@aws-lambda-powertools/tracer";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { LambdaClient } from "@aws-sdk/client-lambda";
import { S3Client } from "@aws-sdk/client-s3";
import { withUnsignedUploads, EventBridgeSink, UpstreamClient } from "@reelay/core/adapters";
import { SFNClient } from "@aws-sdk/client-sfn";
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
import { stateMachineStarter } from "./starter.ts";
import { stateMachineStopper } from "./stopper.ts";
import { lambdaWaker } from "./waker.ts";
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
  sfn: SFNClient;
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
    sfn: new SFNClient({ region }),
    metrics: emfMetrics(),
    tracer,
    events: new EventBridgeSink(new EventBridgeClient({ region }), config.aws.eventBusName),
    waker: lazyWaker(() =>
      lambdaWaker(
        new LambdaClient({ region }),
        required(config.aws.dispatchFunctionName, "REELAY_DISPATCH_FUNCTION"),
      ),
    ),
  };
  return made;
}

/** Made at the first wake, so a function that never wakes the dispatcher needs no name for it. */
function lazyWaker(make: () => DispatchWaker): DispatchWaker {
  let waker: DispatchWaker | undefined;
  return {
    wake: () => {
      waker ??= make();
      return waker.wake();
    },
  };
}

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

/** Starts executions of this stack's state machine (the Dispatch function). */
export function awsStarter(): JobStarter {
  const { config, sfn } = awsProcess();
  return stateMachineStarter(sfn, required(config.aws.stateMachineArn, "REELAY_STATE_MACHINE_ARN"));
}

/** Stops executions of this stack's state machine (the API's cancel). */
export function awsStopper(): ExecutionStopper {
  const { config, sfn } = awsProcess();
  return stateMachineStopper(sfn, required(config.aws.stateMachineArn, "REELAY_STATE_MACHINE_ARN"));
}

/** Output downloads on AWS: https only, public addresses only, REELAY_MAX_OUTPUT_BYTES at most. */
export function awsOutputFetchPolicy(config: Config): FetchPolicy {
  return outputFetchPolicy("aws", config.maxOutputBytes);
}
