/**
 * Batches in the jobs table, each change one conditional single-item write:
 *
 *   batch record   pk "bat_<id>"              gsi1pk "BATCH", gsi1sk "<createdAt>#<id>" (newest first)
 *   its lines      pk "bat_<id>#lines#<n>"    up to LINES_PER_ITEM lines: line -> job id, or the errors
 *   due batches    pk "batches-due"           a set of batch ids whose jobs have all ended, for the dispatcher
 */
import type { BatchStorePort } from "../../usecases/ports.ts";
import { isConditionFailure } from "./conditions.ts";
import { idPattern } from "../../domain/ids.ts";
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { ReelayError, shownInput } from "../../domain/errors.ts";
import { JOBS_LIST_INDEX } from "./table-schema.ts";
import type { Batch, BatchLine } from "../../domain/batches/types.ts";

export const BATCHES_PARTITION = "BATCH";
export const BATCHES_DUE_KEY = "batches-due";
const LINES_PER_ITEM = 500;
/** A rejected line keeps its first few issues; the rejected file of a drop has them all. */
const ISSUES_KEPT = 5;

const BATCH_ID = idPattern(["bat"]);

function isBatchId(value: string): boolean {
  return BATCH_ID.test(value);
}

export function batchNotFound(id: string): ReelayError {
  return new ReelayError("batch_not_found", `No batch ${shownInput(id)} here.`, {
    status: 404,
    path: "id",
  });
}

function fromItem(item: Record<string, unknown>): Batch {
  const { pk: _pk, gsi1pk: _p, gsi1sk: _s, ...batch } = item;
  return batch as unknown as Batch;
}

export class BatchStore implements BatchStorePort {
  readonly #db: DynamoDBDocumentClient;
  readonly #table: string;

  constructor(db: DynamoDBDocumentClient, tableName: string) {
    this.#db = db;
    this.#table = tableName;
  }

