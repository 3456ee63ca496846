/**
 * The payload format 2.0 event an HTTP API hands a Lambda integration, built from the request as
 * received: header names lower-cased, repeated headers and query parameters comma-joined, the
 * cookie header moved to `cookies`, and the body base64-encoded unless its content type is text.
 * (docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html)
 */
import { randomBytes } from "node:crypto";
import type { RouteMatch } from "./http-routes.ts";

/** What the server read off the wire. */
export interface ReceivedRequest {
  method: string;
  /** The request target as sent: the path (with the stage, if not $default) and query string. */
  url: string;
  /** Node's rawHeaders: name, value, name, value... in the order sent. */
  rawHeaders: string[];
  body: Buffer;
  sourceIp: string;
  localPort: number;
  httpVersion: string;
}

interface EventContext {
  match: RouteMatch;
  apiId: string;
  accountId: string;
  region: string;
  stage: string;
  requestId: string;
  now: Date;
}

/**
 * The media types HTTP APIs pass as a UTF-8 string. The documentation only says a binary body is
 * base64-encoded; this split was measured against AWS (ministackorg/ministack#766): text/*, JSON,
 * XML and JavaScript are text, and everything else, even form-urlencoded or no content type, is
 * base64.
 */
const TEXT_TYPES = new Set(["application/json", "application/xml", "application/javascript"]);

function isText(contentType: string | undefined): boolean {
  const media = contentType?.split(";")[0]?.trim().toLowerCase();
  return media !== undefined && (media.startsWith("text/") || TEXT_TYPES.has(media));
}

// Hop-by-hop headers end at API Gateway's front door and never reach the integration.
const HOP_BY_HOP = new Set(["connection", "keep-alive"]);

function collectHeaders(rawHeaders: string[]): {
  headers: Record<string, string>;
  cookies: string[];
} {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = String(rawHeaders[i]).toLowerCase();
    const value = String(rawHeaders[i + 1]);
    if (name === "cookie") {
      cookies.push(
        ...value
          .split(";")
          .map((c) => c.trim())
          .filter(Boolean),
      );
    } else if (!HOP_BY_HOP.has(name)) {
      headers[name] = name in headers ? `${headers[name]},${value}` : value;
    }
  }
  return { headers, cookies };
}

/** X-Ray's trace id form, which API Gateway stamps on every request it forwards. */
function traceId(now: Date): string {
  const epoch = Math.floor(now.getTime() / 1000)
    .toString(16)
    .padStart(8, "0");
  return `Root=1-${epoch}-${randomBytes(12).toString("hex")}`;
}

function forwardedHeaders(request: ReceivedRequest, headers: Record<string, string>, now: Date) {
  const xff = headers["x-forwarded-for"];
  headers["x-forwarded-for"] = xff ? `${xff}, ${request.sourceIp}` : request.sourceIp;
  // The port and protocol the client really used, so a function building its own URLs from them
  // links back to this server rather than to an https:443 that is not listening.
  headers["x-forwarded-port"] = String(request.localPort);
  headers["x-forwarded-proto"] = "http";
  headers["x-amzn-trace-id"] ??= traceId(now);
}

function decodeQuery(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

function queryParameters(rawQuery: string): Record<string, string> | undefined {
  if (!rawQuery) return undefined;
  const params: Record<string, string> = {};
  for (const pair of rawQuery.split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const name = decodeQuery(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? "" : decodeQuery(pair.slice(eq + 1));
    params[name] = name in params ? `${params[name]},${value}` : value;
  }
  return Object.keys(params).length ? params : undefined;
}

const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");

/** requestContext.time's CLF form: 12/Mar/2020:19:03:58 +0000. */
function clfTime(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const date = `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}`;
  return `${date}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

function bodyOf(request: ReceivedRequest, contentType: string | undefined) {
  if (request.body.length === 0) return { isBase64Encoded: false };
  return isText(contentType)
    ? { body: request.body.toString("utf8"), isBase64Encoded: false }
    : { body: request.body.toString("base64"), isBase64Encoded: true };
}

export function httpEvent(request: ReceivedRequest, context: EventContext) {
  const q = request.url.indexOf("?");
  const rawPath = q < 0 ? request.url : request.url.slice(0, q);
  const rawQueryString = q < 0 ? "" : request.url.slice(q + 1);
  const { headers, cookies } = collectHeaders(request.rawHeaders);
  forwardedHeaders(request, headers, context.now);
  // The host the client addressed, so links built from it come back here; AWS's own name without.
  const domainName = headers.host ?? `${context.apiId}.execute-api.${context.region}.amazonaws.com`;
  const { route, pathParameters } = context.match;
  const queryStringParameters = queryParameters(rawQueryString);
  return {
    version: "2.0",
    routeKey: route.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    requestContext: {
      accountId: context.accountId,
      apiId: context.apiId,
      domainName,
      domainPrefix: domainName.split(".")[0],
      http: {
        method: request.method,
        path: rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.sourceIp,
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: context.requestId,
      routeKey: route.routeKey,
      stage: context.stage,
      time: clfTime(context.now),
      timeEpoch: context.now.getTime(),
    },
    ...(pathParameters ? { pathParameters } : {}),
    ...bodyOf(request, headers["content-type"]),
  };
}
