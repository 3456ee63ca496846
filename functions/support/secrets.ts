/**
 * SST v2 Config secrets bound to a function, read the way sst/node/config reads them, but through
 * Powertools Parameters and the project's own SDK: sst/node/config brings SST's pinned, older SDK
 * copy (client-ssm, its credential providers, STS, SSO) into every bundle that imports it.
 *
 * SST puts `SST_Secret_value_<NAME>` on the function: the value itself, or `__FETCH_FROM_SSM__`,
 * meaning SSM parameter `<SST_SSM_PREFIX>Secret/<NAME>/value`, else the app-wide fallback
 * `/sst/<SST_APP>/.fallback/Secret/<NAME>/value`. The function's IAM policy from `bind` allows
 * ssm:GetParameters on both, the call Powertools' getParametersByName makes.
 */
import { ReelayError } from "@reelay/core/errors";
import type { ParameterReader } from "./ssm-reader.ts";

const FROM_SSM = "__FETCH_FROM_SSM__";

export type { ParameterReader };

/**
 * SSM through Powertools Parameters (ssm-reader.ts), loaded at the first read: a function whose
 * secrets are all values on the function never evaluates the SSM client.
 */
function ssmReader(region: string | undefined): ParameterReader {
  let read: ParameterReader | undefined;
  return async (names) => {
    read ??= (await import("./ssm-reader.ts")).ssmParameters(region);
    return read(names);
  };
}

/**
 * The value of bound secret `name`; `secret_not_bound` when the function has no such binding and
 * `secret_not_set` when SSM has no value for it (`npx sst secrets set NAME ...`). Never logs it.
 */
export async function readSecret(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  read: ParameterReader = ssmReader(env.AWS_REGION),
): Promise<string> {
  const bound = env[`SST_Secret_value_${name}`];
  if (bound === undefined) {
    throw new ReelayError(
      "secret_not_bound",
      `Secret ${name} is not bound to this function; the stack binds it.`,
      { path: name },
    );
  }
  if (bound !== FROM_SSM) return bound;
  const own = `${env.SST_SSM_PREFIX ?? ""}Secret/${name}/value`;
  const fallback = `/sst/${env.SST_APP ?? ""}/.fallback/Secret/${name}/value`;
  const value = (await read([own])).get(own) ?? (await read([fallback])).get(fallback);
  if (value === undefined) {
    throw new ReelayError(
      "secret_not_set",
      `Secret ${name} has no value in stage ${env.SST_STAGE ?? "(unknown)"}: set it with \`npx sst secrets set ${name} ...\`.`,
      {
        path: name,
      },
    );
  }
  return value;
}
