/** GET /docs (open): the API reference as one self-contained page; the machine may be offline, so no CDN. */
import { Hono } from "hono";
import type { ApiEnv } from "../../api-deps.ts";
import type { OpenApiDocument } from "../../openapi/document.ts";

export function docsRoutes(document: () => Promise<OpenApiDocument>): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  let page: string | undefined;
  routes.get("/docs", async (c) => {
    const { renderDocsPage } = await import("../../openapi/html.ts");
    page ??= renderDocsPage(await document());
    return c.html(page);
  });
  return routes;
}
