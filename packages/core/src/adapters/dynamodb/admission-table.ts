/**
 * Admission's items in the jobs table: one admission item (who holds a slot, the learned limit,
 * the earliest next create, the round-robin cursor) and one queue entry per waiting job. Every
 * change is one conditional single-item write: no transactions, which dynalite lacks.
 *
 *   admission item  pk "admission"        held: {jobId: heldAt}, learned, nextAdmitAt, cursor
 *   queue entry     pk "queue#<jobId>"    gsi1pk "QUEUE", gsi1sk "<lane>#<priority>#<enqueuedAt>#<jobId>"
 *
 * Entries sort by lane (the API key), then priority, then age, so the head of the lane after the
 * cursor is one Query with Limit 1: that is the round-robin across keys.
 */
import type { AdmissionStorePort } from "../../usecases/ports.ts";
import type { QueueEntry, AdmissionState, AcquireResult } from "../../domain/admission/queue.ts";
import { isConditionFailure } from "./conditions.ts";
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { JOBS_LIST_INDEX } from "./table-schema.ts";
import {
  FIRST_LEARNED,
  type LearnedLimit,
  PRIORITIES,
  type Priority,
} from "../../domain/admission/settings.ts";

export const ADMISSION_KEY = "admission";
export const QUEUE_PARTITION = "QUEUE";
export const QUEUE_KEY_PREFIX = "queue#";

function sortKey(entry: Pick<QueueEntry, "lane" | "priority" | "enqueuedAt" | "jobId">): string {
  return `${entry.lane}#${PRIORITIES.indexOf(entry.priority)}#${entry.enqueuedAt}#${entry.jobId}`;
}

export class AdmissionStore implements AdmissionStorePort {
  readonly #db: DynamoDBDocumentClient;
  readonly #table: string;
  /** The admission item has its holder map: nothing removes it, so once is enough per process. */
  #ensured = false;
  /** The last state this process read, and when (epoch ms). */
  #last: { state: AdmissionState; at: number } | undefined;

  constructor(db: DynamoDBDocumentClient, tableName: string) {
    this.#db = db;
    this.#table = tableName;
  }

