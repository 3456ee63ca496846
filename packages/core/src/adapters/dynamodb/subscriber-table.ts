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
import { randomBytes } from "node:crypto";
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from "@aws-sdk/lib-dynamodb";
import { ulid } from "ulid";
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { ReelayError } from "../../domain/errors.ts";
import { BATCH_COMPLETED, DETAIL_TYPES } from "../../domain/events/types.ts";
import { partitionItems } from "./partition.ts";

export const SUBSCRIBER_ID_PREFIX = "whsub";
export const SUBSCRIBERS_PARTITION = "WEBHOOK_SUBSCRIBER";
/** How long a rotated-out secret still signs. */
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export interface StoredSecret {
  secret: string;
  /** Rotated out: still signs until then. */
  expiresAt?: string;
}

/** A subscriber as shown: never its secrets. */
export interface SubscriberRecord {
  id: string;
  url: string;
  /** Detail-types it receives; absent = every event. */
  events?: string[];
  description: string;
  /** The key that made it (`local` for the deployment's own). */
  ownerKeyId: string;
  createdAt: string;
}

export interface ManagedSubscriber extends SubscriberRecord {
  secrets: StoredSecret[];
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

function subscriberNotFound(id: string): ReelayError {
  return new ReelayError("webhook_subscriber_not_found", `No webhook subscriber ${id}.`, {
    status: 404,
    path: "id",
  });
}

/** What a subscriber shows: everything but its secrets. */
export function subscriberRecord(subscriber: ManagedSubscriber): SubscriberRecord {
  const { secrets: _secrets, ...record } = subscriber;
  return record;
}

/** The secrets that sign now: the current one and any rotated out less than 24 h ago. */
export function liveSecrets(secrets: readonly StoredSecret[], now: Date): string[] {
  return secrets
    .filter((s) => s.expiresAt === undefined || Date.parse(s.expiresAt) > now.getTime())
    .map((s) => s.secret);
}

export function signingSecrets(subscriber: ManagedSubscriber, now: Date): string[] {
  return liveSecrets(subscriber.secrets, now);
}

/** A new current secret, the old current one kept signing for 24 h beside it, older ones dropped. */
export function rotatedSecrets(
  secrets: readonly StoredSecret[],
  now: Date,
): { secret: string; secrets: StoredSecret[] } {
  const secret = newWebhookSecret();
  const until = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const current = secrets.find((s) => s.expiresAt === undefined);
  return {
    secret,
    secrets: [
      { secret },
      ...(current === undefined ? [] : [{ secret: current.secret, expiresAt: until }]),
    ],
  };
}

function toSubscriber(item: Record<string, unknown>): ManagedSubscriber {
  const { pk: _pk, gsi1pk: _p, gsi1sk: _s, type: _t, ...subscriber } = item;
  return subscriber as unknown as ManagedSubscriber;
}

export class SubscriberStore {
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

/** The event types a subscriber may ask for. */
export const WEBHOOK_EVENT_TYPES = [...Object.values(DETAIL_TYPES), BATCH_COMPLETED];

/** POST /v1/webhooks: `{url, events?, description?}`; the URL is checked by url-guard.ts after. */
export const SubscriberInputSchema = z.object({
  url: z.string().min(1).max(2000),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).optional(),
  description: z.string().max(200).optional(),
});
