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
import { MAX_PAGE_SIZE } from "../../domain/page-size.ts";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { isReelayError, ReelayError } from "../../domain/errors.ts";
import { noMetrics } from "../../usecases/ports.ts";
import type { Metrics } from "../../usecases/ports.ts";
import { decodeCursor, encodeCursor } from "../../domain/jobs/cursor.ts";
import { isJobId } from "../../domain/jobs/ids.ts";
import { JOBS_LIST_PARTITION, jobKeys } from "./item-keys.ts";
import { readJob } from "./stored-items.ts";
import { ReuseIndex } from "./reuse-table.ts";
import { type IndexQuery, Table } from "./table-ops.ts";
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
  "createdByVersion",
  "kind",
]);

/** DynamoDB refuses `undefined`; a JSON round trip drops it the way the API would. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

type PlainFilter = Exclude<keyof ListFilters, "project" | "expiring" | "metadata">;

const FILTER_FIELDS: Record<PlainFilter, string[]> = {
  status: ["status"],
  model: ["model"],
  kind: ["kind"],
  source: ["source", "type"],
  apiKeyId: ["source", "apiKeyId"],
  user: ["user"],
};

/** One term a metadata pair; a key is any text, so each is named by its place, not its spelling. */
function metadataTerms(
  pairs: Record<string, string>,
  names: Record<string, string>,
  values: Record<string, unknown>,
): string[] {
  return Object.entries(pairs).map(([key, value], i) => {
    names["#f_metadata"] = "metadata";
    names[`#f_metadataKey${i}`] = key;
    values[`:f_metadata${i}`] = value;
    return `#f_metadata.#f_metadataKey${i} = :f_metadata${i}`;
  });
}

