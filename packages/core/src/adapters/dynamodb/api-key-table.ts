/**
 * API keys in the jobs table, stored hashed: an item's key is `apikey#<sha256 of the key>`, so the
 * key itself is never written anywhere and a bearer token is checked with one GetItem. Keys share
 * the listing index under their own partition ("APIKEY"), which the job listing never reads.
 */
import { idPattern } from "../../domain/ids.ts";
import { createHash, randomBytes } from "node:crypto";
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from "@aws-sdk/lib-dynamodb";
import { ulid } from "ulid";
import { ReelayError, shownInput } from "../../domain/errors.ts";
import { JOBS_LIST_INDEX } from "./table-schema.ts";
import type { Budget } from "../../domain/money/budget-schema.ts";
import {
  liveSecrets,
  newWebhookSecret,
  rotatedSecrets,
  type StoredSecret,
} from "../../domain/webhooks/managed-subscriber.ts";

export const KEYS_LIST_PARTITION = "APIKEY";
const KEY_PREFIX = "rk_";
const KEY_ID = idPattern(["key"]);
/** Admission reads a key's budget for each queued job; the listing it reads is kept this long. */
const LISTING_TTL_MS = 10_000;

export interface ApiKeyRecord {
  /** Public id, recorded on jobs as source.apiKeyId. */
  id: string;
  name: string;
  /** The first characters of the key, to tell keys apart in a listing. */
  hint: string;
  createdAt: string;
  revokedAt?: string;
  /** What the key may spend per period (adapters/dynamodb/budget-ledger.ts); absent = no limit. */
  budget?: Budget;
}

export interface CreatedApiKey {
  record: ApiKeyRecord;
  /** The only time the key is available in clear. */
  key: string;
  /** The `whsec_` secret that signs its jobs' own webhooks (webhook_url): shown this once. */
  webhookSecret: string;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function toRecord(item: Record<string, unknown>): ApiKeyRecord {
  const { id, name, hint, createdAt, revokedAt, budget } = item as unknown as ApiKeyRecord;
  return {
    id,
    name,
    hint,
    createdAt,
    ...(revokedAt === undefined ? {} : { revokedAt }),
    ...(budget === undefined ? {} : { budget }),
  };
}

function keyNotFound(id: string): ReelayError {
  return new ReelayError("key_not_found", `No API key with id ${shownInput(id)}.`, {
    status: 404,
    ...(KEY_ID.test(id) ? { details: { keyId: id } } : {}),
  });
}

export class ApiKeyStore {
  readonly #db: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #now: () => Date;
  #listing: { at: number; records: Promise<ApiKeyRecord[]> } | undefined;

  constructor(db: DynamoDBDocumentClient, tableName: string, options: { now?: () => Date } = {}) {
    this.#db = db;
    this.#tableName = tableName;
    this.#now = options.now ?? (() => new Date());
  }

