/**
 * The audit log in the jobs table: one item per record (item-keys.ts: `aud_<ulid>`, listed newest
 * first under AUDIT). A record is put once, on the condition that no item has its key, and this
 * store has no update or delete: nothing reelay runs changes a record once written.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ReelayError } from "../../domain/errors.ts";
import { AUDIT_ID, type AuditRecord } from "../../domain/audit/record.ts";
import type { AuditPage, AuditQuery } from "../../domain/audit/query.ts";
import { MAX_PAGE_SIZE } from "../../domain/page-size.ts";
import type { AuditStorePort } from "../../usecases/ports.ts";
import { AUDIT_PARTITION, auditKeys } from "./item-keys.ts";
import { readAuditRecord } from "./stored-items.ts";
import { type IndexQuery, Table } from "./table-ops.ts";

const DEFAULT_PAGE = 50;
const SORT_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#(.+)$/;

function badCursor(): ReelayError {
  return new ReelayError(
    "invalid_cursor",
    "The cursor is not one this service returned; start the listing again without it.",
    { status: 400, path: "cursor" },
  );
}

/** A page's cursor: the last record's sort key, base64url. */
function encodeCursor(record: AuditRecord): string {
  return Buffer.from(`${record.at}#${record.id}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): string {
  const sk = Buffer.from(cursor, "base64url").toString("utf8");
  const match = SORT_KEY.exec(sk);
  if (match === null || !AUDIT_ID.test(match[2] as string)) throw badCursor();
  return sk;
}

/** The sort-key range of `query`: `from` included, `to` and the cursor's record excluded. */
function rangeOf(query: AuditQuery): IndexQuery["range"] {
  const upper = [query.to, query.before === undefined ? undefined : decodeCursor(query.before)]
    .filter((bound): bound is string => bound !== undefined)
    .sort()[0];
  if (query.from !== undefined && upper !== undefined)
    return { between: [query.from, upper] as const };
  if (query.from !== undefined) return { op: ">", value: query.from };
  if (upper !== undefined) return { op: "<", value: upper };
  return undefined;
}

function filterOf(query: AuditQuery): IndexQuery["filter"] {
  const terms: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (query.project !== undefined) {
    terms.push("#project = :project");
    names["#project"] = "project";
    values[":project"] = query.project;
  }
  if (query.action !== undefined) {
    terms.push("#action = :action");
    names["#action"] = "action";
    values[":action"] = query.action;
  }
  return terms.length === 0 ? undefined : { expression: terms.join(" AND "), names, values };
}

export class AuditStore implements AuditStorePort {
  readonly #table: Table;

  constructor(db: DynamoDBDocumentClient, tableName: string) {
    this.#table = new Table(db, tableName);
  }

  async append(record: AuditRecord): Promise<void> {
    await this.#table.put({ ...auditKeys(record), ...record }, "attribute_not_exists(pk)");
  }

  /** Newest first, filtered by project and action, `limit` a page (one more is read to know). */
  async list(query: AuditQuery): Promise<AuditPage<AuditRecord>> {
    const limit = Math.min(query.limit ?? DEFAULT_PAGE, MAX_PAGE_SIZE);
    const range = rangeOf(query);
    const filter = filterOf(query);
    const records: AuditRecord[] = [];
    const items = this.#table.queryAll({
      partition: AUDIT_PARTITION,
      descending: true,
      pageSize: MAX_PAGE_SIZE,
      ...(range === undefined ? {} : { range }),
      ...(filter === undefined ? {} : { filter }),
    });
    for await (const item of items) {
      const record = readAuditRecord(item);
      // BETWEEN includes its upper bound: the cursor's own record is the last page's.
      if (query.before !== undefined && `${record.at}#${record.id}` === decodeCursor(query.before))
        continue;
      records.push(record);
      if (records.length > limit) break;
    }
    const page = records.slice(0, limit);
    const last = page.at(-1);
    return records.length > limit && last !== undefined
      ? { records: page, cursor: encodeCursor(last) }
      : { records: page };
  }
}
