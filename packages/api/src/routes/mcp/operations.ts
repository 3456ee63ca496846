/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { UNAUTHORIZED } from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

export const MCP_OPERATIONS: Record<string, Operation> = {
  "POST /mcp": {
    summary: "MCP server (streamable HTTP, stateless; local stack)",
    description:
      "reelay's MCP tools for agents (docs/mcp.md): JSON-RPC 2.0 messages of the Model Context Protocol; send `Accept: application/json, text/event-stream`. Each tool calls the API with the caller's key, so it needs its route's scope.",
    tag: "service",
    auth: true,
    request: {
      contentType: "application/json",
      schema: { type: "object", description: "A JSON-RPC 2.0 request of MCP." },
      example: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    },
    response: {
      status: 200,
      contentType: "text/event-stream",
      example: 'event: message\ndata: {"result":{"tools":[...]},"jsonrpc":"2.0","id":1}',
      description: "The JSON-RPC answer, after the call's progress notifications.",
    },
    errors: [UNAUTHORIZED],
  },
};
