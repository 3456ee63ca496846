/**
 * Job records in DynamoDB. Every write is conditional, with a timeline in mind:
 *
 *   Finish (attempt 1) ──write succeeded──X crash      Finish (retry) ──write──> condition fails
 *   RecordFailure (late Catch)                 ──write──> condition fails
 *
 * A transition names the statuses it may leave from, and no terminal status is ever among them, so
 * a late or repeated step can never move a job out of succeeded/failed/cancelled. dynalite has no
 * transactions, so nothing here uses them.
 */
import type { JobStorePort } from "../../usecases/ports.ts";
import {
  type ListFilters,
  jobNotFound,
  type ListOptions,
  type JobPage,
  type Transition,
  type UpdateOptions,
} from "../../domain/jobs/job-queries.ts";
import { isConditionFailure } from "./conditions.ts";
import { MAX_PAGE_SIZE } from "../../domain/limits.ts";
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from "@aws-sdk/lib-dynamodb";
import { isReelayError, ReelayError } from "../../domain/errors.ts";
import { noMetrics } from "../../usecases/metrics/record-metrics.ts";
import type { Metrics } from "../../usecases/ports.ts";
import { decodeCursor, encodeCursor } from "../../domain/jobs/cursor.ts";
import { isJobId } from "../../domain/jobs/ids.ts";
import { JOBS_LIST_INDEX, JOBS_LIST_PARTITION } from "./table-schema.ts";
import { isTerminal, TERMINAL_STATUSES, type Job } from "../../domain/jobs/types.ts";

/** Fields a patch may not touch: keys, and what only create/transition may write. */
const PROTECTED = new Set([
  "id",
  "pk",
  "gsi1pk",
  "gsi1sk",
  "status",
  "history",
  "createdAt",
  "kind",
]);

function keysOf(job: Pick<Job, "id" | "createdAt">) {
  return { pk: job.id, gsi1pk: JOBS_LIST_PARTITION, gsi1sk: `${job.createdAt}#${job.id}` };
}

function fromItem(item: Record<string, unknown>): Job {
  const { pk: _pk, gsi1pk: _p, gsi1sk: _s, ...job } = item;
  return job as unknown as Job;
}

/** DynamoDB refuses `undefined`; a JSON round trip drops it the way the API would. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

const FILTER_FIELDS: Record<keyof ListFilters, string[]> = {
  status: ["status"],
  model: ["model"],
  kind: ["kind"],
  source: ["source", "type"],
  apiKeyId: ["source", "apiKeyId"],
};

/** The listing filters as one DynamoDB FilterExpression (all must match); undefined without filters. */
function filterExpression(
  filters: ListFilters,
):
  | { expression: string; names: Record<string, string>; values: Record<string, unknown> }
  | undefined {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const terms: string[] = [];
  for (const [field, path] of Object.entries(FILTER_FIELDS) as [keyof ListFilters, string[]][]) {
    const value = filters[field];
    if (value === undefined) continue;
    const aliases = path.map((part) => {
      names[`#f_${part}`] = part;
      return `#f_${part}`;
    });
    values[`:f_${field}`] = value;
    terms.push(`${aliases.join(".")} = :f_${field}`);
  }
  return terms.length === 0 ? undefined : { expression: terms.join(" AND "), names, values };
}

function rangeTooLarge(max: number): ReelayError {
  return new ReelayError(
    "usage_range_too_large",
    `The range holds more than ${max} jobs; ask for a shorter one (from, to) and add the reports up.`,
    { status: 400, details: { max } },
  );
}

class Expression {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  readonly sets: string[] = [];
  readonly removes: string[] = [];
  #n = 0;

  name(field: string): string {
    const alias = `#n${this.#n++}`;
    this.names[alias] = field;
    return alias;
  }

  value(value: unknown): string {
    const alias = `:v${this.#n++}`;
    this.values[alias] = value;
    return alias;
  }

  setAll(patch: Record<string, unknown>): void {
    for (const [field, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (PROTECTED.has(field)) {
        throw new ReelayError("invalid_job_patch", `A job patch may not write \`${field}\`.`, {
          path: field,
        });
      }
      this.sets.push(`${this.name(field)} = ${this.value(plain(value))}`);
    }
  }

  notTerminal(): string {
    const status = this.name("status");
    return `NOT (${status} IN (${TERMINAL_STATUSES.map((s) => this.value(s)).join(", ")}))`;
  }
}

export class JobStore implements JobStorePort {
  readonly tableName: string;
  readonly #db: DynamoDBDocumentClient;
  readonly #now: () => Date;
  readonly #metrics: Metrics;

