/**
 * The one function that puts webhook delivery together, beside `wirePipeline`: the delivery log and
 * the managed subscribers in the jobs table, who receives an event, and the guarded fetch that sends
 * it. The API function, the webhook function (`functions/webhook.ts`) and the local stack each take
 * what they use from it.
 */
import type { Clock, Metrics } from "../usecases/ports.ts";
import type { DeliverySweepDeps } from "../usecases/webhooks/delivery-sweep.ts";
import {
  allTargets,
  cachedSubscribers,
  type DeliveryTarget,
  type OwnWebhooks,
  ownerFromJobs,
  type Subscribers,
} from "../usecases/webhooks/targets.ts";
import { ApiKeyStore } from "../adapters/dynamodb/api-key-table.ts";
import { BatchStore } from "../adapters/dynamodb/batch-table.ts";
import { DeliveryStore } from "../adapters/dynamodb/delivery-table.ts";
import { JobStore } from "../adapters/dynamodb/job-table.ts";
import { SubscriberStore } from "../adapters/dynamodb/subscriber-table.ts";
import { guardedFetch } from "../adapters/net/guarded-fetch.ts";
import { type Deployment, webhookFetchPolicy } from "../domain/net/policy.ts";
import type { WebhookSubscriber } from "../domain/webhooks/subscribers.ts";
import type { Config } from "./config.ts";
import type { PlatformClients } from "./wire-pipeline.ts";

export interface WebhookWiringInput {
  config: Pick<Config, "webhookSchedule"> & { aws: Pick<Config["aws"], "rehearsal"> };
  platform: Deployment;
  clients: Pick<PlatformClients, "db" | "tableName">;
  /**
   * The REELAY_WEBHOOKS subscribers, where this process sends (the local stack, the webhook
   * function); absent where it only serves the routes (the API function holds no subscriber secret:
   * a replay there goes to the subscribers the event was delivered to before).
   */
  subscribers?: readonly WebhookSubscriber[];
  /** Counts each attempt recorded (the sender's); absent = none. */
  metrics?: Metrics;
  now?: Clock;
}

/** What the API's webhook routes take (the API package's WebhookApiDeps, without `wake`). */
interface WebhookRoutesDeps {
  store: DeliveryStore;
  schedule: readonly number[];
  now: Clock;
  targets?: () => Promise<DeliveryTarget[]>;
  managed: { store: SubscriberStore; deployment: Deployment };
}

export interface WebhookWiring {
  /** What the sweep, the outbox and the delivering sink take: the log, who receives, how to send. */
  deliveries: DeliverySweepDeps;
  api: WebhookRoutesDeps;
}

/** The jobs' and batches' own webhooks (webhook_url), signed with their keys' secrets. */
function ownWebhooks(clients: WebhookWiringInput["clients"]): OwnWebhooks {
  const keys = new ApiKeyStore(clients.db, clients.tableName);
  return {
    jobs: new JobStore(clients.db, clients.tableName),
    batches: new BatchStore(clients.db, clients.tableName),
    secretsOf: (keyId) => keys.webhookSecretsOf(keyId),
  };
}

export function wireWebhooks(input: WebhookWiringInput): WebhookWiring {
  const { config, clients } = input;
  // The rehearsal's subscribers are on loopback: its functions check URLs as the local stack does.
  const deployment = config.aws.rehearsal ? "local" : input.platform;
  const store = new DeliveryStore(
    clients.db,
    clients.tableName,
    input.metrics === undefined ? {} : { metrics: input.metrics },
  );
  const managed = new SubscriberStore(clients.db, clients.tableName);
  const schedule = config.webhookSchedule;
  const now = input.now ?? (() => new Date());
  const subscribers: Subscribers = {
    config: input.subscribers ?? [],
    // Locally every event of the one process reads the same listing (a second at most old); each
    // Lambda invocation reads its own.
    managed: input.platform === "local" ? cachedSubscribers(managed) : managed,
    ownerOf: ownerFromJobs(new JobStore(clients.db, clients.tableName)),
    own: ownWebhooks(clients),
  };
  return {
    // Subscribers are the operator's, but a function runs beside the metadata service: https to
    // public addresses only there; loopback receivers are allowed locally, private addresses never.
    deliveries: {
      store,
      subscribers,
      schedule,
      now,
      fetch: guardedFetch(webhookFetchPolicy(deployment)),
    },
    api: {
      store,
      schedule,
      now,
      ...(input.subscribers === undefined ? {} : { targets: () => allTargets(subscribers) }),
      managed: { store: managed, deployment },
    },
  };
}
