/**
 * Webhook deliveries in the jobs table: one item per (event, subscriber), kept until it is
 * delivered or dead, with every attempt it took. The sweep finds what is due through the listing
 * index, so no timer or process has to remember anything:
 *
 *   delivery        pk "dlv_<id>"   gsi1pk "WEBHOOK#pending"            gsi1sk "<nextAttemptAt>#<id>"
 *                                   gsi1pk "WEBHOOK#delivered" | "#dead" gsi1sk "<updatedAt>#<id>"
 *
 * A sweep claims a due delivery with a conditional write that moves its next attempt a lease
 * into the future and stamps a token; the attempt is recorded only under that token. Two sweeps
 * (a Lambda retried, the event handler beside the scheduled sweep) cannot both send one attempt,
 * and a sweep that dies mid-attempt leaves a delivery that is simply due again when the lease ends:
 * at least once, never lost. No item holds a subscriber's secret.
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
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from "@aws-sdk/lib-dynamodb";
import { ReelayError } from "../../domain/errors.ts";
import { JOBS_LIST_INDEX } from "./table-schema.ts";
import { noMetrics } from "../../usecases/metrics/record-metrics.ts";
import type { Metrics } from "../../usecases/ports.ts";
import { isConditionFailure } from "./conditions.ts";
import { partitionItems } from "./partition.ts";
/** Partitions of the listing index that hold deliveries, one per status (the stack grants them). */
export const DELIVERY_PARTITION_PREFIX = "WEBHOOK#";

function keysOf(delivery: Pick<Delivery, "id" | "status" | "nextAttemptAt" | "updatedAt">) {
  const at =
    delivery.status === "pending" ? (delivery.nextAttemptAt as string) : delivery.updatedAt;
  return {
    pk: delivery.id,
    gsi1pk: `${DELIVERY_PARTITION_PREFIX}${delivery.status}`,
    gsi1sk: `${at}#${delivery.id}`,
  };
}

function toDelivery(item: Record<string, unknown>): Delivery {
  const { pk: _pk, gsi1pk: _p, gsi1sk: _s, lease: _l, type: _t, ...delivery } = item;
  return delivery as unknown as Delivery;
}

export class DeliveryStore implements DeliveryStorePort {
  readonly #db: DynamoDBDocumentClient;
  readonly #table: string;
  readonly #metrics: Metrics;

  /** `metrics` counts each attempt recorded here (the sender's store; the API's records none). */
  constructor(db: DynamoDBDocumentClient, tableName: string, options: { metrics?: Metrics } = {}) {
    this.#db = db;
    this.#table = tableName;
    this.#metrics = options.metrics ?? noMetrics;
  }

