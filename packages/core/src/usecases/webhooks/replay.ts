/**
 * Sending an event again: its original id (receivers deduplicate on it) and body, signed afresh at
 * each attempt, as new deliveries on the full schedule. The event is found in its earlier
 * deliveries, or rebuilt from the terminal job it names (`<jobId>.<status>`), so an event that had
 * no subscriber when it happened can still be sent to one added since.
 */
import type { DeliveryStorePort, JobStorePort } from "../ports.ts";
import { ReelayError } from "../../domain/errors.ts";
import { buildTerminalEvent } from "../../domain/events/types.ts";
import type { Delivery } from "../../domain/webhooks/delivery.ts";
import { type OutboxDeps, type OutboxEntry, replayEvent } from "./outbox.ts";
import type { DeliveryTarget } from "./targets.ts";
import { webhookMessage } from "../../domain/webhooks/payload.ts";

export interface ReplayDeps extends OutboxDeps {
  jobs: Pick<JobStorePort, "get">;
  /** Every subscriber now; without it (AWS' API), the event's earlier ones. */
  targets?: () => Promise<DeliveryTarget[]>;
}

export function eventNotFound(eventId: string): ReelayError {
  return new ReelayError("event_not_found", `No event ${eventId} was sent or can be rebuilt.`, {
    status: 404,
    path: "id",
  });
}

const EVENT_ID = /^(.+)\.(succeeded|failed|cancelled|completed)$/;

async function eventEntry(
  deps: ReplayDeps,
  eventId: string,
  earlier: readonly Delivery[],
): Promise<OutboxEntry> {
  const first = earlier[0];
  if (first !== undefined) return { eventId, eventType: first.eventType, body: first.body };
  const [, jobId, status] = EVENT_ID.exec(eventId) ?? [];
  const job = jobId === undefined ? undefined : await deps.jobs.get(jobId);
  if (job === undefined || job.status !== status) throw eventNotFound(eventId);
  const event = buildTerminalEvent(job);
  return { eventId, eventType: event["detail-type"], body: webhookMessage(event).body };
}

async function targetsOf(
  deps: ReplayDeps,
  earlier: readonly Delivery[],
): Promise<DeliveryTarget[]> {
  if (deps.targets !== undefined) return deps.targets();
  const seen = new Map(
    earlier.map((d) => [d.subscriber, { subscriber: d.subscriber, url: d.url }]),
  );
  return [...seen.values()];
}

/** New deliveries of event `eventId` to every subscriber, or to the one named `subscriber`. */
export async function replay(
  deps: ReplayDeps & { store: DeliveryStorePort },
  eventId: string,
  subscriber?: string,
): Promise<Delivery[]> {
  const earlier = await deps.store.list({ eventId, limit: 100 });
  const entry = await eventEntry(deps, eventId, earlier);
  const targets = (await targetsOf(deps, earlier)).filter(
    (target) => subscriber === undefined || target.subscriber === subscriber,
  );
  if (targets.length === 0) {
    throw new ReelayError(
      "no_webhook_subscribers",
      subscriber === undefined
        ? "No webhook subscriber is configured (REELAY_WEBHOOKS) to send the event to."
        : `No webhook subscriber ${subscriber}.`,
      { status: 409, ...(subscriber === undefined ? {} : { path: "subscriber" }) },
    );
  }
  return replayEvent(deps, entry, targets);
}
