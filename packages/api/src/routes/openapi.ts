/** GET /openapi.json (open): the document for exactly the routes this app serves. */
import { Hono } from "hono";
import type { ApiEnv } from "../api-deps.ts";
import type { OpenApiDocument } from "../openapi/document.ts";

export function openApiRoutes(document: () => OpenApiDocument): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.get("/openapi.json", (c) => c.json(document()));
  return routes;
}