  /** Records the batch and its lines; the same batch made again (a repeated drop) finds the first. */
  async createOrGet(batch: Batch, lines: BatchLine[]): Promise<{ batch: Batch; created: boolean }> {
    for (let start = 0, n = 0; start < lines.length; start += LINES_PER_ITEM, n++) {
      const chunk = lines.slice(start, start + LINES_PER_ITEM).map((line) => ({
        ...line,
        ...(line.errors === undefined ? {} : { errors: line.errors.slice(0, ISSUES_KEPT) }),
      }));
      await this.#db.send(
        new PutCommand({
          TableName: this.#table,
          Item: { pk: `${batch.id}#lines#${n}`, lines: chunk },
        }),
      );
    }
    try {
      await this.#db.send(
        new PutCommand({
          TableName: this.#table,
          Item: {
            ...batch,
            pk: batch.id,
            gsi1pk: BATCHES_PARTITION,
            gsi1sk: `${batch.createdAt}#${batch.id}`,
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
      return { batch, created: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return { batch: await this.require(batch.id), created: false };
    }
  }

  async get(id: string): Promise<Batch | undefined> {
    if (!isBatchId(id)) return undefined;
    const answer = await this.#db.send(
      new GetCommand({ TableName: this.#table, Key: { pk: id }, ConsistentRead: true }),
    );
    return answer.Item === undefined ? undefined : fromItem(answer.Item);
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
      const answer = await this.#db.send(
        new GetCommand({ TableName: this.#table, Key: { pk: `${batch.id}#lines#${n}` } }),
      );
      lines.push(...((answer.Item?.lines as BatchLine[] | undefined) ?? []));
    }
    return lines;
  }

  /** Newest first; `apiKeyId` keeps one caller's batches. */
  async list(opts: { limit: number; apiKeyId?: string }): Promise<Batch[]> {
    const batches: Batch[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const answer = await this.#db.send(
        new QueryCommand({
          TableName: this.#table,
          IndexName: JOBS_LIST_INDEX,
          KeyConditionExpression: "gsi1pk = :p",
          ExpressionAttributeValues: { ":p": BATCHES_PARTITION },
          ScanIndexForward: false,
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      for (const item of answer.Items ?? []) {
        const batch = fromItem(item);
        if (opts.apiKeyId === undefined || batch.source.apiKeyId === opts.apiKeyId)
          batches.push(batch);
      }
      start = answer.LastEvaluatedKey;
    } while (start !== undefined && batches.length < opts.limit);
    return batches.slice(0, opts.limit);
  }

  /** Batches not announced yet (a crash may leave one finished but unannounced), for the sweep. */
  async open(): Promise<Batch[]> {
    return (await this.list({ limit: Number.MAX_SAFE_INTEGER })).filter(
      (batch) => batch.announcedAt === undefined,
    );
  }

  /** One more of the batch's jobs ended; the batch as it now stands. */
  async jobEnded(id: string, at: string): Promise<Batch> {
    const answer = await this.#db.send(
      new UpdateCommand({
        TableName: this.#table,
        Key: { pk: id },
        UpdateExpression: "ADD ended :one SET updatedAt = :at",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":one": 1, ":at": at },
        ReturnValues: "ALL_NEW",
      }),
    );
    return fromItem(answer.Attributes ?? {});
  }

  /** Sets `field` (finishedAt, announcedAt, cancelledAt) once; false when it was set already. */
  async setOnce(
    id: string,
    field: "finishedAt" | "announcedAt" | "cancelledAt",
    at: string,
    extra: Partial<Pick<Batch, "ended">> = {},
  ): Promise<boolean> {
    try {
      await this.#db.send(
        new UpdateCommand({
          TableName: this.#table,
          Key: { pk: id },
          UpdateExpression: `SET #f = :at, updatedAt = :at${extra.ended === undefined ? "" : ", ended = :ended"}`,
          ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(#f)",
          ExpressionAttributeNames: { "#f": field },
          ExpressionAttributeValues: {
            ":at": at,
            ...(extra.ended === undefined ? {} : { ":ended": extra.ended }),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * Claims the batch's announcement for one completer: true for the caller whose `claim` is now
   * stored (none was, or one older than `staleBefore`, left by a completer that crashed), false for
   * the others. `claim` starts with the time and is unique to the caller, so a write whose answer
   * was lost and retried (refused by its own claim) is still recognised as the caller's.
   */
  async claimAnnouncement(id: string, claim: string, staleBefore: string): Promise<boolean> {
    try {
      await this.#db.send(
        new UpdateCommand({
          TableName: this.#table,
          Key: { pk: id },
          UpdateExpression: "SET announcingAt = :claim",
          ConditionExpression:
            "attribute_exists(pk) AND attribute_not_exists(announcedAt) AND (attribute_not_exists(announcingAt) OR announcingAt < :stale)",
          ExpressionAttributeValues: { ":claim": claim, ":stale": staleBefore },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const answer = await this.#db.send(
        new GetCommand({ TableName: this.#table, Key: { pk: id }, ConsistentRead: true }),
      );
      return answer.Item?.announcingAt === claim && answer.Item.announcedAt === undefined;
    }
  }

  /** Marks the batch due for completion (every job ended), for the dispatcher's next run. */
  async markDue(id: string): Promise<void> {
    await this.#db.send(
      new UpdateCommand({
        TableName: this.#table,
        Key: { pk: BATCHES_DUE_KEY },
        UpdateExpression: "ADD ids :id",
        ExpressionAttributeValues: { ":id": new Set([id]) },
      }),
    );
  }

  async due(): Promise<string[]> {
    const answer = await this.#db.send(
      new GetCommand({
        TableName: this.#table,
        Key: { pk: BATCHES_DUE_KEY },
        ConsistentRead: true,
      }),
    );
    return [...((answer.Item?.ids as Set<string> | undefined) ?? [])];
  }

  async clearDue(id: string): Promise<void> {
    await this.#db.send(
      new UpdateCommand({
        TableName: this.#table,
        Key: { pk: BATCHES_DUE_KEY },
        UpdateExpression: "DELETE ids :id",
        ExpressionAttributeValues: { ":id": new Set([id]) },
      }),
    );
  }
}
