/**
 * An HTTP API's CorsConfiguration, applied as API Gateway applies it: it answers preflight
 * requests itself (no route needed), adds the configured headers to answers for requests carrying
 * an Origin, and drops CORS headers the integration returned.
 * (docs.aws.amazon.com/apigateway/latest/developerguide/http-api-cors.html)
 */
import type { ApiResponse } from "./http-response.ts";

export type Cors = Record<string, unknown>;

const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

function allowedOrigin(cors: Cors, origin: string): string | undefined {
  const origins = list(cors.AllowOrigins);
  if (origins.includes("*")) return "*";
  return origins.includes(origin) ? origin : undefined;
}

function commonHeaders(cors: Cors, origin: string): [string, string][] {
  const allowed = allowedOrigin(cors, origin);
  if (!allowed) return [];
  const headers: [string, string][] = [["access-control-allow-origin", allowed]];
  if (cors.AllowCredentials === true) headers.push(["access-control-allow-credentials", "true"]);
  return headers;
}

export function isPreflight(
  method: string,
  headers: Record<string, string | string[] | undefined>,
) {
  return method === "OPTIONS" && !!headers.origin && !!headers["access-control-request-method"];
}

export function preflight(cors: Cors, origin: string): ApiResponse {
  const headers = commonHeaders(cors, origin);
  if (headers.length) {
    const methods = list(cors.AllowMethods);
    const allowHeaders = list(cors.AllowHeaders);
    if (methods.length) headers.push(["access-control-allow-methods", methods.join(",")]);
    if (allowHeaders.length) headers.push(["access-control-allow-headers", allowHeaders.join(",")]);
    if (typeof cors.MaxAge === "number")
      headers.push(["access-control-max-age", String(cors.MaxAge)]);
  }
  return { status: 204, headers, body: Buffer.alloc(0) };
}

export function withCors(response: ApiResponse, cors: Cors, origin: string): ApiResponse {
  const own = response.headers.filter(([name]) => !name.startsWith("access-control-"));
  const headers = [...own, ...commonHeaders(cors, origin)];
  const expose = list(cors.ExposeHeaders);
  if (expose.length && headers.length > own.length) {
    headers.push(["access-control-expose-headers", expose.join(",")]);
  }
  return { ...response, headers };
}
