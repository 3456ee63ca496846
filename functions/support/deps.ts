/**
 * The pipeline's dependencies on Lambda, built once per cold start from the settings the stack
 * put on the function. The upstream API key comes from SST's Config (SSM), never the environment.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { S3Client } from "@aws-sdk/client-s3";
import { SFNClient } from "@aws-sdk/client-sfn";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { loadConfig, type Config } from "../../packages/core/src/config.ts";
import { ReelayError } from "../../packages/core/src/errors.ts";
import { EventBridgeSink } from "../../packages/core/src/events/eventbridge.ts";
import { GenerationStatsStore } from "../../packages/core/src/jobs/generation-stats.ts";
import type { ExecutionStopper } from "../../packages/core/src/jobs/cancel.ts";
import { JobStore } from "../../packages/core/src/jobs/store.ts";
import { guardedFetch, type FetchPolicy } from "../../packages/core/src/net/guarded-fetch.ts";
import { outputFetchPolicy } from "../../packages/core/src/net/policy.ts";
import type { PipelineDeps } from "../../packages/core/src/pipeline/deps.ts";
import { POLL_WINDOW_MS } from "../../packages/core/src/polling/policy.ts";
import { ObjectStore } from "../../packages/core/src/storage/objects.ts";
import { UpstreamClient } from "../../packages/core/src/upstream/client.ts";
import { readSecret } from "./secrets.ts";
import { stateMachineStarter } from "./starter.ts";
import { stateMachineStopper } from "./stopper.ts";

export function required(value: string | undefined, name: string): string {
  if (value === undefined)
    throw new ReelayError(
      "invalid_config",
      `${name} is not set on this function; the stack sets it.`,
      { path: name },
    );
  return value;
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

async function upstreamClient(config: Config): Promise<UpstreamClient> {
  // Read only where the secret is bound (Submit, Poll): from SSM, once per cold start.
  const apiKey = await readSecret("UPSTREAM_API_KEY");
  return new UpstreamClient({
    baseUrl: required(config.upstreamUrl, "REELAY_UPSTREAM_URL"),
    apiKey,
    // 3 attempts of at most 15 s, plus Retry-After waits, fit the 180 s Submit/Poll functions;
    // anything longer is the state machine's ReelayTransientError retry.
    timeoutMs: 15_000,
    maxAttempts: 3,
  });
}

/** The clients every handler shares, from the names the stack set. */
export function awsStores(
  config: Config = loadConfig(),
): Pick<PipelineDeps, "jobs" | "objects" | "events" | "generationStats"> {
  const region = config.aws.region;
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const tableName = required(config.aws.tableName, "REELAY_TABLE_NAME");
  return {
    jobs: new JobStore(db, tableName),
    generationStats: new GenerationStatsStore(db, tableName),
    objects: new ObjectStore(
      new S3Client({ region }),
      required(config.aws.bucketName, "REELAY_BUCKET_NAME"),
    ),
    events: new EventBridgeSink(new EventBridgeClient({ region }), config.aws.eventBusName),
  };
}

/** Starts executions of this stack's state machine (API and drop functions). */
export function awsStarter(config: Config = loadConfig()): ReturnType<typeof stateMachineStarter> {
  return stateMachineStarter(
    new SFNClient({ region: config.aws.region }),
    required(config.aws.stateMachineArn, "REELAY_STATE_MACHINE_ARN"),
  );
}

/** Stops executions of this stack's state machine (the API's cancel). */
export function awsStopper(config: Config = loadConfig()): ExecutionStopper {
  return stateMachineStopper(
    new SFNClient({ region: config.aws.region }),
    required(config.aws.stateMachineArn, "REELAY_STATE_MACHINE_ARN"),
  );
}

/** Output downloads on AWS: https only, public addresses only, REELAY_MAX_OUTPUT_BYTES at most. */
export function awsOutputFetchPolicy(config: Config): FetchPolicy {
  return outputFetchPolicy("aws", config.maxOutputBytes);
}

export async function buildPipelineDeps(opts: { callsUpstream: boolean }): Promise<PipelineDeps> {
  const config = loadConfig();
  return {
    ...awsStores(config),
    upstream: opts.callsUpstream ? await upstreamClient(config) : unboundUpstream(),
    fetch: guardedFetch(awsOutputFetchPolicy(config)),
    now: () => new Date(),
    pollWindowMs: POLL_WINDOW_MS,
    ...(config.jobTimeoutS === undefined ? {} : { jobTimeoutS: config.jobTimeoutS }),
  };
}
