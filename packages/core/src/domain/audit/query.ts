/** What GET /v1/audit reads: an action, a time range, a page, and the project it is limited to. */
import { ReelayError, shownInput } from "../errors.ts";
import { AUDIT_ACTIONS, type AuditAction } from "./record.ts";

export interface AuditQuery {
  action?: AuditAction;
  /** ISO times, `from` included, `to` excluded. */
  from?: string;
  to?: string;
  /** Only this project's records; absent: every record (the deployment's own key). */
  project?: string;
  limit?: number;
  /** The id of the last record of the page before (records come newest first). */
  before?: string;
}

export interface AuditPage<T> {
  records: T[];
  /** Give as `cursor` for the next page; absent after the last. */
  cursor?: string;
}

function badQuery(path: string, message: string): ReelayError {
  return new ReelayError("invalid_query", message, { status: 400, path });
}

export function parseAuditAction(raw: string | undefined): AuditAction | undefined {
  if (raw === undefined) return undefined;
  if ((AUDIT_ACTIONS as readonly string[]).includes(raw)) return raw as AuditAction;
  throw badQuery(
    "action",
    `action ${shownInput(raw, 40)} is not one of ${AUDIT_ACTIONS.join(", ")}.`,
  );
}

/** `from` or `to`: an ISO time (a date alone is its midnight UTC), answered as UTC ISO. */
export function parseAuditTime(path: "from" | "to", raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const at = /^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(raw)
    ? Date.parse(raw)
    : Number.NaN;
  if (Number.isNaN(at))
    throw badQuery(path, `${path} must be an ISO time such as 2026-01-31T00:00:00Z.`);
  return new Date(at).toISOString();
}
