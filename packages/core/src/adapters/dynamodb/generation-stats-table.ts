/**
 * Observed generation times per model and duration, as items of the jobs table (no other resource):
 * one item per generation group (domain/polling/generation-key.ts; its key in item-keys.ts), with a
 * sample counter `n` and one counter per histogram bucket (`b<index>`, domain/polling/history.ts).
 * A sample is one UpdateItem of ADDs, atomic on its own, so any number of finishing jobs may
 * record at once and every sample counts. The items carry no gsi1pk, so the job listing never sees
 * them.
 */
import type { GenerationStatsStorePort } from "../../usecases/ports.ts";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { bucketOf, type GenerationHistory } from "../../domain/polling/history.ts";
import { generationStatsItemKey } from "./item-keys.ts";
import { Table } from "./table-ops.ts";

const BUCKET_ATTRIBUTE = /^b(\d+)$/;

export class GenerationStatsStore implements GenerationStatsStorePort {
  readonly #table: Table;
  readonly #now: () => Date;

  constructor(db: DynamoDBDocumentClient, tableName: string, options: { now?: () => Date } = {}) {
    this.#table = new Table(db, tableName);
    this.#now = options.now ?? (() => new Date());
  }

  /** What has been recorded for the group `key`; undefined before the first sample. */
  async history(key: string): Promise<GenerationHistory | undefined> {
    const item = await this.#table.get(generationStatsItemKey(key));
    if (item === undefined) return undefined;
    const buckets: Record<number, number> = {};
    for (const [name, value] of Object.entries(item)) {
      const match = BUCKET_ATTRIBUTE.exec(name);
      if (match !== null && typeof value === "number") buckets[Number(match[1])] = value;
    }
    return { samples: typeof item.n === "number" ? item.n : 0, buckets };
  }

  /** Adds one generation time (ms) to the group `key`. */
  async record(key: string, ms: number): Promise<void> {
    await this.#table.update(generationStatsItemKey(key), {
      update: "ADD #n :one, #b :one SET #u = :now",
      names: { "#n": "n", "#b": `b${bucketOf(ms)}`, "#u": "updatedAt" },
      values: { ":one": 1, ":now": this.#now().toISOString() },
    });
  }
}

/** How long a history read in this process answers later reads (other processes' samples show up within it). */
const GENERATION_STATS_CACHE_MS = 5_000;

interface CachedHistory {
  history: GenerationHistory | undefined;
  readAt: number;
}

/**
 * The stats as one process sees them, without a read per step: Submit and Poll each wanted the
 * model's history, two reads of the same item per job. A read answers for `ttlMs`; a sample this
 * process records is added to what it holds once the write is done, so its own samples count at
 * once (the predicted wait after the 20th finish). A read that overlapped a write of its key is
 * handed to its caller but not kept: it may or may not hold that sample, and keeping it could
 * count the sample twice or not at all. A write that fails may still have landed: the sample is
 * then missing here until the next read. Samples from other processes show up within `ttlMs`.
 */
export class CachedGenerationStats implements Pick<GenerationStatsStore, "history" | "record"> {
  readonly #store: Pick<GenerationStatsStore, "history" | "record">;
  readonly #ttlMs: number;
  readonly #clock: () => number;
  readonly #cache = new Map<string, CachedHistory>();
  /** Bumped when a write of the key starts and when it ends: a read spanning either is not kept. */
  readonly #versions = new Map<string, number>();
  /** Writes of the key not yet answered: a read answered meanwhile may or may not hold their samples. */
  readonly #writing = new Map<string, number>();
  readonly #reading = new Map<
    string,
    { version: number; read: Promise<GenerationHistory | undefined> }
  >();

  constructor(
    store: Pick<GenerationStatsStore, "history" | "record">,
    options: { ttlMs?: number; clock?: () => number } = {},
  ) {
    this.#store = store;
    this.#ttlMs = options.ttlMs ?? GENERATION_STATS_CACHE_MS;
    this.#clock = options.clock ?? Date.now;
  }

  #bump(key: string): number {
    const version = (this.#versions.get(key) ?? 0) + 1;
    this.#versions.set(key, version);
    return version;
  }

  async history(key: string): Promise<GenerationHistory | undefined> {
    const cached = this.#cache.get(key);
    if (cached !== undefined && this.#clock() - cached.readAt < this.#ttlMs)
      return copyOf(cached.history);
    const version = this.#versions.get(key) ?? 0;
    let reading = this.#reading.get(key);
    if (reading === undefined || reading.version !== version) {
      const readAt = this.#clock();
      const read = this.#store.history(key);
      reading = { version, read };
      this.#reading.set(key, reading);
      const mine = reading;
      void read.then(
        (history) => {
          if (this.#reading.get(key) === mine) this.#reading.delete(key);
          if ((this.#versions.get(key) ?? 0) === version && !this.#writing.has(key))
            this.#cache.set(key, { history, readAt });
        },
        () => {
          if (this.#reading.get(key) === mine) this.#reading.delete(key);
        },
      );
    }
    return copyOf(await reading.read);
  }

  async record(key: string, ms: number): Promise<void> {
    this.#bump(key);
    this.#writing.set(key, (this.#writing.get(key) ?? 0) + 1);
    try {
      await this.#store.record(key, ms);
    } finally {
      const left = (this.#writing.get(key) ?? 1) - 1;
      if (left === 0) this.#writing.delete(key);
      else this.#writing.set(key, left);
      this.#bump(key);
    }
    // What is held predates this write (reads overlapping it are not kept): add the sample to it.
    const cached = this.#cache.get(key);
    if (cached === undefined) return;
    const bucket = bucketOf(ms);
    const history = cached.history ?? { samples: 0, buckets: {} };
    this.#cache.set(key, {
      readAt: cached.readAt,
      history: {
        samples: history.samples + 1,
        buckets: { ...history.buckets, [bucket]: (history.buckets[bucket] ?? 0) + 1 },
      },
    });
  }
}

function copyOf(history: GenerationHistory | undefined): GenerationHistory | undefined {
  return history === undefined
    ? undefined
    : { samples: history.samples, buckets: { ...history.buckets } };
}
