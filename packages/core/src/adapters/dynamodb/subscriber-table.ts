/**
 * Managed webhook subscribers, made through the API (POST /v1/webhooks) beside the deployment's own
 * REELAY_WEBHOOKS: items in the jobs table under the listing index's "WEBHOOK_SUBSCRIBER" partition.
 *
 *   subscriber   pk "whsub_<ulid>"   gsi1pk "WEBHOOK_SUBSCRIBER"   gsi1sk "<createdAt>#<id>"
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
  subscriberRecord,
  rotatedSecrets,
} from "../../domain/webhooks/managed-subscriber.ts";
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from "@aws-sdk/lib-dynamodb";
import { ulid } from "ulid";
import { ReelayError } from "../../domain/errors.ts";
import { partitionItems } from "./partition.ts";

export const SUBSCRIBER_ID_PREFIX = "whsub";
export const SUBSCRIBERS_PARTITION = "WEBHOOK_SUBSCRIBER";

function subscriberNotFound(id: string): ReelayError {
  return new ReelayError("webhook_subscriber_not_found", `No webhook subscriber ${id}.`, {
    status: 404,
    path: "id",
  });
}

function toSubscriber(item: Record<string, unknown>): ManagedSubscriber {
  const { pk: _pk, gsi1pk: _p, gsi1sk: _s, type: _t, ...subscriber } = item;
  return subscriber as unknown as ManagedSubscriber;
}

export class SubscriberStore implements SubscriberStorePort {
  readonly #db: DynamoDBDocumentClient;
  readonly #table: string;

  constructor(db: DynamoDBDocumentClient, tableName: string) {
    this.#db = db;
    this.#table = tableName;
  }

  async create(
    input: Pick<SubscriberRecord, "url" | "events" | "description" | "ownerKeyId">,
    now: Date,
  ): Promise<{ record: SubscriberRecord; secret: string }> {
    const secret = newWebhookSecret();
    const subscriber: ManagedSubscriber = {
      id: `${SUBSCRIBER_ID_PREFIX}_${ulid()}`,
      ...input,
      createdAt: now.toISOString(),
      secrets: [{ secret }],
    };
    await this.#db.send(
      new PutCommand({
        TableName: this.#table,
        Item: {
          ...subscriber,
          pk: subscriber.id,
          gsi1pk: SUBSCRIBERS_PARTITION,
          gsi1sk: `${subscriber.createdAt}#${subscriber.id}`,
          type: "webhook-subscriber",
        },
      }),
    );
    return { record: subscriberRecord(subscriber), secret };
  }

  async get(id: string): Promise<ManagedSubscriber | undefined> {
    if (!id.startsWith(`${SUBSCRIBER_ID_PREFIX}_`) || id.length > 40) return undefined;
    const answer = await this.#db.send(new GetCommand({ TableName: this.#table, Key: { pk: id } }));
    return answer.Item?.type === "webhook-subscriber" ? toSubscriber(answer.Item) : undefined;
  }

  /** Every subscriber, oldest first; `ownerKeyId` keeps one key's. */
  async list(ownerKeyId?: string): Promise<ManagedSubscriber[]> {
    const found: ManagedSubscriber[] = [];
    const query = { partition: SUBSCRIBERS_PARTITION };
    for await (const item of partitionItems(this.#db, this.#table, query)) {
      const subscriber = toSubscriber(item);
      if (ownerKeyId === undefined || subscriber.ownerKeyId === ownerKeyId) found.push(subscriber);
    }
    return found;
  }

  /** The subscriber of this owner, or webhook_subscriber_not_found (another key's is not shown either). */
  async owned(id: string, ownerKeyId: string): Promise<ManagedSubscriber> {
    const subscriber = await this.get(id);
    if (subscriber === undefined || subscriber.ownerKeyId !== ownerKeyId)
      throw subscriberNotFound(id.slice(0, 60));
    return subscriber;
  }

  async remove(id: string, ownerKeyId: string): Promise<SubscriberRecord> {
    const subscriber = await this.owned(id, ownerKeyId);
    await this.#db.send(new DeleteCommand({ TableName: this.#table, Key: { pk: id } }));
    return subscriberRecord(subscriber);
  }

  /** A new secret; the current one keeps signing for 24 h beside it, older ones stop. */
  async rotate(id: string, ownerKeyId: string, now: Date): Promise<string> {
    const subscriber = await this.owned(id, ownerKeyId);
    const { secret, secrets } = rotatedSecrets(subscriber.secrets, now);
    await this.#db.send(
      new UpdateCommand({
        TableName: this.#table,
        Key: { pk: id },
        UpdateExpression: "SET secrets = :secrets",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":secrets": secrets },
      }),
    );
    return secret;
  }
}
