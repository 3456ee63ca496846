/**
 * What every client command shares: connect with the settings from Config, and turn a failure into
 * the exit code and message the CLI promises: 2 when reelay cannot be reached or the key is wrong
 * (nothing about the job is known), 1 when reelay refused the request or the job failed.
 */
import { isReelayError, type Issue } from "@reelay/core/domain";
import { loadConfig, type Config } from "@reelay/core/wiring";
import type { Io } from "../io.ts";
import { ReelayApiClient } from "./api.ts";
import { clientSettings } from "./settings.ts";

const SETUP_CODES = new Set([
  "api_unreachable",
  "unauthorized",
  "no_api_key",
  "invalid_config",
  "bad_response",
]);

export interface Session {
  client: ReelayApiClient;
  config: Config;
}

/** `config` defaults to the settings in the command's environment. */
export async function openSession(
  io: Pick<Io, "env">,
  config: Config = loadConfig(io.env),
): Promise<Session> {
  return { client: new ReelayApiClient(await clientSettings(config)), config };
}

/** Runs `body`, reporting a thrown ReelayError on stderr (and as `{"error": …}` on stdout for --json). */
export async function reportFailures(
  io: Io,
  command: string,
  json: boolean,
  body: () => Promise<number>,
): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (!isReelayError(error)) throw error;
    const errors = ((error.details?.errors as Issue[] | undefined) ?? []).filter(Boolean);
    if (json)
      io.stdout(
        `${JSON.stringify({ error: { code: error.code, message: error.message, ...(error.path ? { path: error.path } : {}), errors } })}\n`,
      );
    io.stderr(
      `reelay ${command}: ${error.message}${isReelayError(error, "api_unreachable") ? "" : ` [${error.code}]`}\n${formatIssues(errors, "error")}`,
    );
    return SETUP_CODES.has(error.code) ? 2 : 1;
  }
}

export function formatIssues(issues: readonly Issue[], label: "error" | "warning"): string {
  return issues
    .map(
      (issue) =>
        `  ${label.padEnd(7)} ${issue.path || "(body)"}: ${issue.message} [${issue.code}]\n`,
    )
    .join("");
}
