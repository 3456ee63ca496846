/**
 * The server over stdio, as a desktop MCP client runs it (`npx reelay mcp`): JSON-RPC on stdin and
 * stdout, so nothing else may write to stdout. Resolves when the client closes the connection.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { ReelayClient } from "@reelay/client";
import { createReelayMcpServer } from "./server.ts";

export async function serveStdio(client: ReelayClient): Promise<void> {
  // The server runs on the agent's machine: material may name its files.
  const server = createReelayMcpServer(client, { localFiles: true });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  // The transport does not watch for the end of stdin; a client that closes it is done with us.
  process.stdin.once("end", () => void server.close());
  await server.connect(transport);
  await closed;
}
