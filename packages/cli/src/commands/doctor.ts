/**
 * `reelay doctor [--json]`: checks a running reelay (REELAY_API_URL, with REELAY_API_KEY or the
 * local stack's key file), one line per check and, for a failed one, what to do. `--json` prints
 * the checks as an array of `{check, ok, detail, fix}`. Exit 0 when every check passed, 1 when one
 * failed (a check that cannot be made from here passes, its detail starting "not checked").
 */
import { isReelayError } from "@reelay/core/domain";
import { loadConfig } from "@reelay/core/wiring";
import { ReelayApiClient } from "../client/api.ts";
import {
  type CheckResult,
  quoteCheck,
  reachableCheck,
  runProbes,
  scopesCheck,
  secretsCheck,
  subscribersCheck,
  upstreamChecks,
  versionCheck,
} from "../client/doctor-checks.ts";
import { clientSettings } from "../client/settings.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

/** The client, with no key when none is set: the checks that need one then say so. */
async function doctorClient(io: Io): Promise<ReelayApiClient> {
  const config = loadConfig(io.env);
  try {
    return new ReelayApiClient(await clientSettings(config));
  } catch (error) {
    if (!isReelayError(error, "no_api_key")) throw error;
    return new ReelayApiClient({ apiUrl: config.apiUrl.replace(/\/+$/, ""), apiKey: "" });
  }
}

async function runChecks(client: ReelayApiClient): Promise<CheckResult[]> {
  const reachable = await reachableCheck(client);
  if (reachable.health === undefined) return [reachable.result];
  const probes = await runProbes(client);
  return [
    reachable.result,
    versionCheck(reachable.health),
    scopesCheck(probes),
    ...upstreamChecks(probes),
    secretsCheck(probes),
    subscribersCheck(probes),
    quoteCheck(probes),
  ];
}

function line(result: CheckResult, width: number): string {
  const head = `${result.ok ? "ok  " : "FAIL"}  ${result.check.padEnd(width)}  ${result.detail}`;
  return result.fix === null ? `${head}\n` : `${head} -> ${result.fix}\n`;
}

export async function runDoctor(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: { json: { type: "boolean", default: false } },
  });
  if (positionals.length > 0) throw new UsageError("doctor takes no arguments; use --json.");
  const results = await runChecks(await doctorClient(io));
  if (values.json) io.stdout(`${JSON.stringify(results)}\n`);
  else {
    const width = Math.max(...results.map((r) => r.check.length));
    io.stdout(results.map((r) => line(r, width)).join(""));
  }
  return results.every((r) => r.ok) ? 0 : 1;
}