  constructor(
    db: DynamoDBDocumentClient,
    tableName: string,
    options: { now?: () => Date; metrics?: Metrics } = {},
  ) {
    this.#db = db;
    this.tableName = tableName;
    this.#now = options.now ?? (() => new Date());
    this.#metrics = options.metrics ?? noMetrics;
  }

  /** Writes a new job; `job_exists` (409) when the id is taken. */
  async create(job: Job): Promise<Job> {
    try {
      await this.#db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...plain(job), ...keysOf(job) },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
      // Every path that makes a job (API, batches, drops, retries) comes through here once.
      this.#metrics.count("reelay_jobs_created_total", { model: job.model });
      return job;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      throw new ReelayError("job_exists", `A job with id ${job.id} already exists.`, {
        status: 409,
        details: { jobId: job.id },
      });
    }
  }

  /** Creates the job, or returns the one already recorded under its id (same input seen twice). */
  async createOrGet(job: Job): Promise<{ job: Job; created: boolean }> {
    try {
      return { job: await this.create(job), created: true };
    } catch (error) {
      if (!isReelayError(error, "job_exists")) throw error;
      const existing = await this.get(job.id);
      if (existing === undefined) throw error;
      return { job: existing, created: false };
    }
  }

  async get(id: string): Promise<Job | undefined> {
    // Ids come from URLs too; DynamoDB would refuse an empty or over-long key as a server fault.
    if (!isJobId(id)) return undefined;
    const answer = await this.#db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: id }, ConsistentRead: true }),
    );
    return answer.Item === undefined ? undefined : fromItem(answer.Item);
  }

  /**
   * Deletes a finished job's record (retention), only once its terminal event was sent, so a job
   * still owed its event is never forgotten. False when the record is gone or not yet done with.
   */
  async removeFinished(id: string): Promise<boolean> {
    if (!isJobId(id)) return false;
    try {
      await this.#db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: id },
          ConditionExpression: "attribute_exists(eventEmittedAt)",
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** The jobs among `ids` that exist, read 100 at a time (BatchGetItem's limit), in no set order. */
  async getMany(ids: readonly string[]): Promise<Job[]> {
    const jobs: Job[] = [];
    const valid = ids.filter(isJobId);
    for (let start = 0; start < valid.length; start += 100) {
      let keys: Record<string, unknown>[] | undefined = valid
        .slice(start, start + 100)
        .map((pk) => ({ pk }));
      // DynamoDB may leave keys unprocessed under load; they are asked for again.
      for (let round = 0; keys !== undefined && keys.length > 0 && round < 10; round++) {
        const answer: BatchGetCommandOutput = await this.#db.send(
          new BatchGetCommand({
            RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true } },
          }),
        );
        for (const item of answer.Responses?.[this.tableName] ?? []) jobs.push(fromItem(item));
        keys = answer.UnprocessedKeys?.[this.tableName]?.Keys;
      }
    }
    return jobs;
  }

  async require(id: string): Promise<Job> {
    const job = await this.get(id);
    if (job === undefined) throw jobNotFound(id);
    return job;
  }

