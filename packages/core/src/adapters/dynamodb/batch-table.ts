/**
 * Batches in the jobs table (item-keys.ts), each change one conditional single-item write: the
 * batch record (listed newest first), its lines (up to LINES_PER_ITEM an item: line -> job id, or
 * the errors), and the due set (the ids of batches whose jobs have all ended, for the dispatcher).
 */
import { projectOf } from "../../domain/keys/projects.ts";
import type { BatchStorePort } from "../../usecases/ports.ts";
import { idPattern } from "../../domain/ids.ts";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Batch, BatchLine } from "../../domain/batches/types.ts";
import { batchNotFound } from "../../domain/batches/not-found.ts";
import { BATCHES_DUE_KEY, BATCHES_PARTITION, batchKeys, batchLinesKey } from "./item-keys.ts";
import { readBatch } from "./stored-items.ts";
import { Table } from "./table-ops.ts";

const LINES_PER_ITEM = 500;
/** A rejected line keeps its first few issues; the rejected file of a drop has them all. */
const ISSUES_KEPT = 5;

const BATCH_ID = idPattern(["bat"]);

function isBatchId(value: string): boolean {
  return BATCH_ID.test(value);
}

export class BatchStore implements BatchStorePort {
  readonly #table: Table;

  constructor(db: DynamoDBDocumentClient, tableName: string) {
    this.#table = new Table(db, tableName);
  }

  /** Records the batch and its lines; the same batch made again (a repeated drop) finds the first. */
  async createOrGet(batch: Batch, lines: BatchLine[]): Promise<{ batch: Batch; created: boolean }> {
    for (let start = 0, n = 0; start < lines.length; start += LINES_PER_ITEM, n++) {
      const chunk = lines.slice(start, start + LINES_PER_ITEM).map((line) => ({
        ...line,
        ...(line.errors === undefined ? {} : { errors: line.errors.slice(0, ISSUES_KEPT) }),
      }));
      await this.#table.put({ pk: batchLinesKey(batch.id, n), lines: chunk });
    }
    const item = { ...batch, ...batchKeys(batch) };
    if (await this.#table.conditionalPut(item, "attribute_not_exists(pk)"))
      return { batch, created: true };
    return { batch: await this.require(batch.id), created: false };
  }

  async get(id: string): Promise<Batch | undefined> {
    if (!isBatchId(id)) return undefined;
    const item = await this.#table.get(id, { consistent: true });
    return item === undefined ? undefined : readBatch(item);
  }

  async require(id: string): Promise<Batch> {
    const batch = await this.get(id);
    if (batch === undefined) throw batchNotFound(id);
    return batch;
  }

  /** Every line, in order. */
  async lines(batch: Pick<Batch, "id" | "total">): Promise<BatchLine[]> {
    const lines: BatchLine[] = [];
    for (let n = 0; n * LINES_PER_ITEM < batch.total; n++) {
      const item = await this.#table.get(batchLinesKey(batch.id, n));
      lines.push(...((item?.lines as BatchLine[] | undefined) ?? []));
    }
    return lines;
  }

  /** Newest first; `apiKeyId` keeps one caller's batches, `project` one project's. */
  async list(opts: { limit: number; apiKeyId?: string; project?: string }): Promise<Batch[]> {
    const batches: Batch[] = [];
    if (opts.limit <= 0) return batches;
    for await (const item of this.#table.queryAll({
      partition: BATCHES_PARTITION,
      descending: true,
    })) {
      const batch = readBatch(item);
      if (opts.apiKeyId !== undefined && batch.source.apiKeyId !== opts.apiKeyId) continue;
      if (opts.project !== undefined && projectOf(batch.source) !== opts.project) continue;
      batches.push(batch);
      if (batches.length >= opts.limit) break;
    }
    return batches;
  }

  /** Batches not announced yet (a crash may leave one finished but unannounced), for the sweep. */
  async open(): Promise<Batch[]> {
    return (await this.list({ limit: Number.MAX_SAFE_INTEGER })).filter(
      (batch) => batch.announcedAt === undefined,
    );
  }

  /** One more of the batch's jobs ended; the batch as it now stands. */
  async jobEnded(id: string, at: string): Promise<Batch> {
    const item = await this.#table.updateReturning(id, {
      update: "ADD ended :one SET updatedAt = :at",
      condition: "attribute_exists(pk)",
      values: { ":one": 1, ":at": at },
    });
    return readBatch(item);
  }

  /** Sets `field` (finishedAt, announcedAt, cancelledAt) once; false when it was set already. */
  async setOnce(
    id: string,
    field: "finishedAt" | "announcedAt" | "cancelledAt",
    at: string,
    extra: Partial<Pick<Batch, "ended">> = {},
  ): Promise<boolean> {
    return this.#table.conditionalUpdate(id, {
      update: `SET #f = :at, updatedAt = :at${extra.ended === undefined ? "" : ", ended = :ended"}`,
      condition: "attribute_exists(pk) AND attribute_not_exists(#f)",
      names: { "#f": field },
      values: { ":at": at, ...(extra.ended === undefined ? {} : { ":ended": extra.ended }) },
    });
  }

  /**
   * Claims the batch's announcement for one completer: true for the caller whose `claim` is now
   * stored (none was, or one older than `staleBefore`, left by a completer that crashed), false for
   * the others. `claim` starts with the time and is unique to the caller, so a write whose answer
   * was lost and retried (refused by its own claim) is still recognised as the caller's.
   */
  async claimAnnouncement(id: string, claim: string, staleBefore: string): Promise<boolean> {
    const claimed = await this.#table.conditionalUpdate(id, {
      update: "SET announcingAt = :claim",
      condition:
        "attribute_exists(pk) AND attribute_not_exists(announcedAt) AND (attribute_not_exists(announcingAt) OR announcingAt < :stale)",
      values: { ":claim": claim, ":stale": staleBefore },
    });
    if (claimed) return true;
    const item = await this.#table.get(id, { consistent: true });
    return item?.announcingAt === claim && item.announcedAt === undefined;
  }

  /** Marks the batch due for completion (every job ended), for the dispatcher's next run. */
  async markDue(id: string): Promise<void> {
    await this.#table.update(BATCHES_DUE_KEY, {
      update: "ADD ids :id",
      values: { ":id": new Set([id]) },
    });
  }

  async due(): Promise<string[]> {
    const item = await this.#table.get(BATCHES_DUE_KEY, { consistent: true });
    return [...((item?.ids as Set<string> | undefined) ?? [])];
  }

  async clearDue(id: string): Promise<void> {
    await this.#table.update(BATCHES_DUE_KEY, {
      update: "DELETE ids :id",
      values: { ":id": new Set([id]) },
    });
  }
}
