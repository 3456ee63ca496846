/**
 * Who receives an event, and with which secrets: the deployment's REELAY_WEBHOOKS subscribers (every
 * event) and the managed ones (managed.ts), each filtered by its event types and its owner: the
 * deployment's own key's receive every event, a stored key's only the events of its own jobs.
 */
import { createHash } from "node:crypto";
import { isBatchEvent, type ReelayEvent } from "../events/types.ts";
import type { JobStore } from "../jobs/store.ts";
import type { SigningTarget } from "./deliver.ts";
import { type ManagedSubscriber, type SubscriberStore, signingSecrets } from "./managed.ts";
import type { WebhookSubscriber } from "./subscribers.ts";

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

export interface Subscribers {
  config: readonly WebhookSubscriber[];
  managed?: Pick<SubscriberStore, "list" | "get">;
  /** The key whose job an event is about; undefined when none is known (a batch's event). */
  ownerOf?: (event: ReelayEvent) => Promise<string | undefined>;
}

/** A job event's owner from its job record (source.apiKeyId). */
export function ownerFromJobs(jobs: Pick<JobStore, "get">) {
  return async (event: ReelayEvent): Promise<string | undefined> =>
    isBatchEvent(event) ? undefined : (await jobs.get(event.detail.jobId))?.source.apiKeyId;
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
  const owned = wanted.filter((s) => s.ownerKeyId === ADMIN_OWNER || s.ownerKeyId === owner);
  return [...fixed, ...owned.map(managedTarget)];
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
  const managed = await subscribers.managed?.get(subscriber);
  if (managed === undefined) return undefined;
  return { url: managed.url, secrets: signingSecrets(managed, now) };
}
