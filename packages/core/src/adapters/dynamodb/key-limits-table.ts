/**
 * Limits per key on one item per lane (`limits#<lane>`, item-keys.ts), each change one conditional
 * single-item write, so every API instance and dispatcher shares the same numbers; a key's end user
 * is a lane of its own (`<key id>/user/<user>`, domain/keys/end-users.ts) held the same way:
 *
 *   tat        the call bucket (domain/keys/key-limits.ts: GCRA)   SET tat = :next  IF tat = :seen
 *   queued     the lane's jobs counted waiting                  ADD queued :n    IF queued <= max - n
 *   inflight   {jobId: takenAt} of the lane's jobs in flight    SET inflight.#j  IF size(inflight) < max
 *
 * `queued` goes up when a create or batch is let in (before anything is made) and down when a
 * counted queue entry leaves the queue (AdmissionStore.dequeue: admitted, cancelled, timed out) or
 * when a job counted for was not made after all. A place in flight is taken before the upstream
 * slot and given back when that slot cannot be had; once the job's slot is freed (wherever that
 * happens) its place is stale and is given back by the next acquire that finds the lane full.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { KeyLimitsPort } from "../../usecases/ports.ts";
import {
  type BucketTurn,
  type EffectiveLimits,
  effectiveLimits,
  type KeyLimitDefaults,
  type KeyLimits,
  NO_KEY_LIMITS,
  takeFromBucket,
} from "../../domain/keys/key-limits.ts";
import { keyLaneOf, type UserLimits, userEffectiveLimits } from "../../domain/keys/end-users.ts";
import { keyLimitsKey } from "./item-keys.ts";
import { Table } from "./table-ops.ts";

/**
 * A place in flight whose job holds no upstream slot is given back once it is this old: long past
 * the one write between a dispatcher taking the place and taking the slot.
 */
export const STALE_IN_FLIGHT_MS = 2_000;
/** Conditional writes lost to other writers before a call is let through unmetered rather than fail. */
const BUCKET_TRIES = 8;

/** Stored keys' lanes are their ids; `local` (the deployment's key) and `drop` are the deployment's. */
function isStoredKey(lane: string): boolean {
  return lane.startsWith("key_");
}

/** Counts `n` queued jobs of `lane` back (never below zero): on the table any store of it holds. */
export async function releaseQueuedOn(table: Table, lane: string, n: number): Promise<void> {
  if (n <= 0) return;
  await table.conditionalUpdate(keyLimitsKey(lane), {
    update: "ADD queued :minus",
    condition: "queued >= :n",
    values: { ":minus": -n, ":n": n },
  });
}

export interface KeyLimitsStoreOptions {
  /** REELAY_KEY_LIMITS. */
  defaults?: KeyLimitDefaults;
  /** A stored key's own limits by its id (ApiKeyStore.limitsOf); absent = only the defaults. */
  ownOf?: (keyId: string) => Promise<KeyLimits | undefined>;
  /** A stored key's user_limits by its id (ApiKeyStore.userLimitsOf); absent = none. */
  userLimitsOf?: (keyId: string) => Promise<UserLimits | undefined>;
}

export class KeyLimitsStore implements KeyLimitsPort {
  readonly #table: Table;
  readonly #defaults: KeyLimitDefaults;
  readonly #ownOf: (keyId: string) => Promise<KeyLimits | undefined>;
  readonly #userLimitsOf: (keyId: string) => Promise<UserLimits | undefined>;
  /** The last `tat` this process wrote or read per lane: the first write's guess, so most calls are one write. */
  readonly #seen = new Map<string, number>();
  /** Lanes whose item has its `inflight` map (nothing removes it), so places can be addressed. */
  readonly #ensured = new Set<string>();

  constructor(db: DynamoDBDocumentClient, tableName: string, options: KeyLimitsStoreOptions = {}) {
    this.#table = new Table(db, tableName);
    this.#defaults = options.defaults ?? NO_KEY_LIMITS;
    this.#ownOf = options.ownOf ?? (async () => undefined);
    this.#userLimitsOf = options.userLimitsOf ?? (async () => undefined);
  }

