/**
 * Webhook deliveries in the jobs table: one item per (event, subscriber), kept until it is
 * delivered or dead, with every attempt it took. The sweep finds what is due through the listing
 * index (one partition per status, pending ones by their next attempt; item-keys.ts), so no timer
 * or process has to remember anything.
 *
 * A sweep claims a due delivery with a conditional write that moves its next attempt a lease into
 * the future and stamps a token; the attempt is recorded only under that token. Two sweeps (a
 * Lambda retried, the event handler beside the scheduled sweep) cannot both send one attempt, and a
 * sweep that dies mid-attempt leaves a delivery that is simply due again when the lease ends: at
 * least once, never lost. No item holds a subscriber's secret.
 */
import type { DeliveryStorePort } from "../../usecases/ports.ts";
import {
  type Delivery,
  type ClaimedDelivery,
  type DeliveryAttempt,
  type DeliveryStatus,
  deliveryNotFound,
  type DeliveryFilters,
  DELIVERY_STATUSES,
} from "../../domain/webhooks/delivery.ts";
import { randomUUID } from "node:crypto";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ReelayError } from "../../domain/errors.ts";
import { noMetrics } from "../../usecases/ports.ts";
import type { Metrics } from "../../usecases/ports.ts";
import { deliveryKeys, deliveryPartition, pastEvery } from "./item-keys.ts";
import { readDelivery } from "./stored-items.ts";
import { type IndexQuery, Table } from "./table-ops.ts";

/** Marks a delivery's item: `get` answers undefined for an item of another kind (ids come from URLs). */
const ITEM_TYPE = "webhook-delivery";

export class DeliveryStore implements DeliveryStorePort {
  readonly #table: Table;
  readonly #metrics: Metrics;

  /** `metrics` counts each attempt recorded here (the sender's store; the API's records none). */
  constructor(db: DynamoDBDocumentClient, tableName: string, options: { metrics?: Metrics } = {}) {
    this.#table = new Table(db, tableName);
    this.#metrics = options.metrics ?? noMetrics;
  }

  /** Writes a new delivery; false when one with its id exists (an event enqueued twice). */
  add(delivery: Delivery): Promise<boolean> {
    const item = { ...delivery, ...deliveryKeys(delivery), type: ITEM_TYPE };
    return this.#table.conditionalPut(item, "attribute_not_exists(pk)");
  }

  async get(id: string): Promise<Delivery | undefined> {
    const item = await this.#table.get(id);
    return item === undefined || item.type !== ITEM_TYPE ? undefined : readDelivery(item);
  }

