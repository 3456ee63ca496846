/**
 * POST /mcp on AWS: reelay's MCP server (docs/mcp.md) in a function of its own. In the API
 * function the MCP SDK would keep all of zod in the chunk every request loads (its
 * `import * as z` shares zod's module with the request schemas), so here it costs only MCP's own
 * cold starts. It is a client of the deployment's API (REELAY_API_URL, set by the stack): the
 * caller's key is checked there before any tool runs (a read of GET /v1/models, answered as the
 * API answers it), and again on every tool's call, so a tool is allowed exactly what its route
 * allows the key. Stateless, as on the local stack: any instance answers any request.
 */
import { handleMcpRequest } from "@reelay/mcp";
import { Hono } from "hono";
import { handle } from "hono/aws-lambda";
import { functionTracer } from "./support/xray.ts";

// Each call to the API shows in the invocation's trace (Tracer instruments fetch). No metrics of
// its own: the API counts what the tools do, and Lambda counts the invocations.
functionTracer();

const BEARER = /^Bearer[ \t]+/i;

/** The deployment's API, where every tool's call goes. */
function apiUrl(): string {
  const url = process.env.REELAY_API_URL;
  if (url === undefined || url === "") throw new Error("REELAY_API_URL is not set");
  return url.replace(/\/+$/, "");
}

export const app = new Hono();
app.post("/mcp", async (c) => {
  const baseUrl = apiUrl();
  const authorization = c.req.header("authorization") ?? "";
  // The key's check, as POST /mcp makes it on the local stack (bearer auth, the read scope).
  const check = await fetch(`${baseUrl}/v1/models`, { headers: { authorization } });
  if (!check.ok) return new Response(check.body, { status: check.status, headers: check.headers });
  await check.body?.cancel();
  return handleMcpRequest(c.req.raw, {
    baseUrl,
    apiKey: authorization.replace(BEARER, "").trim(),
    fetch: (request) => fetch(request),
    // API Gateway ends a request at 30 s (and so does this function).
    maxWaitS: 20,
  });
});
// Stateless: no session to resume with GET or to end with DELETE.
app.on(["GET", "DELETE"], "/mcp", (c) =>
  c.json(
    {
      error: {
        code: "method_not_allowed",
        message: "Only POST is answered here: the MCP server is stateless",
      },
    },
    405,
    { allow: "POST" },
  ),
);

// The deployment's API did not answer: the client's to retry, as the API answers its own trouble.
app.onError((error, c) =>
  c.json(
    {
      error: {
        code: "service_unavailable",
        message: `reelay's API did not answer: ${error.message.slice(0, 200)}`,
      },
    },
    503,
    { "retry-after": "1" },
  ),
);

export const handler = handle(app);