/** The listing filters as one DynamoDB FilterExpression (all must match); undefined without filters. */
function filterExpression(filters: ListFilters): IndexQuery["filter"] {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const terms: string[] = [];
  for (const [field, path] of Object.entries(FILTER_FIELDS) as [PlainFilter, string[]][]) {
    const value = filters[field];
    if (value === undefined) continue;
    const aliases = path.map((part) => {
      names[`#f_${part}`] = part;
      return `#f_${part}`;
    });
    values[`:f_${field}`] = value;
    terms.push(`${aliases.join(".")} = :f_${field}`);
  }
  if (filters.project !== undefined) {
    // A job made before projects is in its key's own project, which is named by the key's id.
    Object.assign(names, {
      "#f_source": "source",
      "#f_project": "project",
      "#f_apiKeyId": "apiKeyId",
    });
    values[":f_project"] = filters.project;
    terms.push(
      "(#f_source.#f_project = :f_project OR (attribute_not_exists(#f_source.#f_project) AND #f_source.#f_apiKeyId = :f_project))",
    );
  }
  if (filters.expiring !== undefined) {
    names["#f_expiresAt"] = "expiresAt";
    values[":f_expiringFrom"] = filters.expiring.from;
    values[":f_expiringTo"] = filters.expiring.to;
    terms.push("#f_expiresAt BETWEEN :f_expiringFrom AND :f_expiringTo");
  }
  terms.push(...metadataTerms(filters.metadata ?? {}, names, values));
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
  readonly reuse: ReuseIndex;
  readonly #table: Table;
  readonly #now: () => Date;
  readonly #metrics: Metrics;

  constructor(
    db: DynamoDBDocumentClient,
    tableName: string,
    options: { now?: () => Date; metrics?: Metrics } = {},
  ) {
    this.#table = new Table(db, tableName);
    this.tableName = tableName;
    this.reuse = new ReuseIndex(db, tableName);
    this.#now = options.now ?? (() => new Date());
    this.#metrics = options.metrics ?? noMetrics;
  }

  /** Writes a new job; `job_exists` (409) when the id is taken. */
  async create(job: Job): Promise<Job> {
    const item = { ...plain(job), ...jobKeys(job) };
    if (!(await this.#table.conditionalPut(item, "attribute_not_exists(pk)"))) {
      throw new ReelayError("job_exists", `A job with id ${job.id} already exists.`, {
        status: 409,
        details: { jobId: job.id },
      });
    }
    // Every path that makes a job (API, batches, drops, retries) comes through here once.
    this.#metrics.count("reelay_jobs_created_total", { model: job.model });
    return job;
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
    const item = await this.#table.get(id, { consistent: true });
    return item === undefined ? undefined : readJob(item);
  }

  /**
   * Deletes a finished job's record (retention), only once its terminal event was sent, so a job
   * still owed its event is never forgotten. False when the record is gone or not yet done with.
   */
  async removeFinished(id: string): Promise<boolean> {
    if (!isJobId(id)) return false;
    return this.#table.conditionalDelete(id, "attribute_exists(eventEmittedAt)");
  }

  /** The jobs among `ids` that exist, in no set order. */
  async getMany(ids: readonly string[]): Promise<Job[]> {
    return (await this.#table.getMany(ids.filter(isJobId))).map(readJob);
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
    const filter = filterExpression(options);
    const query: IndexQuery = {
      partition: JOBS_LIST_PARTITION,
      descending: true,
      ...(filter === undefined ? { pageSize: limit + 1 } : { filter, pageSize: MAX_PAGE_SIZE }),
    };
    const from =
      start === undefined
        ? undefined
        : { pk: start.id, gsi1pk: JOBS_LIST_PARTITION, gsi1sk: start.sk };
    // One job more than the page is read: a full page with nothing after it has no cursor.
    const jobs: Job[] = [];
    for await (const item of this.#table.queryAll(query, from)) {
      jobs.push(readJob(item));
      if (jobs.length > limit) break;
    }
    const page = jobs.slice(0, limit);
    const last = page[page.length - 1];
    return jobs.length > limit && last !== undefined
      ? { jobs: page, cursor: encodeCursor({ id: last.id, sk: jobKeys(last).gsi1sk }) }
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
    project?: string;
    max: number;
  }): AsyncGenerator<Job> {
    const filter = filterExpression({
      ...(range.apiKeyId === undefined ? {} : { apiKeyId: range.apiKeyId }),
      ...(range.project === undefined ? {} : { project: range.project }),
    });
    const query: IndexQuery = {
      partition: JOBS_LIST_PARTITION,
      range: { between: [range.from, range.to] },
      ...(filter === undefined ? {} : { filter }),
    };
    let seen = 0;
    for await (const item of this.#table.queryAll(query)) {
      if (++seen > range.max) throw rangeTooLarge(range.max);
      yield readJob(item);
    }
  }

  /**
   * The local stack's stand-in for S3 lifecycle and DynamoDB TTL (domain/jobs/retention.ts), in one
   * read of the listing, oldest first: jobs whose outputs expired by `now` and are not yet removed,
   * and jobs whose record's own time (recordTtl) has come.
   */
  async *retentionDue(now: Date): AsyncGenerator<Job> {
    const filter: IndexQuery["filter"] = {
      expression: "(#at <= :now AND attribute_not_exists(#removed)) OR #ttl <= :nowS",
      names: { "#at": "expiresAt", "#removed": "outputsRemovedAt", "#ttl": "recordTtl" },
      values: { ":now": now.toISOString(), ":nowS": Math.floor(now.getTime() / 1000) },
    };
    for await (const item of this.#table.queryAll({ partition: JOBS_LIST_PARTITION, filter }))
      yield readJob(item);
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
    for (const field of transition.remove ?? []) x.removes.push(x.name(field));
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
    if (options.unlessReused === true)
      conditions.push(`attribute_not_exists(${x.name("reusedFrom")})`);
    if (options.onlyIfSet !== undefined)
      conditions.push(`attribute_exists(${x.name(options.onlyIfSet)})`);
    if (options.unlessRequeued === true)
      conditions.push(
        `(attribute_exists(${x.name("admittedAt")}) OR attribute_not_exists(${x.name("refusedSends")}))`,
      );
    for (const field of options.remove ?? []) x.removes.push(x.name(field));
    return this.#update(id, x, conditions.join(" AND "), "update");
  }

  async #update(id: string, x: Expression, condition: string, what: string): Promise<Job> {
    if (!isJobId(id)) throw jobNotFound(id);
    const updated = await this.#table.conditionalUpdateReturning(id, {
      update: `SET ${x.sets.join(", ")}${x.removes.length === 0 ? "" : ` REMOVE ${x.removes.join(", ")}`}`,
      condition,
      names: x.names,
      values: x.values,
    });
    if (updated !== undefined) return readJob(updated);
    const current = await this.get(id);
    if (current === undefined) throw jobNotFound(id);
    throw new ReelayError("job_conflict", `Job ${id} is ${current.status}; could not ${what}.`, {
      status: 409,
      details: { jobId: id, status: current.status },
    });
  }
}
