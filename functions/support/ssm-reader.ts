/**
 * SSM GetParameters, decrypted, through Powertools Parameters' getParametersByName: the call SST's
 * `bind` allows on a secret's parameters. A name SSM does not have is left out of the answer; a
 * refused call is service_unavailable naming the AWS error type, never its message (it can quote
 * the role's ARN). Loaded by secrets.ts at its first SSM read.
 */
import { SSMProvider } from "@aws-lambda-powertools/parameters/ssm";
import { ReelayError } from "@reelay/core/errors";

/** The SSM reads a secret needs (a seam for tests that need no SSM endpoint at all). */
export type ParameterReader = (names: string[]) => Promise<Map<string, string>>;

export function ssmParameters(region: string | undefined): ParameterReader {
  const provider = new SSMProvider({ clientConfig: region === undefined ? {} : { region } });
  return async (names) => {
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
        { path: names.join(",") },
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
