/**
 * Sends what is due: every pending delivery whose next attempt has come, one attempt each, and
 * records it. A failed attempt is due again after the schedule's next wait, or dead when the
 * schedule is spent, the guard refused the URL, or the subscriber is no longer configured.
 */
import type { DeliveryStorePort } from "../ports.ts";
import { type AttemptIo, ATTEMPT_TIMEOUT_MS, attemptDelivery } from "./deliver.ts";
import type { Delivery, DeliveryAttempt, DeliveryStatus } from "../../domain/webhooks/delivery.ts";
import { scheduledWaitMs } from "../../domain/webhooks/schedule.ts";
import { signingFor, type Subscribers } from "./targets.ts";

/** Deliveries one sweep takes at most; a full page means another sweep follows at once. */
const SWEEP_PAGE = 25;
/** How long a claimed delivery is held: one attempt's limit and a margin for recording it. */
const LEASE_MS = ATTEMPT_TIMEOUT_MS + 20_000;

export interface DeliverySweepDeps extends AttemptIo {
  store: DeliveryStorePort;
  subscribers: Subscribers;
  schedule: readonly number[];
  random?: () => number;
}

export interface SweepResult {
  /** Attempts made (and recorded). */
  attempted: number;
  /** Whether more may be due right away (the page was full). */
  more: boolean;
}

function nextStep(
  deps: DeliverySweepDeps,
  delivery: Delivery,
  outcome: { delivered: boolean; final: boolean },
): { status: DeliveryStatus; nextAttemptAt?: string } {
  if (outcome.delivered) return { status: "delivered" };
  const made = delivery.attempts.length + 1;
  if (outcome.final || made >= delivery.maxAttempts) return { status: "dead" };
  // After a manual retry the schedule may be spent: its last wait is used again.
  const wait =
    scheduledWaitMs(deps.schedule, made + 1, deps.random) ??
    scheduledWaitMs(deps.schedule, deps.schedule.length, deps.random) ??
    0;
  return { status: "pending", nextAttemptAt: new Date(deps.now().getTime() + wait).toISOString() };
}

async function sendOne(deps: DeliverySweepDeps, delivery: Delivery): Promise<boolean> {
  const claimed = await deps.store.claim(delivery, new Date(deps.now().getTime() + LEASE_MS));
  if (claimed === undefined) return false;
  const subscriber = await signingFor(deps.subscribers, delivery.subscriber, deps.now());
  if (subscriber === undefined) {
    const attempt: DeliveryAttempt = {
      at: deps.now().toISOString(),
      latencyMs: 0,
      error: "the subscriber is no longer configured or was removed",
    };
    return deps.store.record(claimed, attempt, { status: "dead" });
  }
  const outcome = await attemptDelivery(
    subscriber,
    { id: delivery.eventId, body: delivery.body },
    { ...deps, trace: { parent: delivery.traceparent, subscriber: delivery.subscriber } },
  );
  return deps.store.record(claimed, outcome.attempt, nextStep(deps, delivery, outcome));
}

export async function sweepDeliveries(deps: DeliverySweepDeps): Promise<SweepResult> {
  const due = await deps.store.due(deps.now(), SWEEP_PAGE);
  const sent = await Promise.all(due.map((delivery) => sendOne(deps, delivery)));
  return { attempted: sent.filter(Boolean).length, more: due.length === SWEEP_PAGE };
}

/** How long a delivered or dead delivery stays in the log. */
const DELIVERY_RETENTION_DAYS = 30;

/** Deletes deliveries that ended more than 30 days ago, a page at a time; answers how many. */
export function purgeDeliveries(deps: Pick<DeliverySweepDeps, "store" | "now">): Promise<number> {
  const before = new Date(deps.now().getTime() - DELIVERY_RETENTION_DAYS * 24 * 3600 * 1000);
  return deps.store.purge(before, SWEEP_PAGE);
}