  async limitsOf(lane: string, own?: KeyLimits): Promise<EffectiveLimits> {
    const keyLane = keyLaneOf(lane);
    if (keyLane !== undefined)
      return isStoredKey(keyLane) ? userEffectiveLimits(await this.#userLimitsOf(keyLane)) : {};
    if (!isStoredKey(lane)) return effectiveLimits(undefined, this.#defaults.deployment);
    return effectiveLimits(own ?? (await this.#ownOf(lane)), this.#defaults.keys);
  }

  async take(
    lane: string,
    limits: { rate: number; burst: number },
    now: number,
  ): Promise<BucketTurn> {
    const pk = keyLimitsKey(lane);
    let seen = this.#seen.get(lane);
    let turn = takeFromBucket(seen ?? 0, now, limits);
    for (let tries = 0; tries < BUCKET_TRIES; tries++) {
      if (seen !== undefined) {
        // tat only ever moves later, so the stored bucket refuses whatever this copy refuses.
        if (!turn.allowed) return turn;
        if (
          await this.#table.conditionalUpdate(pk, {
            update: "SET tat = :next",
            condition: "tat = :seen",
            values: { ":next": turn.tat, ":seen": seen },
          })
        ) {
          this.#seen.set(lane, turn.tat);
          return turn;
        }
      }
      const item = await this.#table.get(pk, { consistent: true });
      const stored = item?.tat as number | undefined;
      if (stored === undefined) {
        turn = takeFromBucket(0, now, limits);
        if (
          await this.#table.conditionalUpdate(pk, {
            update: "SET tat = :next",
            condition: "attribute_not_exists(tat)",
            values: { ":next": turn.tat },
          })
        ) {
          this.#seen.set(lane, turn.tat);
          return turn;
        }
        continue;
      }
      seen = stored;
      this.#seen.set(lane, stored);
      turn = takeFromBucket(stored, now, limits);
      if (!turn.allowed) return turn;
    }
    // Every try lost to another writer: so many calls at once that the bucket is as good as empty.
    return {
      allowed: false,
      tat: seen ?? now,
      remaining: 0,
      resetS: Math.ceil(limits.burst / limits.rate),
      retryAfterS: 1,
    };
  }

  async claimQueued(lane: string, n: number, max: number): Promise<boolean> {
    if (n > max) return false;
    return this.#table.conditionalUpdate(keyLimitsKey(lane), {
      update: "ADD queued :n",
      condition: "attribute_not_exists(queued) OR queued <= :room",
      values: { ":n": n, ":room": max - n },
    });
  }

  releaseQueued(lane: string, n: number): Promise<void> {
    return releaseQueuedOn(this.#table, lane, n);
  }

  /** How many of the lane's jobs are counted waiting now. */
  async queued(lane: string): Promise<number> {
    const item = await this.#table.get(keyLimitsKey(lane), { consistent: true });
    return (item?.queued as number | undefined) ?? 0;
  }

  async acquireInFlight(
    lane: string,
    jobId: string,
    max: number,
    now: number,
    holding: (jobId: string) => boolean,
  ): Promise<{ taken: boolean; retryInMs?: number }> {
    const pk = keyLimitsKey(lane);
    if (!this.#ensured.has(lane)) {
      await this.#table.update(pk, {
        update: "SET inflight = if_not_exists(inflight, :empty)",
        values: { ":empty": {} },
      });
      this.#ensured.add(lane);
    }
    const take = () =>
      this.#table.conditionalUpdate(pk, {
        update: "SET inflight.#job = if_not_exists(inflight.#job, :at)",
        condition: "attribute_exists(inflight.#job) OR size(inflight) < :max",
        names: { "#job": jobId },
        values: { ":at": now, ":max": max },
      });
    if (await take()) return { taken: true };
    // Full: give back the places of jobs that no longer hold an upstream slot, then try once more.
    const item = await this.#table.get(pk, { consistent: true });
    const places = Object.entries((item?.inflight as Record<string, number> | undefined) ?? {});
    const freed = places.filter(([id]) => !holding(id));
    const stale = freed.filter(([, at]) => now - at > STALE_IN_FLIGHT_MS);
    for (const [id] of stale) await this.releaseInFlight(lane, id);
    if (stale.length > 0 && (await take())) return { taken: true };
    const young = freed.filter(([, at]) => now - at <= STALE_IN_FLIGHT_MS).map(([, at]) => at);
    return young.length === 0
      ? { taken: false }
      : { taken: false, retryInMs: Math.min(...young) + STALE_IN_FLIGHT_MS + 1 - now };
  }

  async releaseInFlight(lane: string, jobId: string): Promise<void> {
    await this.#table.conditionalUpdate(keyLimitsKey(lane), {
      update: "REMOVE inflight.#job",
      condition: "attribute_exists(inflight.#job)",
      names: { "#job": jobId },
    });
  }

  /** The lane's jobs holding a place in flight now, by id. */
  async inFlight(lane: string): Promise<string[]> {
    const item = await this.#table.get(keyLimitsKey(lane), { consistent: true });
    return Object.keys((item?.inflight as Record<string, number> | undefined) ?? {});
  }
}
