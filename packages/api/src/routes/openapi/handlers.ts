/** GET /openapi.json (open): the document for exactly the routes this app serves. */
import { Hono } from "hono";
import type { ApiEnv } from "../../api-deps.ts";
import type { OpenApiDocument } from "../../openapi/document.ts";

export function openApiRoutes(document: () => Promise<OpenApiDocument>): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.get("/openapi.json", async (c) => c.json(await document()));
  return routes;
}