  async create(name: string, budget?: Budget): Promise<CreatedApiKey> {
    const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
    const webhookSecret = newWebhookSecret();
    const record: ApiKeyRecord = {
      id: `key_${ulid()}`,
      name,
      hint: key.slice(0, KEY_PREFIX.length + 4),
      createdAt: this.#now().toISOString(),
      ...(budget === undefined ? {} : { budget }),
    };
    await this.#db.send(
      new PutCommand({
        TableName: this.#tableName,
        Item: {
          pk: `apikey#${hashApiKey(key)}`,
          gsi1pk: KEYS_LIST_PARTITION,
          gsi1sk: `${record.createdAt}#${record.id}`,
          ...record,
          webhookSecrets: [{ secret: webhookSecret }] satisfies StoredSecret[],
        },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return { record, key, webhookSecret };
  }

  /**
   * A new webhook secret for the key (answered this once); the current one keeps signing beside it
   * for 24 h, so receivers can switch at their own pace. A key made before keys had one gets its first.
   */
  async rotateWebhookSecret(id: string): Promise<string> {
    const item = await this.#itemOf(id);
    const current = (item.webhookSecrets as StoredSecret[] | undefined) ?? [];
    const { secret, secrets } = rotatedSecrets(current, this.#now());
    await this.#db.send(
      new UpdateCommand({
        TableName: this.#tableName,
        Key: { pk: item.pk as string },
        UpdateExpression: "SET webhookSecrets = :s",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":s": secrets },
      }),
    );
    return secret;
  }

  /** The secrets that sign the key's jobs' webhooks now; empty for an unknown key or one without. */
  async webhookSecretsOf(id: string): Promise<string[]> {
    const item = await this.#itemOf(id).catch(() => undefined);
    const stored = (item?.webhookSecrets as StoredSecret[] | undefined) ?? [];
    return liveSecrets(stored, this.#now());
  }

  /** The live key's record, or undefined for an unknown or revoked key. */
  async verify(key: string): Promise<ApiKeyRecord | undefined> {
    const answer = await this.#db.send(
      new GetCommand({
        TableName: this.#tableName,
        Key: { pk: `apikey#${hashApiKey(key)}` },
        ConsistentRead: true,
      }),
    );
    if (answer.Item === undefined || answer.Item.revokedAt !== undefined) return undefined;
    return toRecord(answer.Item);
  }

  /** Every key, revoked ones included, newest first (a handful per deployment, so no pages). */
  async list(): Promise<ApiKeyRecord[]> {
    return (await this.#items()).map(toRecord);
  }

  async #items(): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const answer = await this.#db.send(
        new QueryCommand({
          TableName: this.#tableName,
          IndexName: JOBS_LIST_INDEX,
          KeyConditionExpression: "gsi1pk = :p",
          ExpressionAttributeValues: { ":p": KEYS_LIST_PARTITION },
          ScanIndexForward: false,
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      items.push(...(answer.Items ?? []));
      start = answer.LastEvaluatedKey;
    } while (start !== undefined);
    return items;
  }

  /** A key's budget by its id, from a listing at most LISTING_TTL_MS old (a revoked key's too). */
  async budgetOf(id: string): Promise<Budget | undefined> {
    const at = this.#now().getTime();
    if (this.#listing === undefined || at - this.#listing.at > LISTING_TTL_MS) {
      this.#listing = { at, records: this.list() };
      this.#listing.records.catch(() => {
        this.#listing = undefined;
      });
    }
    return (await this.#listing.records).find((record) => record.id === id)?.budget;
  }

  async #itemOf(id: string): Promise<Record<string, unknown>> {
    if (!KEY_ID.test(id)) throw keyNotFound(id);
    const item = (await this.#items()).find((candidate) => candidate.id === id);
    if (item === undefined) throw keyNotFound(id);
    return item;
  }

  /**
   * Sets the key's budget (undefined removes it). What the current period has used stays: the
   * ledger is per key and period, so a raised budget lets the key go on at once.
   */
  async setBudget(id: string, budget: Budget | undefined): Promise<ApiKeyRecord> {
    const item = await this.#itemOf(id);
    const answer = await this.#db.send(
      new UpdateCommand({
        TableName: this.#tableName,
        Key: { pk: item.pk as string },
        ConditionExpression: "attribute_exists(pk)",
        ...(budget === undefined
          ? { UpdateExpression: "REMOVE budget" }
          : { UpdateExpression: "SET budget = :b", ExpressionAttributeValues: { ":b": budget } }),
        ReturnValues: "ALL_NEW",
      }),
    );
    this.#listing = undefined;
    return toRecord(answer.Attributes ?? item);
  }

  /** Marks the key revoked (kept for the audit trail); revoking twice keeps the first time. */
  async revoke(id: string): Promise<ApiKeyRecord> {
    const item = await this.#itemOf(id);
    if (item.revokedAt !== undefined) return toRecord(item);
    const answer = await this.#db.send(
      new UpdateCommand({
        TableName: this.#tableName,
        Key: { pk: item.pk as string },
        UpdateExpression: "SET revokedAt = if_not_exists(revokedAt, :t)",
        ExpressionAttributeValues: { ":t": this.#now().toISOString() },
        ReturnValues: "ALL_NEW",
      }),
    );
    return toRecord(answer.Attributes ?? item);
  }
}
