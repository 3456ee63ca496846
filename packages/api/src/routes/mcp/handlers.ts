/**
 * POST /mcp: reelay's MCP server over streamable HTTP, stateless, for agents that reach reelay over
 * the network (docs/mcp.md). The caller's bearer key is checked here as on every /v1 route; each
 * tool then calls the API in-process with that same key, so a tool is allowed exactly what its
 * route allows the key.
 */
import { Hono } from "hono";
import type { ApiEnv, McpHandler, ResolvedDeps } from "../../api-deps.ts";
import { bearerAuth } from "../../auth.ts";
import { requireScope } from "../../route-scopes.ts";

const BEARER = /^Bearer[ \t]+/i;

export function mcpRoutes(
  deps: ResolvedDeps,
  handle: McpHandler,
  fetchApp: (request: Request) => Promise<Response>,
): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.use(bearerAuth(deps.authenticate), requireScope());
  routes.post("/", (c) =>
    handle(c.req.raw, {
      baseUrl: new URL(c.req.url).origin,
      apiKey: (c.req.header("authorization") ?? "").replace(BEARER, "").trim(),
      fetch: fetchApp,
      maxWaitS: deps.maxWaitS,
    }),
  );
  return routes;
}