  /** Writes a new delivery; false when one with its id exists (an event enqueued twice). */
  async add(delivery: Delivery): Promise<boolean> {
    try {
      await this.#db.send(
        new PutCommand({
          TableName: this.#table,
          Item: { ...delivery, ...keysOf(delivery), type: "webhook-delivery" },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async get(id: string): Promise<Delivery | undefined> {
    const answer = await this.#db.send(new GetCommand({ TableName: this.#table, Key: { pk: id } }));
    const item = answer.Item;
    return item === undefined || item.type !== "webhook-delivery" ? undefined : toDelivery(item);
  }

  /** Pending deliveries whose next attempt is at or before `now`, soonest first. */
  async due(now: Date, limit: number): Promise<Delivery[]> {
    const answer = await this.#db.send(
      new QueryCommand({
        TableName: this.#table,
        IndexName: JOBS_LIST_INDEX,
        KeyConditionExpression: "gsi1pk = :p AND gsi1sk <= :t",
        ExpressionAttributeValues: {
          ":p": `${DELIVERY_PARTITION_PREFIX}pending`,
          // "~" sorts after every id character: every entry of that instant is included.
          ":t": `${now.toISOString()}#~`,
        },
        Limit: limit,
      }),
    );
    return (answer.Items ?? []).map(toDelivery);
  }

  /**
   * Takes a due delivery for one attempt: its next attempt moves to `leaseUntil`, so no other sweep
   * takes it meanwhile. Undefined when another sweep or a retry changed it first.
   */
  async claim(delivery: Delivery, leaseUntil: Date): Promise<ClaimedDelivery | undefined> {
    const lease = randomUUID();
    const claimed = { ...delivery, nextAttemptAt: leaseUntil.toISOString() };
    try {
      await this.#db.send(
        new UpdateCommand({
          TableName: this.#table,
          Key: { pk: delivery.id },
          UpdateExpression: "SET nextAttemptAt = :next, gsi1sk = :sk, lease = :lease",
          ConditionExpression: "#status = :pending AND nextAttemptAt = :seen",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: {
            ":next": claimed.nextAttemptAt,
            ":sk": keysOf(claimed).gsi1sk,
            ":lease": lease,
            ":pending": "pending",
            ":seen": delivery.nextAttemptAt ?? "",
          },
        }),
      );
      return { ...claimed, lease };
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
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
    const keys = keysOf(moved);
    try {
      await this.#db.send(
        new UpdateCommand({
          TableName: this.#table,
          Key: { pk: claimed.id },
          UpdateExpression: `SET attempts = list_append(attempts, :attempt), #status = :status, updatedAt = :at, gsi1pk = :p, gsi1sk = :sk${
            next.nextAttemptAt === undefined
              ? " REMOVE nextAttemptAt, lease"
              : ", nextAttemptAt = :next REMOVE lease"
          }`,
          ConditionExpression: "lease = :lease",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: {
            ":attempt": [attempt],
            ":status": next.status,
            ":at": updatedAt,
            ":p": keys.gsi1pk,
            ":sk": keys.gsi1sk,
            ":lease": claimed.lease,
            ...(next.nextAttemptAt === undefined ? {} : { ":next": next.nextAttemptAt }),
          },
        }),
      );
      // Counted once the attempt is on record: under the lease, so once whoever sent it.
      this.#countAttempt(claimed, next.status);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
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
    const keys = keysOf(retried);
    try {
      await this.#db.send(
        new UpdateCommand({
          TableName: this.#table,
          Key: { pk: id },
          UpdateExpression:
            "SET #status = :pending, nextAttemptAt = :at, updatedAt = :at, maxAttempts = :max, gsi1pk = :p, gsi1sk = :sk REMOVE lease",
          ConditionExpression: "updatedAt = :seen",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: {
            ":pending": "pending",
            ":at": at,
            ":max": retried.maxAttempts,
            ":p": keys.gsi1pk,
            ":sk": keys.gsi1sk,
            ":seen": current.updatedAt,
          },
        }),
      );
      return retried;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      throw new ReelayError("delivery_conflict", `Delivery ${id} changed meanwhile; try again.`, {
        status: 409,
      });
    }
  }

  /**
   * Deletes up to `limit` delivered or dead deliveries that ended before `before`; answers how many.
   * Their index entries sort by the time they ended, so the oldest are found first.
   */
  async purge(before: Date, limit: number): Promise<number> {
    let purged = 0;
    for (const status of ["delivered", "dead"] as const) {
      const answer = await this.#db.send(
        new QueryCommand({
          TableName: this.#table,
          IndexName: JOBS_LIST_INDEX,
          KeyConditionExpression: "gsi1pk = :p AND gsi1sk < :t",
          ExpressionAttributeValues: {
            ":p": `${DELIVERY_PARTITION_PREFIX}${status}`,
            ":t": before.toISOString(),
          },
          Limit: limit - purged,
        }),
      );
      for (const item of answer.Items ?? []) {
        await this.#db.send(new DeleteCommand({ TableName: this.#table, Key: { pk: item.pk } }));
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
    const query = {
      partition: `${DELIVERY_PARTITION_PREFIX}${status}`,
      descending: true,
      ...eventFilter(filters),
    };
    for await (const item of partitionItems(this.#db, this.#table, query)) {
      found.push(toDelivery(item));
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
