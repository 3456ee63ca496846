/**
 * `reelay mcp`: reelay's MCP server over stdio, for an agent's MCP client (docs/mcp.md). It is a
 * client of any reelay, reached with the same settings as every client command (REELAY_API_URL,
 * REELAY_API_KEY or the local stack's key file). stdout carries the protocol, so messages go to
 * stderr only.
 */
import { createClient } from "@reelay/client";
import { serveStdio } from "@reelay/mcp";
import { reportFailures } from "../client/session.ts";
import { clientSettings } from "../client/settings.ts";
import { loadConfig } from "@reelay/core/wiring";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

export async function runMcp(args: string[], io: Io): Promise<number> {
  const { positionals } = parseCommandArgs(args, { options: {} });
  if (positionals.length > 0)
    throw new UsageError(
      "takes no arguments; settings come from REELAY_API_URL and REELAY_API_KEY.",
    );
  return reportFailures(io, "mcp", false, async () => {
    const { apiUrl, apiKey } = await clientSettings(loadConfig(io.env));
    io.stderr(`reelay mcp: serving reelay at ${apiUrl} over stdio\n`);
    await serveStdio(createClient({ baseUrl: apiUrl, apiKey }));
    return 0;
  });
}
