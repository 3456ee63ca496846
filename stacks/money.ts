/**
 * The operator's price table and the deployment's budget, taken at deploy time like the admission
 * settings: checked by loadConfig when the app is synthesized, then handed to every function as
 * the same text, so the table's version (its sha256) is the same on AWS as where it was checked.
 */
import { ReelayError } from "@reelay/core/domain";
import type { Config } from "@reelay/core/wiring";

/**
 * Lambda holds at most 4 KB of environment in all; the other settings take well under 1 KB. The
 * price table, the budget and a pool (stacks/upstream.ts) share the rest.
 */
export const MAX_SETTINGS_ENV_BYTES = 3_000;

export function moneyEnvironment(
  config: Pick<Config, "prices" | "budget"> & Partial<Pick<Config, "keyLimits">>,
): Record<string, string> {
  const env: Record<string, string> = {
    ...(config.prices === undefined ? {} : { REELAY_PRICES: config.prices.text }),
    ...(config.budget === undefined ? {} : { REELAY_BUDGET: JSON.stringify(config.budget) }),
    ...keyLimitsEnvironment(config.keyLimits),
  };
  const bytes = Object.values(env).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  if (bytes > MAX_SETTINGS_ENV_BYTES)
    throw new ReelayError(
      "invalid_config",
      `REELAY_PRICES is ${bytes} bytes; Lambda's environment holds at most ${MAX_SETTINGS_ENV_BYTES} of it. Write the table without spaces, or price fewer models.`,
      { path: "REELAY_PRICES" },
    );
  return env;
}

/** REELAY_KEY_LIMITS as checked at synth, for the API (rate, max_queued) and Dispatch (max_in_flight). */
function keyLimitsEnvironment(limits: Config["keyLimits"] | undefined): Record<string, string> {
  if (limits === undefined) return {};
  const { keys, deployment } = limits;
  const text = JSON.stringify(
    Object.keys(deployment).length === 0 ? keys : { ...keys, deployment },
  );
  return text === "{}" ? {} : { REELAY_KEY_LIMITS: text };
}
