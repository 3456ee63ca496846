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
import type { SSMProvider } from "@aws-lambda-powertools/parameters/ssm";
import { ReelayError } from "@reelay/core/domain";

/** What SST puts in `SST_Secret_value_<NAME>` for a secret it leaves in SSM. */
export const FROM_SSM = "__FETCH_FROM_SSM__";

/** The one-account form's upstream key (`npx sst secrets set UPSTREAM_API_KEY ...`). */
export const UPSTREAM_KEY_SECRET = "UPSTREAM_API_KEY";

/**
 * The secret holding a pool account's key: `UPSTREAM_API_KEY_<NAME>`, the name upper-cased with
 * `-` as `_` (account names are lowercase letters, digits and `-`, so no two accounts share one).
 */
export function accountKeySecret(account: string): string {
  return `${UPSTREAM_KEY_SECRET}_${account.toUpperCase().replaceAll("-", "_")}`;
}

/** The SSM reads a secret needs (a seam for tests that need no SSM endpoint at all). */
export type ParameterReader = (names: string[]) => Promise<Map<string, string>>;

/**
 * SSM GetParameters, decrypted, through Powertools: a name SSM does not have is left out of the
 * answer; a refused call is service_unavailable naming the AWS error type, never its message (it
 * can quote the role's ARN). Powertools and the SSM client are loaded at the first read (a chunk
 * of their own in the bundle): a secret SST bound as a value needs neither.
 */
function ssmReader(region: string | undefined): ParameterReader {
  let provider: SSMProvider | undefined;
  return async (names) => {
    provider ??= new (await import("@aws-lambda-powertools/parameters/ssm")).SSMProvider({
      clientConfig: region === undefined ? {} : { region },
    });
    let answer: Record<string, unknown>;
    try {
      answer = await provider.getParametersByName(
        Object.fromEntries(names.map((name) => [name, {}])),
        { decrypt: true, throwOnError: false },
      );
    } catch (error) {
      const type = error instanceof Error ? error.name : "Error";
      throw new ReelayError(
        "service_unavailable",
        `ssm refused to read ${names.join(", ")}: ${type}.`,
        {
          path: names.join(","),
        },
      );
    }
    return new Map(
      names.flatMap((name) => {
        const value = answer[name];
        return typeof value === "string" ? [[name, value] as const] : [];
      }),
    );
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
  return (await readSecrets([name], env, read)).get(name) as string;
}

/**
 * The values of several bound secrets, as readSecret reads one: the stage's parameters in one SSM
 * read (Powertools asks 10 at a time), then the fallbacks of those the stage lacks in a second,
 * so a pool's keys cost a cold start one round trip, not one per account.
 */
export async function readSecrets(
  names: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  read: ParameterReader = ssmReader(env.AWS_REGION),
): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  const inSsm: string[] = [];
  for (const name of names) {
    const bound = env[`SST_Secret_value_${name}`];
    if (bound === undefined) {
      throw new ReelayError(
        "secret_not_bound",
        `Secret ${name} is not bound to this function; the stack binds it.`,
        { path: name },
      );
    }
    if (bound === FROM_SSM) inSsm.push(name);
    else values.set(name, bound);
  }
  if (inSsm.length === 0) return values;
  const own = (name: string) => `${env.SST_SSM_PREFIX ?? ""}Secret/${name}/value`;
  const fallback = (name: string) => `/sst/${env.SST_APP ?? ""}/.fallback/Secret/${name}/value`;
  const staged = await read(inSsm.map(own));
  const lacking = inSsm.filter((name) => !staged.has(own(name)));
  const fallbacks =
    lacking.length === 0 ? new Map<string, string>() : await read(lacking.map(fallback));
  for (const name of inSsm) {
    const value = staged.get(own(name)) ?? fallbacks.get(fallback(name));
    if (value === undefined) {
      throw new ReelayError(
        "secret_not_set",
        `Secret ${name} has no value in stage ${env.SST_STAGE ?? "(unknown)"}: set it with \`npx sst secrets set ${name} ...\`.`,
        { path: name },
      );
    }
    values.set(name, value);
  }
  return values;
}
