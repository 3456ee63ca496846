/**
 * API keys in the jobs table, stored hashed: an item's key is built from the key's sha256
 * (item-keys.ts), so the key itself is never written anywhere and a bearer token is checked with
 * one GetItem. Keys share the listing index under their own partition, which the job listing never
 * reads.
 */
import { idPattern } from "../../domain/ids.ts";
import { createHash, randomBytes } from "node:crypto";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ulid } from "ulid";
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all of it).
import * as z from "zod";
import { ReelayError, shownInput } from "../../domain/errors.ts";
import type { Budget } from "../../domain/money/budget-schema.ts";
import { DEFAULT_SCOPES, LEGACY_SCOPES } from "../../domain/keys/scopes.ts";
import type { KeyLimits } from "../../domain/keys/key-limits.ts";
import type { UserLimits } from "../../domain/keys/end-users.ts";
import {
  isExpired,
  keyExpired,
  LAST_USED_EVERY_MS,
  lastUsedIsStale,
} from "../../domain/keys/lifecycle.ts";
import type { ApiKeyRecord, CreatedApiKey, NewApiKey } from "../../domain/keys/api-key.ts";
import type { ApiKeyStorePort } from "../../usecases/ports.ts";
import { apiKeyKey, apiKeyKeys, KEYS_LIST_PARTITION } from "./item-keys.ts";
import { storedItem } from "./stored-items.ts";
import { Table } from "./table-ops.ts";
import {
  liveSecrets,
  newWebhookSecret,
  rotatedSecrets,
  type StoredSecret,
} from "../../domain/webhooks/managed-subscriber.ts";

const KEY_PREFIX = "rk_";
const KEY_ID = idPattern(["key"]);
/** Admission reads a key's budget for each queued job; the listing it reads is kept this long. */
const LISTING_TTL_MS = 10_000;

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A key's item; a key stored before scopes, projects or limits has none of them. */
const readApiKey = storedItem<
  Partial<ApiKeyRecord> & Pick<ApiKeyRecord, "id" | "name" | "hint" | "createdAt">
>("API key", { id: z.string(), name: z.string(), hint: z.string(), createdAt: z.string() });

function toRecord(item: Record<string, unknown>): ApiKeyRecord {
  const {
    id,
    name,
    hint,
    createdAt,
    revokedAt,
    budget,
    scopes,
    project,
    limits,
    user_limits,
    expires_at,
    last_used_at,
    on_sunset,
  } = readApiKey(item);
  return {
    id,
    name,
    hint,
    createdAt,
    scopes: scopes === undefined ? [...LEGACY_SCOPES] : [...scopes],
    project: project ?? id,
    ...(revokedAt === undefined ? {} : { revokedAt }),
    ...(budget === undefined ? {} : { budget }),
    ...(limits === undefined ? {} : { limits }),
    ...(user_limits === undefined ? {} : { user_limits }),
    ...(expires_at === undefined ? {} : { expires_at }),
    ...(last_used_at === undefined ? {} : { last_used_at }),
    ...(on_sunset === undefined ? {} : { on_sunset }),
  };
}

function keyNotFound(id: string): ReelayError {
  return new ReelayError("key_not_found", `No API key with id ${shownInput(id)}.`, {
    status: 404,
    ...(KEY_ID.test(id) ? { details: { keyId: id } } : {}),
  });
}

export class ApiKeyStore implements ApiKeyStorePort {
  readonly #table: Table;
  readonly #now: () => Date;
  #listing: { at: number; records: Promise<ApiKeyRecord[]> } | undefined;

  constructor(db: DynamoDBDocumentClient, tableName: string, options: { now?: () => Date } = {}) {
    this.#table = new Table(db, tableName);
    this.#now = options.now ?? (() => new Date());
  }

