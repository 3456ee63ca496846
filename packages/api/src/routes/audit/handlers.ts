/**
 * GET /v1/audit: the audit log, newest first, paged (`limit`, `cursor`), filtered by `action`,
 * `from` and `to`. A stored key with the admin scope reads its project's records; the deployment's
 * own key reads every one. Only GET: the log is not changed through the API.
 */
import { Hono } from "hono";
import { parseAuditAction, parseAuditTime } from "@reelay/core/domain";
import type { AuditLog } from "@reelay/core/usecases";
import type { ApiEnv } from "../../api-deps.ts";
import { ownerFilter } from "../../auth.ts";
import { readLimit } from "../jobs/handlers.ts";

export function auditRoutes(audit: AuditLog): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.get("/", async (c) => {
    const action = parseAuditAction(c.req.query("action"));
    const from = parseAuditTime("from", c.req.query("from"));
    const to = parseAuditTime("to", c.req.query("to"));
    const limit = readLimit(c.req.query("limit"));
    const cursor = c.req.query("cursor");
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
