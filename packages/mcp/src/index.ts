/** @reelay/mcp: reelay's MCP server (docs/mcp.md), over stdio or one HTTP request at a time. */
export { handleMcpRequest } from "./http.ts";
export { serveStdio } from "./stdio.ts";
