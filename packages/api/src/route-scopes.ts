/**
 * The route table's authorization column: the scope each route needs, written by each area beside
 * its routes (routes/<area>/scopes.ts) and collected here. The scope middleware enforces it, the
 * OpenAPI document shows it (`security: [{bearer: [scope]}]`) and /docs prints it; a test checks it
 * names every route the app serves. `null`: open, no key. The areas' scopes are kept apart from
 * their OpenAPI operations, so enforcing them loads no schema (a cold start's cost).
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { SCOPES, LEGACY_SCOPES, type Scope, scopeMissing } from "@reelay/core/domain";
import type { ApiEnv, Caller } from "./api-deps.ts";
import { isAdmin } from "./auth.ts";
import { ADMISSION_SCOPES } from "./routes/admission/scopes.ts";
import { AUDIT_SCOPES } from "./routes/audit/scopes.ts";
import { BATCHES_SCOPES } from "./routes/batches/scopes.ts";
import { CONTENT_SCOPES } from "./routes/content/scopes.ts";
import { DASHBOARD_SCOPES } from "./dashboard/scopes.ts";
import { DOCS_SCOPES } from "./routes/docs/scopes.ts";
import { EVENTS_SCOPES } from "./routes/events/scopes.ts";
import { FOLLOW_SCOPES } from "./routes/follow/scopes.ts";
import { HEALTH_SCOPES } from "./routes/health/scopes.ts";
import { IMAGES_SCOPES } from "./routes/images/scopes.ts";
import { JOBS_SCOPES } from "./routes/jobs/scopes.ts";
import { KEYS_SCOPES } from "./routes/keys/scopes.ts";
import { MCP_SCOPES } from "./routes/mcp/scopes.ts";
import { METRICS_SCOPES } from "./routes/metrics/scopes.ts";
import { MODELS_SCOPES } from "./routes/models/scopes.ts";
import { OPENAPI_SCOPES } from "./routes/openapi/scopes.ts";
import { SUBSCRIBERS_SCOPES } from "./routes/subscribers/scopes.ts";
import { UPSTREAMS_SCOPES } from "./routes/upstreams/scopes.ts";
import { UPLOADS_SCOPES } from "./routes/uploads/scopes.ts";
import { USAGE_SCOPES } from "./routes/usage/scopes.ts";
import { VIDEO_SCOPES } from "./routes/video/scopes.ts";
import { WEBHOOKS_SCOPES } from "./routes/webhooks/scopes.ts";

export const ROUTE_SCOPES: Readonly<Record<string, Scope | null>> = {
  ...DASHBOARD_SCOPES,
  ...DOCS_SCOPES,
  ...HEALTH_SCOPES,
  ...OPENAPI_SCOPES,
  ...METRICS_SCOPES,
  ...MCP_SCOPES,
  ...VIDEO_SCOPES,
  ...IMAGES_SCOPES,
  ...MODELS_SCOPES,
  ...JOBS_SCOPES,
  ...FOLLOW_SCOPES,
  ...CONTENT_SCOPES,
  ...BATCHES_SCOPES,
  ...USAGE_SCOPES,
  ...EVENTS_SCOPES,
  ...SUBSCRIBERS_SCOPES,
  ...WEBHOOKS_SCOPES,
  ...KEYS_SCOPES,
  ...ADMISSION_SCOPES,
  ...UPSTREAMS_SCOPES,
  ...AUDIT_SCOPES,
  ...UPLOADS_SCOPES,
};

/** hono's `/v1/jobs/:id` (or `:id{regex}`) as OpenAPI's `/v1/jobs/{id}`. */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
}

/** What `caller` may do: its key's scopes; the deployment's own key has every one. */
function scopesOf(caller: Caller): readonly Scope[] {
  return caller.scopes ?? (isAdmin(caller) ? SCOPES : LEGACY_SCOPES);
}

/**
 * The route hono matched for this call (the last that is not middleware) as the route table's
 * `METHOD /path` key; undefined for a path no route serves.
 */
export function routeKeyOf(c: Context): string | undefined {
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  const route = matchedRoutes(c).findLast((r) => r.method === method);
  return route === undefined ? undefined : `${method} ${openApiPath(route.path)}`;
}

/**
 * 403 scope_missing for a call outside the key's scopes, read off the route hono matched. A path
 * no route serves goes on to its 404.
 */
export function requireScope(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const key = routeKeyOf(c);
    const scope = key === undefined ? undefined : ROUTE_SCOPES[key];
    if (scope !== undefined && scope !== null) {
      const held = scopesOf(c.get("caller"));
      if (!held.includes(scope)) throw scopeMissing(scope, held);
    }
    await next();
  };
}
