/**
 * The audit trail: every admin and webhook action that succeeds is recorded (core's AuditLog: one
 * DynamoDB item, then an `Audit` event). Which routes are actions, and what each records, each
 * area writes beside its routes (routes/<area>/audit.ts, its rows' shape in audit-rows.ts); they
 * are collected here, keyed like the route table (route-scopes.ts). The record is read off the
 * route's own answer, after it, so no route carries audit code and a refused call records nothing.
 * Secrets in an answer (a new key, a signing secret) never reach the record: each row names the
 * fields it keeps, and core's withoutSecrets drops any secret that slips into one.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import type { AuditRecord } from "@reelay/core/domain";
import type { AuditLog } from "@reelay/core/usecases";
import type { ApiEnv, Caller, ResolvedDeps } from "./api-deps.ts";
import type { Answer, AuditRows } from "./audit-rows.ts";
import { isAdmin, projectOfCaller } from "./auth.ts";
import { routeKeyOf } from "./route-scopes.ts";
import { auditRoutes } from "./routes/audit/handlers.ts";
import { BATCHES_AUDIT } from "./routes/batches/audit.ts";
import { JOBS_AUDIT } from "./routes/jobs/audit.ts";
import { KEYS_AUDIT } from "./routes/keys/audit.ts";
import { SUBSCRIBERS_AUDIT } from "./routes/subscribers/audit.ts";
import { WEBHOOKS_AUDIT } from "./routes/webhooks/audit.ts";

export const AUDITED_ROUTES: AuditRows = {
  ...KEYS_AUDIT,
  ...SUBSCRIBERS_AUDIT,
  ...WEBHOOKS_AUDIT,
  ...JOBS_AUDIT,
  ...BATCHES_AUDIT,
};

function actorOf(caller: Caller): AuditRecord["actor"] {
  return isAdmin(caller)
    ? { key_id: caller.keyId }
    : { key_id: caller.keyId, project: projectOfCaller(caller) };
}

async function answerOf(c: Context<ApiEnv>): Promise<Answer> {
  try {
    const body: unknown = await c.res.clone().json();
    return body !== null && typeof body === "object" ? (body as Answer) : {};
  } catch {
    return {};
  }
}

/**
 * Records each successful action after its route answered. A record that cannot be stored fails
 * the call (500): an action the log does not hold must not look like it went through quietly.
 */
function auditTrail(deps: ResolvedDeps, audit: AuditLog): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status < 200 || c.res.status > 299) return;
    const key = routeKeyOf(c);
    const row = key === undefined ? undefined : AUDITED_ROUTES[key];
    if (row === undefined) return;
    const caller = c.get("caller");
    const acted = { caller, id: c.req.param("id") ?? "", answer: await answerOf(c), deps };
    const recorded = await row.record(acted);
    if (recorded === undefined) return;
    await audit.record({ action: row.action, actor: actorOf(caller), ...recorded });
  };
}

/** Every /v1 action recorded (after auth, scopes and ownership), and GET /v1/audit. */
export function mountAudit(app: Hono<ApiEnv>, deps: ResolvedDeps): void {
  app.use("/v1/*", auditTrail(deps, deps.audit));
  app.route("/v1/audit", auditRoutes(deps.audit));
}
