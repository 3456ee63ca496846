/**
 * Managed webhook subscribers, made through the API (POST /v1/webhooks) beside the deployment's own
 * REELAY_WEBHOOKS: items in the jobs table, listed oldest first under their own partition of the
 * listing index (item-keys.ts).
 *
 * The item holds its signing secrets (a delivery is signed with them), which no answer but the one
 * that made or rotated them ever shows. A rotation keeps the old secret for 24 hours, and every
 * delivery meanwhile is signed with both (Standard Webhooks lists several signatures, space
 * separated), so a receiver can switch at its own pace. A subscriber belongs to the key that made
 * it: that key alone lists, removes and rotates it, and it receives that key's jobs' events only
 * (the deployment's own key's subscribers receive every event).
 */
import type { SubscriberStorePort } from "../../usecases/ports.ts";
import {
  type ManagedSubscriber,
  type SubscriberRecord,
  newWebhookSecret,
  subscriberProject,
  subscriberRecord,
  rotatedSecrets,
} from "../../domain/webhooks/managed-subscriber.ts";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ulid } from "ulid";
import { ReelayError } from "../../domain/errors.ts";
import {
  isSubscriberId,
  SUBSCRIBER_ID_PREFIX,
  SUBSCRIBERS_PARTITION,
  subscriberKeys,
} from "./item-keys.ts";
import { readSubscriber } from "./stored-items.ts";
import { Table } from "./table-ops.ts";

/** Marks a subscriber's item: `get` answers undefined for an item of another kind. */
const ITEM_TYPE = "webhook-subscriber";

function subscriberNotFound(id: string): ReelayError {
  return new ReelayError("webhook_subscriber_not_found", `No webhook subscriber ${id}.`, {
    status: 404,
    path: "id",
  });
}

export class SubscriberStore implements SubscriberStorePort {
  readonly #table: Table;

  constructor(db: DynamoDBDocumentClient, tableName: string) {
    this.#table = new Table(db, tableName);
  }

  async create(
    input: Pick<SubscriberRecord, "url" | "events" | "description" | "ownerKeyId" | "project">,
    now: Date,
  ): Promise<{ record: SubscriberRecord; secret: string }> {
    const secret = newWebhookSecret();
    const subscriber: ManagedSubscriber = {
      id: `${SUBSCRIBER_ID_PREFIX}_${ulid()}`,
      ...input,
      createdAt: now.toISOString(),
      secrets: [{ secret }],
    };
    await this.#table.put({ ...subscriber, ...subscriberKeys(subscriber), type: ITEM_TYPE });
    return { record: subscriberRecord(subscriber), secret };
  }

  async get(id: string): Promise<ManagedSubscriber | undefined> {
    if (!isSubscriberId(id)) return undefined;
    const item = await this.#table.get(id);
    return item?.type === ITEM_TYPE ? readSubscriber(item) : undefined;
  }

  /** Every subscriber, oldest first; `project` keeps one project's (subscriberProject). */
  async list(project?: string): Promise<ManagedSubscriber[]> {
    const found: ManagedSubscriber[] = [];
    for await (const item of this.#table.queryAll({ partition: SUBSCRIBERS_PARTITION })) {
      const subscriber = readSubscriber(item);
      if (project === undefined || subscriberProject(subscriber) === project)
        found.push(subscriber);
    }
    return found;
  }

  /** The project's subscriber, or webhook_subscriber_not_found (another project's is not shown either). */
  async owned(id: string, project: string): Promise<ManagedSubscriber> {
    const subscriber = await this.get(id);
    if (subscriber === undefined || subscriberProject(subscriber) !== project)
      throw subscriberNotFound(id.slice(0, 60));
    return subscriber;
  }

  async remove(id: string, project: string): Promise<SubscriberRecord> {
    const subscriber = await this.owned(id, project);
    await this.#table.delete(id);
    return subscriberRecord(subscriber);
  }

  /** A new secret; the current one keeps signing for 24 h beside it, older ones stop. */
  async rotate(id: string, project: string, now: Date): Promise<string> {
    const subscriber = await this.owned(id, project);
    const { secret, secrets } = rotatedSecrets(subscriber.secrets, now);
    await this.#table.update(id, {
      update: "SET secrets = :secrets",
      condition: "attribute_exists(pk)",
      values: { ":secrets": secrets },
    });
    return secret;
  }
}
