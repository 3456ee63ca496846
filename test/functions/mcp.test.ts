/**
 * The MCP function (functions/mcp.ts) as API Gateway runs it: each HTTP request becomes an HTTP API
 * (v2) event for its handler, through a stand-in for API Gateway made here (it has no local
 * stand-in), and the function calls a local stack's API as it calls the deployment's on AWS
 * (REELAY_API_URL). The SDK's own Client drives it through the scenarios every transport passes
 * (packages/mcp's tests), and a wrong key is refused before any tool runs.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { LocalStack } from "@reelay/local";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { handler } from "../../functions/mcp.ts";
import { toolScenarios } from "../../packages/mcp/test/support.ts";

type Event = Parameters<typeof handler>[0];

async function eventOf(req: IncomingMessage): Promise<Event> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const url = new URL(req.url ?? "/", "http://localhost");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(",") : value;
  const method = req.method ?? "GET";
  return {
    version: "2.0",
    routeKey: `${method} ${url.pathname}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    body: Buffer.concat(chunks).toString("base64"),
    isBase64Encoded: true,
    requestContext: {
      accountId: "123456789012",
      apiId: "api",
      domainName: "localhost",
      domainPrefix: "localhost",
      http: {
        method,
        path: url.pathname,
        protocol: "HTTP/1.1",
        sourceIp: "127.0.0.1",
        userAgent: "",
      },
      requestId: "request",
      routeKey: `${method} ${url.pathname}`,
      stage: "$default",
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  } as unknown as Event;
}

/** API Gateway's part: a request in, the handler's result out. */
async function apiGateway(): Promise<Server> {
  const server = createServer(async (req, res) => {
    const result = (await handler(await eventOf(req), {} as never)) as {
      statusCode: number;
      headers?: Record<string, string>;
      body: string;
      isBase64Encoded: boolean;
    };
    res.writeHead(result.statusCode, result.headers);
    res.end(Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

let gateway: Server;
const mcpUrl = () => new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`);

beforeAll(async () => {
  gateway = await apiGateway();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => gateway.close(resolve));
});

async function connect(stack: LocalStack, key: string): Promise<Client> {
  vi.stubEnv("REELAY_API_URL", stack.url);
  const client = new Client({ name: "reelay-mcp-function-test", version: "0.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

describe("the MCP function behind API Gateway, calling the deployment's API", () => {
  const { stack } = toolScenarios((started) => connect(started, started.apiKey));

  it("refuses a wrong key with the API's 401 before any tool runs", async () => {
    await expect(connect(stack(), "rk_wrong")).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('"code":"unauthorized"'),
    });
  });

  it("answers GET and DELETE with 405: it keeps no session", async () => {
    const answer = await fetch(mcpUrl(), { method: "GET" });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(
      "method_not_allowed",
    );
  });

  it("answers 503 service_unavailable when the API does not answer", async () => {
    vi.stubEnv("REELAY_API_URL", "http://127.0.0.1:1");
    const answer = await fetch(mcpUrl(), {
      method: "POST",
      headers: {
        authorization: `Bearer ${stack().apiKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    vi.stubEnv("REELAY_API_URL", stack().url);
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(
      "service_unavailable",
    );
  });
});
