/**
 * GET /metrics (admin key only, as a bearer token, which is how Prometheus sends one): the local
 * stack's metrics in Prometheus text. Outside /v1 because that is where scrapers look; it spans
 * every key's jobs, so a stored key is refused like on /v1/admission.
 */
import { Hono } from "hono";
import { bearerAuth, forbidden, isAdmin } from "../../auth.ts";
import type { ApiDeps, ApiEnv } from "../../api-deps.ts";
import { requireScope } from "../../route-scopes.ts";

export function metricsRoutes(
  authenticate: ApiDeps["authenticate"],
  scrape: NonNullable<ApiDeps["scrape"]>,
): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.use("/metrics", bearerAuth(authenticate), requireScope());
  routes.get("/metrics", async (c) => {
    if (!isAdmin(c.get("caller")))
      throw forbidden("Only the deployment's own API key reads the metrics, which span every key.");
    const { contentType, text } = await scrape();
    return c.body(text, 200, { "Content-Type": contentType, "Cache-Control": "no-store" });
  });
  return routes;
}
