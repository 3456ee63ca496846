/**
 * SST v2 Config secrets bound to a function, read the way sst/node/config reads them, but with the
 * project's own AWS SDK: sst/node/config brings SST's pinned, older SDK copy (client-ssm, its
 * credential providers, STS, SSO) into every bundle that imports it, 650 KB of a 1.4 MB function.
 *
 * SST puts `SST_Secret_value_<NAME>` on the function: the value itself, or `__FETCH_FROM_SSM__`,
 * meaning SSM parameter `<SST_SSM_PREFIX>Secret/<NAME>/value`, else the app-wide fallback
 * `/sst/<SST_APP>/.fallback/Secret/<NAME>/value`. The function's IAM policy from `bind` covers both.
 */
import { ReelayError } from "@reelay/core/domain";
import { signedPost } from "./signed-call.ts";

const FROM_SSM = "__FETCH_FROM_SSM__";

/** The SSM calls a secret read needs (a seam for tests; SSM has no local stand-in). */
export type ParameterReader = (names: string[]) => Promise<Map<string, string>>;

/** SSM GetParameters (decrypted), signed by hand: functions/support/signed-call.ts says why. */
function ssmReader(region: string | undefined): ParameterReader {
  return async (names) => {
    const text = await signedPost({
      service: "ssm",
      region: region ?? process.env.AWS_REGION ?? "us-east-1",
      path: "/",
      headers: {
        "content-type": "application/x-amz-json-1.1",
        "x-amz-target": "AmazonSSM.GetParameters",
      },
      body: JSON.stringify({ Names: names, WithDecryption: true }),
      expect: 200,
      what: `read ${names.join(", ")}`,
      subject: names.join(","),
    });
    const { Parameters = [] } = JSON.parse(text) as {
      Parameters?: { Name?: string; Value?: string }[];
    };
    return new Map(
      Parameters.flatMap((p) =>
        p.Name === undefined || p.Value === undefined ? [] : [[p.Name, p.Value] as const],
      ),
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