  /** Pending deliveries whose next attempt is at or before `now`, soonest first. */
  async due(now: Date, limit: number): Promise<Delivery[]> {
    const { items } = await this.#table.queryPage({
      partition: deliveryPartition("pending"),
      // Every entry of that instant is included, whatever its id.
      range: { op: "<=", value: pastEvery(now.toISOString()) },
      pageSize: limit,
    });
    return items.map(readDelivery);
  }

  /**
   * Takes a due delivery for one attempt: its next attempt moves to `leaseUntil`, so no other sweep
   * takes it meanwhile. Undefined when another sweep or a retry changed it first.
   */
  async claim(delivery: Delivery, leaseUntil: Date): Promise<ClaimedDelivery | undefined> {
    const lease = randomUUID();
    const claimed = { ...delivery, nextAttemptAt: leaseUntil.toISOString() };
    const taken = await this.#table.conditionalUpdate(delivery.id, {
      update: "SET nextAttemptAt = :next, gsi1sk = :sk, lease = :lease",
      condition: "#status = :pending AND nextAttemptAt = :seen",
      names: { "#status": "status" },
      values: {
        ":next": claimed.nextAttemptAt,
        ":sk": deliveryKeys(claimed).gsi1sk,
        ":lease": lease,
        ":pending": "pending",
        ":seen": delivery.nextAttemptAt ?? "",
      },
    });
    return taken ? { ...claimed, lease } : undefined;
  }

  /**
   * Appends an attempt to a claimed delivery and moves it on: delivered, dead, or pending until
   * `nextAttemptAt`. False when the lease was lost (a retry reset it meanwhile).
   */
  async record(
    claimed: ClaimedDelivery,
    attempt: DeliveryAttempt,
    next: { status: DeliveryStatus; nextAttemptAt?: string },
  ): Promise<boolean> {
    const updatedAt = attempt.at;
    const moved = { id: claimed.id, updatedAt, ...next };
    const keys = deliveryKeys(moved);
    const recorded = await this.#table.conditionalUpdate(claimed.id, {
      update: `SET attempts = list_append(attempts, :attempt), #status = :status, updatedAt = :at, gsi1pk = :p, gsi1sk = :sk${
        next.nextAttemptAt === undefined
          ? " REMOVE nextAttemptAt, lease"
          : ", nextAttemptAt = :next REMOVE lease"
      }`,
      condition: "lease = :lease",
      names: { "#status": "status" },
      values: {
        ":attempt": [attempt],
        ":status": next.status,
        ":at": updatedAt,
        ":p": keys.gsi1pk,
        ":sk": keys.gsi1sk,
        ":lease": claimed.lease,
        ...(next.nextAttemptAt === undefined ? {} : { ":next": next.nextAttemptAt }),
      },
    });
    // Counted once the attempt is on record: under the lease, so once whoever sent it.
    if (recorded) this.#countAttempt(claimed, next.status);
    return recorded;
  }

  #countAttempt(claimed: ClaimedDelivery, status: DeliveryStatus): void {
    const outcome = status === "delivered" ? "delivered" : "failed";
    this.#metrics.count("reelay_webhook_deliveries_total", { outcome });
    if (claimed.attempts.length > 0) this.#metrics.count("reelay_webhook_retries_total", {});
    if (status === "dead") this.#metrics.count("reelay_webhook_dead_letters_total", {});
  }

  /**
   * Makes a delivery due now for one more attempt (a dead one gets exactly one; a pending one keeps
   * what its schedule had left). `delivery_not_found` for an unknown id.
   */
  async retry(id: string, now: Date): Promise<Delivery> {
    const current = await this.get(id);
    if (current === undefined) throw deliveryNotFound(id);
    const at = now.toISOString();
    const retried: Delivery = {
      ...current,
      status: "pending",
      nextAttemptAt: at,
      updatedAt: at,
      maxAttempts: Math.max(current.maxAttempts, current.attempts.length + 1),
    };
    const keys = deliveryKeys(retried);
    const moved = await this.#table.conditionalUpdate(id, {
      update:
        "SET #status = :pending, nextAttemptAt = :at, updatedAt = :at, maxAttempts = :max, gsi1pk = :p, gsi1sk = :sk REMOVE lease",
      condition: "updatedAt = :seen",
      names: { "#status": "status" },
      values: {
        ":pending": "pending",
        ":at": at,
        ":max": retried.maxAttempts,
        ":p": keys.gsi1pk,
        ":sk": keys.gsi1sk,
        ":seen": current.updatedAt,
      },
    });
    if (moved) return retried;
    throw new ReelayError("delivery_conflict", `Delivery ${id} changed meanwhile; try again.`, {
      status: 409,
    });
  }

  /**
   * Deletes up to `limit` delivered or dead deliveries that ended before `before`; answers how many.
   * Their index entries sort by the time they ended, so the oldest are found first.
   */
  async purge(before: Date, limit: number): Promise<number> {
    let purged = 0;
    for (const status of ["delivered", "dead"] as const) {
      const { items } = await this.#table.queryPage({
        partition: deliveryPartition(status),
        range: { op: "<", value: before.toISOString() },
        pageSize: limit - purged,
      });
      for (const item of items) {
        await this.#table.delete(item.pk as string);
        purged++;
      }
      if (purged >= limit) break;
    }
    return purged;
  }

  /** Newest first (by creation), across the statuses asked for. */
  async list(filters: DeliveryFilters = {}): Promise<Delivery[]> {
    const limit = filters.limit ?? 50;
    const statuses = filters.status === undefined ? DELIVERY_STATUSES : [filters.status];
    const pages = await Promise.all(statuses.map((status) => this.#partition(status, filters)));
    return pages
      .flat()
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
      .slice(0, limit);
  }

  async #partition(status: DeliveryStatus, filters: DeliveryFilters): Promise<Delivery[]> {
    const found: Delivery[] = [];
    const limit = filters.limit ?? 50;
    const query: IndexQuery = {
      partition: deliveryPartition(status),
      descending: true,
      ...eventFilter(filters),
    };
    for await (const item of this.#table.queryAll(query)) {
      found.push(readDelivery(item));
      if (found.length >= limit) break;
    }
    return found;
  }
}

/** The listing's filter on one event or one event type, when asked for. */
function eventFilter(filters: DeliveryFilters) {
  if (filters.eventId !== undefined)
    return { filter: { expression: "eventId = :e", values: { ":e": filters.eventId } } };
  if (filters.eventType !== undefined)
    return { filter: { expression: "eventType = :t", values: { ":t": filters.eventType } } };
  return {};
}
