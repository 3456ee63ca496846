/**
 * Who receives an event, and with which secrets: the deployment's REELAY_WEBHOOKS subscribers (every
 * event) and the managed ones (domain/webhooks/managed-subscriber.ts), each filtered by its event types and its owner: the
 * deployment's own key's receive every event, a stored key's only the events of its own jobs. And
 * the job's own webhook (webhook_url, X-Reelay-Webhook; a batch's for its jobs and its Batch
 * Completed), signed with the webhook secrets of the key that made the job or batch.
 */
import type { JobStorePort, SubscriberStorePort } from "../ports.ts";
import { createHash } from "node:crypto";
import { isBatchEvent, type ReelayEvent } from "../../domain/events/types.ts";
import type { Batch } from "../../domain/batches/types.ts";
import type { JobWebhook } from "../../domain/jobs/job-options.ts";
import type { SigningTarget } from "./deliver.ts";
import {
  type ManagedSubscriber,
  signingSecrets,
  subscriberProject,
} from "../../domain/webhooks/managed-subscriber.ts";
import { projectOf } from "../../domain/keys/projects.ts";
import type { WebhookSubscriber } from "../../domain/webhooks/subscribers.ts";

/** A REELAY_WEBHOOKS subscriber's id in the log: its URL's digest (the URL may hold a token). */
export function subscriberKey(subscriber: Pick<WebhookSubscriber, "url">): string {
  return `config:${createHash("sha256").update(subscriber.url).digest("hex").slice(0, 16)}`;
}

/** Where a delivery goes: the subscriber's id and URL (its secret stays in the configuration). */
export interface DeliveryTarget {
  subscriber: string;
  url: string;
}

export function targetOf(subscriber: WebhookSubscriber): DeliveryTarget {
  return { subscriber: subscriberKey(subscriber), url: subscriber.url };
}

/** The caller id of the deployment's own key (api/auth.ts): its subscribers receive every event. */
const ADMIN_OWNER = "local";

/** Where jobs' and batches' own webhooks are read, and their keys' signing secrets. */
export interface OwnWebhooks {
  jobs: Pick<JobStorePort, "get">;
  batches: { get(id: string): Promise<Pick<Batch, "webhook" | "source"> | undefined> };
  /** The secrets signing a key's jobs' webhooks now (adapters/dynamodb/api-key-table.ts). */
  secretsOf(keyId: string): Promise<string[]>;
}

export interface Subscribers {
  config: readonly WebhookSubscriber[];
  managed?: Pick<SubscriberStorePort, "list" | "get">;
  /** The project whose job an event is about; undefined when none is known (a batch's event). */
  ownerOf?: (event: ReelayEvent) => Promise<string | undefined>;
  own?: OwnWebhooks;
}

const JOB_TARGET = "job:";
const BATCH_TARGET = "batch:";

/** The record whose own webhook a subscriber id names (`job:<id>`, `batch:<id>`). */
async function ownerRecord(
  own: OwnWebhooks,
  subscriber: string,
): Promise<{ webhook?: JobWebhook; source: { apiKeyId?: string } } | undefined> {
  if (subscriber.startsWith(JOB_TARGET)) return own.jobs.get(subscriber.slice(JOB_TARGET.length));
  if (subscriber.startsWith(BATCH_TARGET))
    return own.batches.get(subscriber.slice(BATCH_TARGET.length));
  return undefined;
}

/** The event's job's (or batch's) own webhook, when it has one that wants this event. */
async function ownTarget(
  own: OwnWebhooks,
  event: ReelayEvent,
): Promise<DeliveryTarget | undefined> {
  const subscriber = isBatchEvent(event)
    ? `${BATCH_TARGET}${event.detail.batchId}`
    : `${JOB_TARGET}${event.detail.jobId}`;
  const webhook = (await ownerRecord(own, subscriber))?.webhook;
  if (webhook === undefined) return undefined;
  if (webhook.events !== undefined && !webhook.events.includes(event["detail-type"]))
    return undefined;
  return { subscriber, url: webhook.url };
}

/**
 * The managed subscribers as every event reads them, the listing kept `ttlMs`: an event does not
 * pay a query on the table each (many jobs end each second under load); a subscriber made or removed
 * is seen by the events of the next second.
 */
export function cachedSubscribers(
  store: Pick<SubscriberStorePort, "list" | "get">,
  ttlMs = 1_000,
): Pick<SubscriberStorePort, "list" | "get"> {
  let cached: { at: number; list: Promise<ManagedSubscriber[]> } | undefined;
  return {
    get: (id) => store.get(id),
    list: () => {
      const now = Date.now();
      if (cached === undefined || now - cached.at > ttlMs) {
        const list = store.list();
        cached = { at: now, list };
        list.catch(() => {
          cached = undefined;
        });
      }
      return cached.list;
    },
  };
}

/** A job event's project from its job record (domain/keys/projects.ts). */
export function ownerFromJobs(jobs: Pick<JobStorePort, "get">) {
  return async (event: ReelayEvent): Promise<string | undefined> => {
    if (isBatchEvent(event)) return undefined;
    const job = await jobs.get(event.detail.jobId);
    return job === undefined ? undefined : projectOf(job.source);
  };
}

function managedTarget(subscriber: ManagedSubscriber): DeliveryTarget {
  return { subscriber: subscriber.id, url: subscriber.url };
}

export async function targetsFor(
  subscribers: Subscribers,
  event: ReelayEvent,
): Promise<DeliveryTarget[]> {
  const fixed = subscribers.config.map(targetOf);
  const managed = (await subscribers.managed?.list()) ?? [];
  const wanted = managed.filter(
    (s) => s.events === undefined || s.events.includes(event["detail-type"]),
  );
  const owner =
    wanted.some((s) => s.ownerKeyId !== ADMIN_OWNER) && subscribers.ownerOf !== undefined
      ? await subscribers.ownerOf(event)
      : undefined;
  const owned = wanted.filter(
    (s) => s.ownerKeyId === ADMIN_OWNER || (owner !== undefined && subscriberProject(s) === owner),
  );
  const own = subscribers.own === undefined ? undefined : await ownTarget(subscribers.own, event);
  return [...fixed, ...owned.map(managedTarget), ...(own === undefined ? [] : [own])];
}

/** Every subscriber (a replay's choice). */
export async function allTargets(subscribers: Subscribers): Promise<DeliveryTarget[]> {
  const managed = (await subscribers.managed?.list()) ?? [];
  return [...subscribers.config.map(targetOf), ...managed.map(managedTarget)];
}

/** The URL and current secrets of a delivery's subscriber; undefined when it is gone. */
export async function signingFor(
  subscribers: Subscribers,
  subscriber: string,
  now: Date,
): Promise<SigningTarget | undefined> {
  const fixed = subscribers.config.find((s) => subscriberKey(s) === subscriber);
  if (fixed !== undefined) return { url: fixed.url, secrets: [fixed.secret] };
  if (subscribers.own !== undefined) {
    const record = await ownerRecord(subscribers.own, subscriber);
    const keyId = record?.source.apiKeyId;
    if (record?.webhook !== undefined && keyId !== undefined) {
      const secrets = await subscribers.own.secretsOf(keyId);
      return secrets.length === 0 ? undefined : { url: record.webhook.url, secrets };
    }
  }
  const managed = await subscribers.managed?.get(subscriber);
  if (managed === undefined) return undefined;
  return { url: managed.url, secrets: signingSecrets(managed, now) };
}
