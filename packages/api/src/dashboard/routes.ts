/**
 * The dashboard at `/`: one HTML page, its ES module, @reelay/client's browser bundle (client.js,
 * committed: packages/client/scripts/browser.ts) and a stylesheet, served as files (no build step
 * at serve time, no CDN). The page holds no secret: it asks for the API key and calls the /v1 routes like
 * any client, so the routes here need no auth.
 */
import { readFile } from "node:fs/promises";
import { Hono } from "hono";
import type { ApiEnv } from "../api-deps.ts";

const ASSETS = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "client.js": "text/javascript; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
} as const;

/**
 * Scripts and styles only from this origin and nothing inline, so a job's prompt or error text
 * can never run as code next to the stored key. Previews are presigned S3 URLs on another origin.
 */
const SECURITY_HEADERS = {
  "Content-Security-Policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' http: https: data:; media-src 'self' http: https:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-cache",
};

async function asset(name: keyof typeof ASSETS): Promise<Response> {
  const body = await readFile(new URL(`./assets/${name}`, import.meta.url), "utf8");
  return new Response(body, { headers: { "Content-Type": ASSETS[name], ...SECURITY_HEADERS } });
}

/** The form's choices come from GET /v1/models, like any client's. */
export function dashboardRoutes(): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.get("/", () => asset("index.html"));
  routes.get("/dashboard/app.js", () => asset("app.js"));
  routes.get("/dashboard/client.js", () => asset("client.js"));
  routes.get("/dashboard/style.css", () => asset("style.css"));
  return routes;
}
