/**
 * The one function that puts the pipeline together from a config and a platform. The Lambda
 * functions (`functions/support/aws.ts`) and the local stack (`packages/local/src/stack.ts`) each
 * make their platform's clients once per process and hand them here, so the stores, the fetch
 * policy and the polling settings are chosen in one place for both.
 */
import type { S3Client } from "@aws-sdk/client-s3";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Config } from "./config.ts";
import { CachedGenerationStats, GenerationStatsStore } from "./jobs/generation-stats.ts";
import { JobStore } from "./jobs/store.ts";
import { ApiKeyStore } from "./keys/store.ts";
import { guardedFetch } from "./net/guarded-fetch.ts";
import { type Deployment, outputFetchPolicy } from "./net/policy.ts";
import type { PipelineDeps } from "./pipeline/deps.ts";
import { POLL_WINDOW_MS } from "./polling/policy.ts";
import type { EventSink } from "./ports.ts";
import { ObjectStore } from "./storage/objects.ts";
import type { UpstreamClient } from "./upstream/client.ts";

/** The clients and resource names a platform provides: the jobs table and the bucket. */
export interface PlatformClients {
  db: DynamoDBDocumentClient;
  s3: S3Client;
  tableName: string;
  bucket: string;
}

export interface WiringInput {
  config: Config;
  platform: Deployment;
  clients: PlatformClients;
  events: EventSink;
  upstream: UpstreamClient;
  /** The Poll window's pause; the local stack passes one that its shutdown can cut short. */
  sleep?: (ms: number) => Promise<void>;
}

export interface Wiring {
  pipeline: PipelineDeps;
  /** Stored API keys, in the jobs table. */
  keys: ApiKeyStore;
}

export function wirePipeline(input: WiringInput): Wiring {
  const { config, platform, clients } = input;
  const stats = new GenerationStatsStore(clients.db, clients.tableName);
  return {
    keys: new ApiKeyStore(clients.db, clients.tableName),
    pipeline: {
      jobs: new JobStore(clients.db, clients.tableName),
      objects: new ObjectStore(clients.s3, clients.bucket),
      upstream: input.upstream,
      events: input.events,
      // Loopback and http outputs (the bundled simulator) are allowed on the local stack only.
      fetch: guardedFetch(outputFetchPolicy(platform, config.maxOutputBytes)),
      now: () => new Date(),
      // Locally one process runs every step, so Submit's and Poll's reads of a model's stats can
      // share one; each Lambda function is its own process and reads for itself.
      generationStats: platform === "local" ? new CachedGenerationStats(stats) : stats,
      pollWindowMs: POLL_WINDOW_MS,
      ...(input.sleep === undefined ? {} : { sleep: input.sleep }),
      ...(config.jobTimeoutS === undefined ? {} : { jobTimeoutS: config.jobTimeoutS }),
    },
  };
}
