/**
 * GET /v1/audit: the audit log, newest first, paged (`limit`, `cursor`), filtered by `action`,
 * `from` and `to`. A stored key with the admin scope reads its project's records; the deployment's
 * own key reads every one. Only GET: the log is not changed through the API.
 */
import { Hono } from "hono";
import * as z from "zod";
import { parseAuditAction, parseAuditTime } from "@reelay/core/domain";
import type { AuditLog } from "@reelay/core/usecases";
import type { ApiEnv } from "../../api-deps.ts";
import { ownerFilter } from "../../auth.ts";
import { limitParam, parsedBy, validQuery } from "../../query.ts";

/** GET /v1/audit's query, checked in this order; the action and times by the audit log's own rules. */
const auditQuery = z.object({
  action: parsedBy(parseAuditAction),
  from: parsedBy((raw) => parseAuditTime("from", raw)),
  to: parsedBy((raw) => parseAuditTime("to", raw)),
  limit: limitParam,
  cursor: z.string().optional(),
});

export function auditRoutes(audit: AuditLog): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.get("/", validQuery(auditQuery), async (c) => {
    const { action, from, to, limit, cursor } = c.req.valid("query");
    const page = await audit.list({
      ...(action === undefined ? {} : { action }),
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(limit === undefined ? {} : { limit }),
      ...(cursor === undefined ? {} : { before: cursor }),
      ...ownerFilter(c.get("caller")),
    });
    return c.json({ data: page.records, next_cursor: page.cursor ?? null });
  });
  return routes;
}
