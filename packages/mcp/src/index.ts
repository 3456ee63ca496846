/** @reelay/mcp: reelay's MCP server (docs/mcp.md). */
export { serveStdio } from "./stdio.ts";
