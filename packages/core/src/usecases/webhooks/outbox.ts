/**
 * Events into deliveries: one pending delivery per (event, subscriber), written before anything
 * is sent, so an event reelay has announced is never lost to a crash or a failed Lambda. The id is
 * made from the event and the subscriber, so enqueueing the same event again (a retried Lambda, a
 * restart re-announcing a job) adds nothing; a replay makes fresh ids for the same event.
 */
import type { DeliveryStorePort } from "../ports.ts";
import { ulid } from "ulid";
import type { ReelayEvent } from "../../domain/events/types.ts";
import { ulidShapeFrom } from "../../domain/jobs/ids.ts";
import type { EventSink } from "../ports.ts";
import { DELIVERY_ID_PREFIX, type Delivery } from "../../domain/webhooks/delivery.ts";
import { webhookMessage } from "../../domain/webhooks/payload.ts";
import { scheduledWaitMs } from "../../domain/webhooks/schedule.ts";
import { type DeliveryTarget, type Subscribers, targetsFor } from "./targets.ts";
import { currentTraceparent } from "../../domain/tracing.ts";

export interface OutboxDeps {
  store: DeliveryStorePort;
  schedule: readonly number[];
  now: () => Date;
  random?: () => number;
}

/** What a delivery sends: the event's id (the webhook-id), its type and the body. */
export interface OutboxEntry {
  eventId: string;
  eventType: string;
  body: string;
}

function newDelivery(
  deps: OutboxDeps,
  entry: OutboxEntry,
  target: DeliveryTarget,
  id: string,
): Delivery {
  const now = deps.now();
  const firstWait = scheduledWaitMs(deps.schedule, 1, deps.random) ?? 0;
  // The step that ended the job announces its event: the attempts join the job's trace there.
  const traceparent = currentTraceparent();
  return {
    id,
    eventId: entry.eventId,
    eventType: entry.eventType,
    subscriber: target.subscriber,
    url: target.url,
    body: entry.body,
    status: "pending",
    attempts: [],
    maxAttempts: deps.schedule.length,
    nextAttemptAt: new Date(now.getTime() + firstWait).toISOString(),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    ...(traceparent === undefined ? {} : { traceparent }),
  };
}

/** One delivery per subscriber for a new event; those already recorded are left as they are. */
export async function enqueueEvent(
  deps: OutboxDeps,
  event: ReelayEvent,
  targets: readonly DeliveryTarget[],
): Promise<number> {
  const entry = {
    eventId: event.id,
    eventType: event["detail-type"],
    body: webhookMessage(event).body,
  };
  const added = await Promise.all(
    targets.map((target) => {
      const id = `${DELIVERY_ID_PREFIX}_${ulidShapeFrom([event.id, target.subscriber])}`;
      return deps.store.add(newDelivery(deps, entry, target, id));
    }),
  );
  return added.filter(Boolean).length;
}

/** The event again, same id and body, as new deliveries to these subscribers. */
export async function replayEvent(
  deps: OutboxDeps,
  entry: OutboxEntry,
  targets: readonly DeliveryTarget[],
): Promise<Delivery[]> {
  const made = targets.map((target) =>
    newDelivery(deps, entry, target, `${DELIVERY_ID_PREFIX}_${ulid()}`),
  );
  await Promise.all(made.map((delivery) => deps.store.add(delivery)));
  return made;
}

/**
 * An event sink that records the deliveries of every event before handing it on (the local
 * stack's events.jsonl). A crash between the two leaves the job unannounced; announcing it again
 * finds its deliveries already recorded.
 */
export function deliveringSink(
  inner: EventSink,
  deps: OutboxDeps & { subscribers: Subscribers },
  onEnqueued: () => void = () => undefined,
): EventSink {
  return {
    emit: async (event) => {
      const targets = await targetsFor(deps.subscribers, event);
      if (targets.length > 0 && (await enqueueEvent(deps, event, targets)) > 0) onEnqueued();
      await inner.emit(event);
    },
  };
}
