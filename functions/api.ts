/**
 * The one API function behind every route. For now it answers /healthz and refuses the rest with
 * 501; the hono app (the same one the local stack serves) replaces this.
 */
import type { HttpApiEvent, HttpApiResult } from "./support/aws-events.ts";

function json(statusCode: number, body: unknown): HttpApiResult {
  return { statusCode, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

export async function handler(event: HttpApiEvent): Promise<HttpApiResult> {
  if (event.requestContext.http.method === "GET" && event.rawPath === "/healthz") return json(200, { ok: true });
  return json(501, { error: { code: "not_implemented", message: `${event.rawPath} is not served yet.` } });
}
