/** GET /docs (open): the API reference as one self-contained page; the machine may be offline, so no CDN. */
import { Hono } from "hono";
import type { ApiEnv } from "../api-deps.ts";
import type { OpenApiDocument } from "../openapi/document.ts";
import { renderDocsPage } from "../openapi/html.ts";

export function docsRoutes(document: () => OpenApiDocument): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  let page: string | undefined;
  routes.get("/docs", (c) => {
    page ??= renderDocsPage(document());
    return c.html(page);
  });
  return routes;
}