  async state(): Promise<AdmissionState> {
    const answer = await this.#db.send(
      new GetCommand({ TableName: this.#table, Key: { pk: ADMISSION_KEY }, ConsistentRead: true }),
    );
    const item = answer.Item ?? {};
    const state = {
      held: (item.held as Record<string, string> | undefined) ?? {},
      learned: (item.learned as LearnedLimit | undefined) ?? FIRST_LEARNED,
      learnedVersion: (item.learnedVersion as number | undefined) ?? 0,
      nextAdmitAt: (item.nextAdmitAt as number | undefined) ?? 0,
      cursor: (item.cursor as string | undefined) ?? "",
    };
    this.#last = { state, at: Date.now() };
    return state;
  }

  /** Applies this process's own successful write to the kept copy, as a read would now see it. */
  #follow(change: (state: AdmissionState) => AdmissionState): void {
    if (this.#last !== undefined) this.#last = { ...this.#last, state: change(this.#last.state) };
  }

  /**
   * The state this process read at most `maxAgeMs` ago (with its own writes since applied), else a fresh read. For a writer whose
   * write is conditional anyway (learn: on learnedVersion), so a stale copy costs a lost race, never
   * a wrong limit; on the local stack the dispatcher's reads usually serve it.
   */
  async recentState(maxAgeMs: number): Promise<AdmissionState> {
    const last = this.#last;
    return last !== undefined && Date.now() - last.at <= maxAgeMs ? last.state : this.state();
  }

  /** The admission item with an empty holder map, so slot writes can address `held.<jobId>`. */
  async ensure(): Promise<void> {
    if (this.#ensured) return;
    await this.#db.send(
      new UpdateCommand({
        TableName: this.#table,
        Key: { pk: ADMISSION_KEY },
        UpdateExpression: "SET held = if_not_exists(held, :empty)",
        ExpressionAttributeValues: { ":empty": {} },
      }),
    );
    this.#ensured = true;
  }

  /**
   * Takes a slot for `jobId` when fewer than `limit` are held and no create is due later than
   * `now`; the next create is then due `spacingMs` later, and the lane becomes the cursor.
   */
  async acquire(
    jobId: string,
    opts: { limit: number; now: number; spacingMs: number; lane: string },
  ): Promise<AcquireResult> {
    try {
      await this.#db.send(
        new UpdateCommand({
          TableName: this.#table,
          Key: { pk: ADMISSION_KEY },
          UpdateExpression: "SET held.#job = :at, nextAdmitAt = :next, #cursor = :lane",
          ConditionExpression:
            "attribute_not_exists(held.#job) AND size(held) < :limit AND (attribute_not_exists(nextAdmitAt) OR nextAdmitAt <= :now)",
          ExpressionAttributeNames: { "#job": jobId, "#cursor": "cursor" },
          ExpressionAttributeValues: {
            ":at": new Date(opts.now).toISOString(),
            ":next": opts.now + opts.spacingMs,
            ":lane": opts.lane,
            ":limit": opts.limit,
            ":now": opts.now,
          },
        }),
      );
      this.#follow((state) => ({
        ...state,
        held: { ...state.held, [jobId]: new Date(opts.now).toISOString() },
        nextAdmitAt: opts.now + opts.spacingMs,
        cursor: opts.lane,
      }));
      return "acquired";
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const state = await this.state();
      if (state.held[jobId] !== undefined) return "held_already";
      return state.nextAdmitAt > opts.now ? "too_soon" : "full";
    }
  }

  /** Frees the job's slot; true when it held one. */
  async release(jobId: string): Promise<boolean> {
    const answer = await this.#db
      .send(
        new UpdateCommand({
          TableName: this.#table,
          Key: { pk: ADMISSION_KEY },
          UpdateExpression: "REMOVE held.#job",
          ConditionExpression: "attribute_exists(held.#job)",
          ExpressionAttributeNames: { "#job": jobId },
          ReturnValues: "NONE",
        }),
      )
      .then(
        () => true,
        (error: unknown) => {
          if (isConditionFailure(error)) return false;
          throw error;
        },
      );
    if (answer)
      this.#follow((state) => {
        const { [jobId]: _freed, ...held } = state.held;
        return { ...state, held };
      });
    return answer;
  }

  /**
   * Replaces the learned limit when it is still at `version`. Another writer may have moved it
   * first: this change is then dropped, which only makes the limit adapt a step later.
   */
  async learn(version: number, next: LearnedLimit): Promise<boolean> {
    const learned = await this.#conditional({
      UpdateExpression: "SET learned = :next, learnedVersion = :bumped",
      ConditionExpression: "attribute_not_exists(learnedVersion) OR learnedVersion = :version",
      ExpressionAttributeValues: { ":next": next, ":version": version, ":bumped": version + 1 },
    });
    // The kept copy follows this process's own change, and is dropped when another writer's won.
    if (learned)
      this.#follow((state) => ({ ...state, learned: next, learnedVersion: version + 1 }));
    else this.#last = undefined;
    return learned;
  }

  /** No admission before `until` (epoch ms); a hold only ever moves the next create later. */
  async hold(until: number): Promise<void> {
    await this.#conditional({
      UpdateExpression: "SET nextAdmitAt = :until",
      ConditionExpression: "attribute_not_exists(nextAdmitAt) OR nextAdmitAt < :until",
      ExpressionAttributeValues: { ":until": until },
    });
  }

  async #conditional(update: {
    UpdateExpression: string;
    ConditionExpression: string;
    ExpressionAttributeValues: Record<string, unknown>;
  }): Promise<boolean> {
    try {
      await this.#db.send(
        new UpdateCommand({ TableName: this.#table, Key: { pk: ADMISSION_KEY }, ...update }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async enqueue(entry: QueueEntry): Promise<void> {
    await this.#db.send(
      new PutCommand({
        TableName: this.#table,
        Item: {
          ...entry,
          pk: `${QUEUE_KEY_PREFIX}${entry.jobId}`,
          gsi1pk: QUEUE_PARTITION,
          gsi1sk: sortKey(entry),
        },
      }),
    );
  }

  async dequeue(jobId: string): Promise<void> {
    await this.#db.send(
      new DeleteCommand({ TableName: this.#table, Key: { pk: `${QUEUE_KEY_PREFIX}${jobId}` } }),
    );
  }

  async entry(jobId: string): Promise<QueueEntry | undefined> {
    const answer = await this.#db.send(
      new GetCommand({ TableName: this.#table, Key: { pk: `${QUEUE_KEY_PREFIX}${jobId}` } }),
    );
    return answer.Item === undefined ? undefined : toEntry(answer.Item);
  }

  /**
   * The head of the first lane after `cursor`, wrapping to the first lane; undefined = empty queue.
   * The queue's head comes first: an empty queue (most dispatch runs' last look) is one Query.
   * Entries in `pending` (being admitted by this run, not yet out of the queue) are passed over.
   */
  async next(
    cursor: string,
    pending: ReadonlySet<string> = new Set(),
  ): Promise<QueueEntry | undefined> {
    const head = await this.#first(undefined, pending);
    if (head === undefined || cursor === "" || sortKey(head) > `${cursor}#~`) return head;
    return (await this.#first(`${cursor}#~`, pending)) ?? head;
  }

  /** The first entry after `after` not in `pending`: a page one longer than `pending` holds one. */
  async #first(
    after: string | undefined,
    pending: ReadonlySet<string>,
  ): Promise<QueueEntry | undefined> {
    const answer = await this.#db.send(
      new QueryCommand({
        TableName: this.#table,
        IndexName: JOBS_LIST_INDEX,
        KeyConditionExpression:
          after === undefined ? "gsi1pk = :p" : "gsi1pk = :p AND gsi1sk > :after",
        ExpressionAttributeValues: { ":p": QUEUE_PARTITION, ...(after ? { ":after": after } : {}) },
        Limit: pending.size + 1,
      }),
    );
    const item = (answer.Items ?? []).find((i) => !pending.has(i.jobId as string));
    return item === undefined ? undefined : toEntry(item);
  }

  /** How many entries of the same lane come before this one (approximate under concurrent change). */
  async ahead(entry: QueueEntry): Promise<number> {
    return this.#count("gsi1pk = :p AND gsi1sk BETWEEN :from AND :to", {
      ":from": `${entry.lane}#`,
      ":to": sortKey(entry),
    }).then((count) => Math.max(0, count - 1));
  }

  /** How many jobs wait in the queue. */
  async queued(): Promise<number> {
    return this.#count("gsi1pk = :p", {});
  }

  /** Every waiting entry, oldest lane order; for the sweep and the metrics. */
  async *entries(): AsyncGenerator<QueueEntry> {
    let start: Record<string, unknown> | undefined;
    do {
      const answer = await this.#db.send(
        new QueryCommand({
          TableName: this.#table,
          IndexName: JOBS_LIST_INDEX,
          KeyConditionExpression: "gsi1pk = :p",
          ExpressionAttributeValues: { ":p": QUEUE_PARTITION },
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      for (const item of answer.Items ?? []) yield toEntry(item);
      start = answer.LastEvaluatedKey;
    } while (start !== undefined);
  }

  async #count(condition: string, values: Record<string, unknown>): Promise<number> {
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const answer = await this.#db.send(
        new QueryCommand({
          TableName: this.#table,
          IndexName: JOBS_LIST_INDEX,
          KeyConditionExpression: condition,
          ExpressionAttributeValues: { ":p": QUEUE_PARTITION, ...values },
          Select: "COUNT",
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      count += answer.Count ?? 0;
      start = answer.LastEvaluatedKey;
    } while (start !== undefined);
    return count;
  }
}

function toEntry(item: Record<string, unknown>): QueueEntry {
  return {
    jobId: item.jobId as string,
    lane: item.lane as string,
    priority: item.priority as Priority,
    enqueuedAt: item.enqueuedAt as string,
    expiresAt: item.expiresAt as string,
  };
}
