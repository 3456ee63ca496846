/**
 * The route table's authorization column: the scope each route needs, written once here. The
 * scope middleware enforces it, the OpenAPI document shows it (`security: [{bearer: [scope]}]`) and
 * /docs prints it; a test checks it names every route the app serves. `null`: open, no key.
 * Kept apart from ./openapi/operations.ts so enforcing it loads no schema (a cold start's cost).
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { SCOPES, LEGACY_SCOPES, type Scope, scopeMissing } from "@reelay/core/domain";
import type { ApiEnv, Caller } from "./api-deps.ts";
import { isAdmin } from "./auth.ts";

export const ROUTE_SCOPES: Readonly<Record<string, Scope | null>> = {
  "GET /": null,
  "GET /dashboard/app.js": null,
  "GET /dashboard/client.js": null,
  "GET /dashboard/models.json": null,
  "GET /dashboard/style.css": null,
  "GET /docs": null,
  "GET /healthz": null,
  "GET /openapi.json": null,
  "GET /metrics": "admin",
  // Each tool's call is then checked against its own route's scope.
  "POST /mcp": "read",

  "POST /v1/video/generations": "write",
  "GET /v1/video/tasks/{taskId}": "read",
  "POST /v1/chat/completions": "write",
  "GET /v1/image/tasks/{taskId}": "read",
  "POST /v1/images/edits": "write",
  "GET /v1/models": "read",

  "GET /v1/jobs": "read",
  "GET /v1/jobs/{id}": "read",
  "GET /v1/jobs/{id}/events": "read",
  "GET /v1/jobs/{id}/content": "read",
  "POST /v1/jobs/{id}/cancel": "write",
  "POST /v1/jobs/{id}/retry": "write",
  "GET /v1/batches": "read",
  "POST /v1/batches": "write",
  "GET /v1/batches/{id}": "read",
  "GET /v1/batches/{id}/results": "read",
  "GET /v1/batches/{id}/events": "read",
  "POST /v1/batches/{id}/cancel": "write",
  "POST /v1/batches/{id}/retry": "write",
  "GET /v1/usage": "read",
  "GET /v1/events": "read",

  "POST /v1/webhooks": "webhooks",
  "GET /v1/webhooks": "webhooks",
  "DELETE /v1/webhooks/{id}": "webhooks",
  "POST /v1/webhooks/{id}/rotate": "webhooks",
  // The delivery log and replays span every subscriber of the deployment.
  "GET /v1/webhooks/deliveries": "admin",
  "POST /v1/webhooks/deliveries/{id}/retry": "admin",
  "POST /v1/events/{id}/replay": "admin",

  "POST /v1/keys": "admin",
  "GET /v1/keys": "admin",
  "DELETE /v1/keys/{id}": "admin",
  "PUT /v1/keys/{id}/budget": "admin",
  "DELETE /v1/keys/{id}/budget": "admin",
  "PUT /v1/keys/{id}/limits": "admin",
  "DELETE /v1/keys/{id}/limits": "admin",
  "POST /v1/keys/{id}/webhook-secret": "admin",
  "GET /v1/admission": "admin",
  "GET /v1/upstreams": "admin",
  // A stored admin key reads its project's records; the deployment's own key reads every one.
  "GET /v1/audit": "admin",
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
