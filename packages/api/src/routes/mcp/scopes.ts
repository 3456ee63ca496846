/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const MCP_SCOPES: Readonly<Record<string, Scope | null>> = {
  // Each tool's call is then checked against its own route's scope.
  "POST /mcp": "read",
};