  /**
   * Newest first. With filters, DynamoDB filters after reading, so pages are filled by reading on
   * until `limit` jobs match; the cursor is the last job returned, so the next page starts right
   * after it whatever was skipped.
   */
  async list(options: ListOptions = {}): Promise<JobPage> {
    const limit = Math.min(Math.max(Math.floor(options.limit ?? 20), 1), MAX_PAGE_SIZE);
    const start = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
    let exclusiveStartKey: Record<string, unknown> | undefined =
      start === undefined
        ? undefined
        : { pk: start.id, gsi1pk: JOBS_LIST_PARTITION, gsi1sk: start.sk };
    const filter = filterExpression(options);
    const jobs: Job[] = [];
    let more = false;
    do {
      const answer = await this.#db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: JOBS_LIST_INDEX,
          KeyConditionExpression: "gsi1pk = :p",
          ExpressionAttributeValues: { ":p": JOBS_LIST_PARTITION, ...filter?.values },
          ...(filter === undefined
            ? {}
            : { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names }),
          ScanIndexForward: false,
          Limit: filter === undefined ? limit - jobs.length + 1 : MAX_PAGE_SIZE,
          ...(exclusiveStartKey === undefined ? {} : { ExclusiveStartKey: exclusiveStartKey }),
        }),
      );
      for (const item of answer.Items ?? []) jobs.push(fromItem(item));
      exclusiveStartKey = answer.LastEvaluatedKey;
      more = exclusiveStartKey !== undefined;
    } while (jobs.length <= limit && more);
    // One extra item was asked for, so a full page with nothing after it has no cursor.
    const page = jobs.slice(0, limit);
    const last = page[page.length - 1];
    const hasNext = jobs.length > limit || (more && jobs.length === limit);
    return hasNext && last !== undefined
      ? { jobs: page, cursor: encodeCursor({ id: last.id, sk: keysOf(last).gsi1sk }) }
      : { jobs: page };
  }

  /**
   * Every job created in [from, to) (ISO times), oldest first, optionally only one key's; a range
   * of more than `max` jobs is 400 usage_range_too_large rather than a report that never ends.
   */
  async *createdBetween(range: {
    from: string;
    to: string;
    apiKeyId?: string;
    max: number;
  }): AsyncGenerator<Job> {
    const filter = filterExpression(
      range.apiKeyId === undefined ? {} : { apiKeyId: range.apiKeyId },
    );
    let start: Record<string, unknown> | undefined;
    let seen = 0;
    do {
      const answer = await this.#db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: JOBS_LIST_INDEX,
          KeyConditionExpression: "gsi1pk = :p AND gsi1sk BETWEEN :from AND :to",
          ExpressionAttributeValues: {
            ":p": JOBS_LIST_PARTITION,
            ":from": range.from,
            ":to": range.to,
            ...filter?.values,
          },
          ...(filter === undefined
            ? {}
            : { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names }),
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      for (const item of answer.Items ?? []) {
        if (++seen > range.max) throw rangeTooLarge(range.max);
        yield fromItem(item);
      }
      start = answer.LastEvaluatedKey;
    } while (start !== undefined);
  }

  /**
   * Moves a job from one of `from` to `to`, appending to its history, in one conditional write.
   * `job_conflict` (409, details.status = the current status) when the job is not in `from`.
   */
  async transition(id: string, transition: Transition): Promise<Job> {
    const leaving = transition.from.filter((status) => !isTerminal(status));
    if (leaving.length === 0) {
      throw new ReelayError(
        "invalid_transition",
        `No transition may leave a terminal status (asked: ${transition.from.join(", ")}).`,
      );
    }
    const at = this.#now().toISOString();
    const x = new Expression();
    x.setAll({ ...transition.set, updatedAt: at });
    const status = x.name("status");
    const history = x.name("history");
    const entry = {
      status: transition.to,
      at,
      ...(transition.note === undefined ? {} : { note: transition.note }),
    };
    x.sets.push(
      `${status} = ${x.value(transition.to)}`,
      `${history} = list_append(${history}, ${x.value([entry])})`,
    );
    const nonEmpty =
      transition.nonEmpty === undefined
        ? ""
        : ` AND size(${x.name(transition.nonEmpty)}) > ${x.value(0)}`;
    const condition = `attribute_exists(pk) AND ${status} IN (${leaving.map((s) => x.value(s)).join(", ")})${nonEmpty}`;
    return this.#update(id, x, condition, `move to ${transition.to}`);
  }

  /** A conditional patch that never changes status; see UpdateOptions for the conditions. */
  async update(id: string, patch: Partial<Job>, options: UpdateOptions = {}): Promise<Job> {
    const x = new Expression();
    x.setAll({ ...patch, updatedAt: this.#now().toISOString() });
    for (const [field, by] of Object.entries(options.increment ?? {})) {
      const alias = x.name(field);
      x.sets.push(`${alias} = if_not_exists(${alias}, ${x.value(0)}) + ${x.value(by)}`);
    }
    const conditions = ["attribute_exists(pk)"];
    if (options.unlessTerminal === true) conditions.push(x.notTerminal());
    if (options.unlessSet !== undefined)
      conditions.push(`attribute_not_exists(${x.name(options.unlessSet)})`);
    if (options.onlyIfSet !== undefined)
      conditions.push(`attribute_exists(${x.name(options.onlyIfSet)})`);
    for (const field of options.remove ?? []) x.removes.push(x.name(field));
    return this.#update(id, x, conditions.join(" AND "), "update");
  }

  async #update(id: string, x: Expression, condition: string, what: string): Promise<Job> {
    if (!isJobId(id)) throw jobNotFound(id);
    try {
      const answer = await this.#db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: id },
          UpdateExpression: `SET ${x.sets.join(", ")}${x.removes.length === 0 ? "" : ` REMOVE ${x.removes.join(", ")}`}`,
          ConditionExpression: condition,
          ExpressionAttributeNames: x.names,
          ExpressionAttributeValues: x.values,
          ReturnValues: "ALL_NEW",
        }),
      );
      return fromItem(answer.Attributes ?? {});
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await this.get(id);
      if (current === undefined) throw jobNotFound(id);
      throw new ReelayError("job_conflict", `Job ${id} is ${current.status}; could not ${what}.`, {
        status: 409,
        details: { jobId: id, status: current.status },
        cause: error,
      });
    }
  }
}