  async create({
    name,
    budget,
    scopes = DEFAULT_SCOPES,
    project,
    limits,
    userLimits,
    expiresAt,
    onSunset,
  }: NewApiKey): Promise<CreatedApiKey> {
    const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
    const webhookSecret = newWebhookSecret();
    const id = `key_${ulid()}`;
    const record: ApiKeyRecord = {
      id,
      name,
      hint: key.slice(0, KEY_PREFIX.length + 4),
      createdAt: this.#now().toISOString(),
      ...(budget === undefined ? {} : { budget }),
      scopes: [...scopes],
      project: project ?? id,
      ...(limits === undefined ? {} : { limits }),
      ...(userLimits === undefined ? {} : { user_limits: userLimits }),
      ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
      ...(onSunset === undefined ? {} : { on_sunset: onSunset }),
    };
    await this.#table.put(
      {
        ...apiKeyKeys(hashApiKey(key), record),
        ...record,
        webhookSecrets: [{ secret: webhookSecret }] satisfies StoredSecret[],
      },
      "attribute_not_exists(pk)",
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
    await this.#table.update(item.pk as string, {
      update: "SET webhookSecrets = :s",
      condition: "attribute_exists(pk)",
      values: { ":s": secrets },
    });
    return secret;
  }

  /** The secrets that sign the key's jobs' webhooks now; empty for an unknown key or one without. */
  async webhookSecretsOf(id: string): Promise<string[]> {
    const item = await this.#itemOf(id).catch(() => undefined);
    const stored = (item?.webhookSecrets as StoredSecret[] | undefined) ?? [];
    return liveSecrets(stored, this.#now());
  }

  /**
   * The live key's record, or undefined for an unknown or revoked key; an expired key is 401
   * key_expired. Read consistently on every call, so a revocation holds from the next call on.
   */
  async verify(key: string): Promise<ApiKeyRecord | undefined> {
    const pk = apiKeyKey(hashApiKey(key));
    const item = await this.#table.get(pk, { consistent: true });
    if (item === undefined || item.revokedAt !== undefined) return undefined;
    const record = toRecord(item);
    const now = this.#now();
    if (isExpired(record, now)) throw keyExpired(record);
    if (lastUsedIsStale(record.last_used_at, now)) await this.#markUsed(pk, now);
    return record;
  }

  /**
   * At most one write a minute per key, however many instances serve it: the condition lets the
   * first call of each minute through and refuses the rest, which then change nothing.
   */
  async #markUsed(pk: string, now: Date): Promise<void> {
    const at = now.toISOString();
    const cutoff = new Date(now.getTime() - LAST_USED_EVERY_MS).toISOString();
    await this.#table.conditionalUpdate(pk, {
      update: "SET last_used_at = :at",
      condition:
        "attribute_exists(pk) AND attribute_not_exists(revokedAt) AND (attribute_not_exists(last_used_at) OR last_used_at <= :cutoff)",
      values: { ":at": at, ":cutoff": cutoff },
    });
  }

  /** Every key, revoked ones included, newest first (a handful per deployment, so no pages). */
  async list(): Promise<ApiKeyRecord[]> {
    return (await this.#items()).map(toRecord);
  }

  async #items(): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    const query = { partition: KEYS_LIST_PARTITION, descending: true };
    for await (const item of this.#table.queryAll(query)) items.push(item);
    return items;
  }

  /** A key's budget by its id, from a listing at most LISTING_TTL_MS old (a revoked key's too). */
  async budgetOf(id: string): Promise<Budget | undefined> {
    return (await this.#recordOf(id))?.budget;
  }

  /** A key's own limits by its id, from the same listing as budgetOf. */
  async limitsOf(id: string): Promise<KeyLimits | undefined> {
    return (await this.#recordOf(id))?.limits;
  }

  /** A key's user_limits by its id, from the same listing as budgetOf. */
  async userLimitsOf(id: string): Promise<UserLimits | undefined> {
    return (await this.#recordOf(id))?.user_limits;
  }

  /**
   * The key's record from the listing; a key missing from a listing read earlier was made since
   * (by this instance or another), so the listing is read again once rather than treating a new
   * key as one without a budget or limits for up to LISTING_TTL_MS.
   */
  async #recordOf(id: string): Promise<ApiKeyRecord | undefined> {
    const at = this.#now().getTime();
    const fresh = this.#listing === undefined || at - this.#listing.at > LISTING_TTL_MS;
    const found = (await this.#listingAt(at, fresh)).find((record) => record.id === id);
    // Not a stored key's id (the deployment's own key, a drop): nothing to read again for it.
    if (found !== undefined || fresh || !KEY_ID.test(id)) return found;
    return (await this.#listingAt(at, true)).find((record) => record.id === id);
  }

  #listingAt(at: number, reread: boolean): Promise<ApiKeyRecord[]> {
    if (reread || this.#listing === undefined) {
      const listing = { at, records: this.list() };
      this.#listing = listing;
      listing.records.catch(() => {
        if (this.#listing === listing) this.#listing = undefined;
      });
    }
    return this.#listing.records;
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
    return this.#setOrRemove(id, "budget", budget);
  }

  /** The key's own limits; undefined removes them, so REELAY_KEY_LIMITS's hold for it. */
  async setLimits(id: string, limits: KeyLimits | undefined): Promise<ApiKeyRecord> {
    return this.#setOrRemove(id, "limits", limits);
  }

  async #setOrRemove(
    id: string,
    field: "budget" | "limits",
    value: object | undefined,
  ): Promise<ApiKeyRecord> {
    const item = await this.#itemOf(id);
    const updated = await this.#table.updateReturning(item.pk as string, {
      condition: "attribute_exists(pk)",
      ...(value === undefined
        ? { update: `REMOVE ${field}` }
        : { update: `SET ${field} = :v`, values: { ":v": value } }),
    });
    this.#listing = undefined;
    return toRecord(updated);
  }

  /** Marks the key revoked (kept for the audit trail); revoking twice keeps the first time. */
  async revoke(id: string): Promise<ApiKeyRecord> {
    const item = await this.#itemOf(id);
    if (item.revokedAt !== undefined) return toRecord(item);
    const updated = await this.#table.updateReturning(item.pk as string, {
      update: "SET revokedAt = if_not_exists(revokedAt, :t)",
      values: { ":t": this.#now().toISOString() },
    });
    return toRecord(updated);
  }
}
