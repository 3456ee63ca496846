/**
 * How the functions reach the upstream on AWS, from the config read at deploy time: where it is
 * goes into every function's environment, its keys are SST secrets (SSM), bound only to the steps
 * that call it (job-flow.ts), and never a value in the template.
 *
 * - One account: REELAY_UPSTREAM_URL, and the key in secret UPSTREAM_API_KEY.
 * - A pool (REELAY_UPSTREAMS): one secret per account, UPSTREAM_API_KEY_<NAME>. The functions get
 *   the pool as REELAY_UPSTREAMS again, each `api_key` replaced by a placeholder naming its
 *   secret, with REELAY_ROUTING and REELAY_FALLBACK_ATTEMPTS beside it: every function that
 *   admits, releases or routes a job knows the accounts, and those that call the upstream read
 *   each account's key from its secret (functions/support/deps.ts), never from the placeholder.
 * - The simulator (REELAY_UPSTREAM_URL=simulator, or one pool account's `url`): deployed as a
 *   function of its own (simulator.ts), its URL in place of `simulator`, its key that account's.
 */
import { Config, type Stack as SstStack } from "sst/constructs";
import { ReelayError, type UpstreamAccount } from "@reelay/core/domain";
import { type Config as Settings, SIMULATOR_URL } from "@reelay/core/wiring";
import { accountKeySecret, FROM_SSM, UPSTREAM_KEY_SECRET } from "../functions/support/secrets.ts";
import { MAX_SETTINGS_ENV_BYTES, moneyEnvironment } from "./money.ts";
import { createSimulator, type DeployedSimulator, refuseOnProduction } from "./simulator.ts";

/** Stage "test" (the infra tests) synthesizes without a real upstream; every other stage needs one. */
const TEST_UPSTREAM_URL = "https://upstream.test.invalid/v1";

export interface UpstreamAccess {
  /** For every function: where the upstream is, never a key. */
  environment: Record<string, string>;
  /** The key secrets, for the functions that call the upstream only. */
  keys: Config.Secret[];
  /** The deployed simulator, when the upstream (or a pool account) is `simulator`. */
  simulator?: DeployedSimulator;
}

export function upstreamAccess(stack: SstStack, stage: string, config: Settings): UpstreamAccess {
  if (config.upstreams === undefined) return oneAccount(stack, stage, config);
  const keys = config.upstreams.map(
    (account) => new Config.Secret(stack, accountKeySecret(account.name)),
  );
  const named = config.upstreams.flatMap((account, i) =>
    account.url === SIMULATOR_URL ? [i] : [],
  );
  const [at, another] = named;
  if (another !== undefined)
    throw new ReelayError(
      "invalid_config",
      `REELAY_UPSTREAMS names the simulator as the url of ${named.length} accounts; one at most (one simulator, one key).`,
      { path: `REELAY_UPSTREAMS[${another}].url` },
    );
  const key = at === undefined ? undefined : keys[at];
  if (at === undefined || key === undefined) return { environment: poolEnvironment(config), keys };
  refuseOnProduction(stage, `REELAY_UPSTREAMS[${at}].url`);
  const simulator = createSimulator(stack, key);
  return { environment: poolEnvironment(config, simulator.baseUrl), keys, simulator };
}

function oneAccount(stack: SstStack, stage: string, config: Settings): UpstreamAccess {
  // Set with `npx sst secrets set UPSTREAM_API_KEY ...`; functions fetch it from SSM at cold start.
  const key = new Config.Secret(stack, UPSTREAM_KEY_SECRET);
  if (!config.upstreamSimulator)
    return {
      environment: { REELAY_UPSTREAM_URL: upstreamUrlFor(stage, config.upstreamUrl) },
      keys: [key],
    };
  refuseOnProduction(stage, "REELAY_UPSTREAM_URL");
  const simulator = createSimulator(stack, key);
  return { environment: { REELAY_UPSTREAM_URL: simulator.baseUrl }, keys: [key], simulator };
}

function upstreamUrlFor(stage: string, configured: string | undefined): string {
  const url = configured ?? (stage === "test" ? TEST_UPSTREAM_URL : undefined);
  if (url === undefined) {
    throw new ReelayError(
      "invalid_config",
      "REELAY_UPSTREAM_URL (a base URL ending in /v1) or REELAY_UPSTREAMS (a pool) must be set to deploy reelay.",
      { path: "REELAY_UPSTREAM_URL" },
    );
  }
  return url;
}

/** What stands in a function's REELAY_UPSTREAMS for an account's key: the secret that holds it. */
export function keyPlaceholder(account: string): string {
  return `secret:${accountKeySecret(account)}`;
}

/**
 * A Function URL's base URL at its longest (a 32-character id, the longest region name): what the
 * deployed simulator's URL, a token until deploy, counts for in the environment's bytes.
 */
const FUNCTION_URL_BYTES = `https://${"x".repeat(32)}.lambda-url.ap-southeast-2.on.aws/v1`;

/**
 * The pool as the functions get it, an account whose url is `simulator` given `simulatorUrl`. It
 * shares Lambda's 4 KB of environment with the price table and the budget (an account's own prices
 * are in it too), and on the upstream callers with the variable SST binds for each account's
 * secret, so all of these together are bounded.
 */
export function poolEnvironment(
  config: Pick<Settings, "upstreams" | "routing" | "fallbackAttempts" | "prices" | "budget">,
  simulatorUrl?: string,
): Record<string, string> {
  const pool = (url: string | undefined) =>
    JSON.stringify((config.upstreams ?? []).map((account) => withoutKey(account, url)));
  const env = {
    REELAY_UPSTREAMS: pool(simulatorUrl),
    REELAY_ROUTING: config.routing,
    REELAY_FALLBACK_ATTEMPTS: String(config.fallbackAttempts),
  };
  const bindings = (config.upstreams ?? []).map(
    (account) => `SST_Secret_value_${accountKeySecret(account.name)}${FROM_SSM}`,
  );
  const counted = { ...env, REELAY_UPSTREAMS: pool(FUNCTION_URL_BYTES) };
  const bytes = [...Object.values(counted), ...Object.values(moneyEnvironment(config)), ...bindings]
    .map((text) => Buffer.byteLength(text))
    .reduce((sum, n) => sum + n, 0);
  if (bytes > MAX_SETTINGS_ENV_BYTES)
    throw new ReelayError(
      "invalid_config",
      `REELAY_UPSTREAMS (without its keys, with a secret per account) and REELAY_PRICES take ${bytes} bytes; Lambda's environment holds at most ${MAX_SETTINGS_ENV_BYTES} of them. Give fewer accounts their own prices, or write the tables without spaces.`,
      { path: "REELAY_UPSTREAMS" },
    );
  return env;
}

/** An account in REELAY_UPSTREAMS's own form, its key replaced by the placeholder. */
function withoutKey(account: UpstreamAccount, simulatorUrl?: string): Record<string, unknown> {
  return {
    name: account.name,
    url: account.url === SIMULATOR_URL ? (simulatorUrl ?? account.url) : account.url,
    api_key: keyPlaceholder(account.name),
    ...(account.models === undefined ? {} : { models: account.models }),
    ...(account.concurrency === undefined ? {} : { concurrency: account.concurrency }),
    ...(account.ratePerS === undefined ? {} : { rate: account.ratePerS }),
    weight: account.weight,
    // The table's text as checked, so the functions compute the same price version from it.
    ...(account.prices === undefined ? {} : { prices: JSON.parse(account.prices.text) }),
  };
}
