/**
 * The template's HTTP API (API Gateway v2) as a local server: each request is routed as API
 * Gateway routes it, handed to the route's function as a payload format 2.0 event, and the answer
 * mapped back, with API Gateway's own limits and answers: 404 for no route, 413 past the 10 MB
 * payload quota, 503 when the integration outruns its timeout (30 s at most), 500 for a function
 * error. Every request is counted, as API Gateway bills per request.
 * (docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html)
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isPreflight, preflight, withCors, type Cors } from "./http-cors.ts";
import { httpEvent, type ReceivedRequest } from "./http-event.ts";
import { gatewayResponse, internalError, mapResult, type ApiResponse } from "./http-response.ts";
import { readHttpApi, selectRoute, type Route, type RouteMatch } from "./http-routes.ts";
import type { Invoke, Template } from "./types.ts";

/** HTTP APIs' payload quota: 10 MB, read as MiB. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

interface HttpApiOptions {
  port?: number;
  host?: string;
  /** The stage the URL addresses; `$default` (no path prefix) unless named. */
  stage?: string;
  region: string;
  accountId: string;
  /** Which HTTP API, when the template holds more than one. */
  apiLogicalId?: string;
  /** The API id requestContext reports; one derived from the logical id if not given. */
  apiId?: string;
}

export interface HttpApi {
  url: string;
  /** The template's logical id of the API served. */
  logicalId: string;
  close(): Promise<void>;
  /** Requests received, every one billed (404s and 413s included). */
  requests(): number;
}

interface Api {
  routes: Route[];
  cors: Cors | undefined;
  stage: string;
  apiId: string;
  accountId: string;
  region: string;
  invoke: Invoke;
}

/** The whole body, or "too large" once past the quota (the rest is read and dropped). */
function readBody(req: IncomingMessage): Promise<Buffer | "too large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_PAYLOAD_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_PAYLOAD_BYTES ? "too large" : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** The path without the stage prefix a named stage puts in the URL; undefined if it lacks it. */
function routedPath(rawPath: string, stage: string): string | undefined {
  if (stage === "$default") return rawPath;
  const prefix = `/${stage}`;
  if (rawPath === prefix) return "/";
  return rawPath.startsWith(`${prefix}/`) ? rawPath.slice(prefix.length) : undefined;
}

function withTimeout(api: Api, match: RouteMatch, event: unknown): Promise<ApiResponse> {
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => resolve(gatewayResponse(503, "Service Unavailable")),
      match.route.timeoutMs,
    );
    api
      .invoke(match.route.functionId, event)
      .then(
        (result) => resolve(mapResult(result)),
        () => resolve(internalError()),
      )
      .finally(() => clearTimeout(timer));
  });
}

async function answer(api: Api, req: IncomingMessage, requestId: string): Promise<ApiResponse> {
  const body = await readBody(req);
  if (body === "too large") return gatewayResponse(413, "Request Too Large");
  const url = req.url ?? "/";
  const path = routedPath(url.split("?")[0] ?? url, api.stage);
  const method = req.method ?? "GET";
  if (path === undefined) return gatewayResponse(404, "Not Found");
  if (api.cors && isPreflight(method, req.headers))
    return preflight(api.cors, String(req.headers.origin));
  const match = selectRoute(api.routes, method, path);
  if (!match) return gatewayResponse(404, "Not Found");
  const received: ReceivedRequest = {
    method,
    url,
    rawHeaders: req.rawHeaders,
    body,
    sourceIp: (req.socket.remoteAddress ?? "").replace(/^::ffff:/, ""),
    localPort: req.socket.localPort ?? 0,
    httpVersion: req.httpVersion,
  };
  const event = httpEvent(received, { ...api, match, requestId, now: new Date() });
  return withTimeout(api, match, event);
}

function send(res: ServerResponse, response: ApiResponse, requestId: string) {
  const headers = response.headers.filter(([name]) => name !== "content-length");
  headers.push(["apigw-requestid", requestId], ["content-length", String(response.body.length)]);
  res.writeHead(response.status, headers.flat());
  res.end(response.body);
}

async function handle(api: Api, req: IncomingMessage, res: ServerResponse) {
  // API Gateway's request ids are 11 random bytes, base64 (e.g. "JKJaXmPLvHcESHA=").
  const requestId = randomBytes(11).toString("base64");
  let response: ApiResponse;
  try {
    response = await answer(api, req, requestId);
  } catch {
    response = internalError();
  }
  const origin = req.headers.origin;
  if (api.cors && origin && !isPreflight(req.method ?? "", req.headers)) {
    response = withCors(response, api.cors, origin);
  }
  send(res, response, requestId);
}

/** A stable 10-character id, the shape of a real API id, so events are the same run to run. */
const apiIdOf = (logicalId: string) =>
  createHash("sha256")
    .update(logicalId)
    .digest("hex")
    .replace(/\d/g, "")
    .padEnd(10, "a")
    .slice(0, 10);

export async function startHttpApi(
  template: Template,
  invoke: Invoke,
  options: HttpApiOptions,
): Promise<HttpApi> {
  const read = readHttpApi(template, options.apiLogicalId);
  const stage = options.stage ?? "$default";
  if (read.stages.length && !read.stages.includes(stage)) {
    throw new Error(`HTTP API ${read.logicalId} has no stage ${stage} (${read.stages.join(", ")})`);
  }
  const api: Api = {
    routes: read.routes,
    cors: read.cors,
    stage,
    apiId: options.apiId ?? apiIdOf(read.logicalId),
    accountId: options.accountId,
    region: options.region,
    invoke,
  };
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    void handle(api, req, res);
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    logicalId: read.logicalId,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
