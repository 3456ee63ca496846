/**
 * readSecret follows SST v2's binding protocol (the env names and SSM paths sst/node/config uses).
 * SSM has no local stand-in: the parameter reader is replaced by a map of parameters, and the test
 * records which names were asked for.
 */
import { describe, expect, it } from "vitest";
import {
  accountKeySecret,
  readSecret,
  readSecrets,
  type ParameterReader,
} from "../../functions/support/secrets.ts";

function parameters(values: Record<string, string>): { read: ParameterReader; asked: string[][] } {
  const asked: string[][] = [];
  const read: ParameterReader = async (names) => {
    asked.push(names);
    return new Map(
      names.flatMap((name) => (name in values ? [[name, values[name] as string] as const] : [])),
    );
  };
  return { read, asked };
}

const ENV = { SST_APP: "reelay", SST_STAGE: "prod", SST_SSM_PREFIX: "/sst/reelay/prod/" };

describe("readSecret", () => {
  it("reads a bound secret from the stage's SSM parameter, decrypted, and asks for nothing else", async () => {
    const ssm = parameters({ "/sst/reelay/prod/Secret/UPSTREAM_API_KEY/value": "sk-stage" });
    const value = await readSecret(
      "UPSTREAM_API_KEY",
      { ...ENV, SST_Secret_value_UPSTREAM_API_KEY: "__FETCH_FROM_SSM__" },
      ssm.read,
    );
    expect(value).toBe("sk-stage");
    expect(ssm.asked).toEqual([["/sst/reelay/prod/Secret/UPSTREAM_API_KEY/value"]]);
  });

  it("falls back to the app-wide fallback parameter when the stage has none", async () => {
    const ssm = parameters({ "/sst/reelay/.fallback/Secret/REELAY_API_KEY/value": "fallback" });
    const value = await readSecret(
      "REELAY_API_KEY",
      { ...ENV, SST_Secret_value_REELAY_API_KEY: "__FETCH_FROM_SSM__" },
      ssm.read,
    );
    expect(value).toBe("fallback");
    expect(ssm.asked).toEqual([
      ["/sst/reelay/prod/Secret/REELAY_API_KEY/value"],
      ["/sst/reelay/.fallback/Secret/REELAY_API_KEY/value"],
    ]);
  });

  it("a value put on the function itself is used as it is, without SSM", async () => {
    const ssm = parameters({});
    expect(
      await readSecret(
        "REELAY_WEBHOOKS",
        { ...ENV, SST_Secret_value_REELAY_WEBHOOKS: "[]" },
        ssm.read,
      ),
    ).toBe("[]");
    expect(ssm.asked).toEqual([]);
  });

  it("an unbound secret is secret_not_bound and an unset one secret_not_set, naming the secret and not any value", async () => {
    const ssm = parameters({ "/sst/reelay/prod/Secret/OTHER/value": "sk-other" });
    await expect(readSecret("UPSTREAM_API_KEY", ENV, ssm.read)).rejects.toMatchObject({
      code: "secret_not_bound",
      path: "UPSTREAM_API_KEY",
    });
    const unset = readSecret(
      "UPSTREAM_API_KEY",
      { ...ENV, SST_Secret_value_UPSTREAM_API_KEY: "__FETCH_FROM_SSM__" },
      ssm.read,
    );
    await expect(unset).rejects.toMatchObject({ code: "secret_not_set", path: "UPSTREAM_API_KEY" });
    await expect(unset).rejects.toThrow(/npx sst secrets set UPSTREAM_API_KEY/);
    await expect(unset).rejects.not.toThrow(/sk-other/);
  });

  it("reads a pool's account keys in one SSM read, then only the missing ones' fallbacks in a second, and takes a value bound on the function as it is", async () => {
    const ssm = parameters({
      "/sst/reelay/prod/Secret/UPSTREAM_API_KEY_ALPHA/value": "sk-alpha",
      "/sst/reelay/.fallback/Secret/UPSTREAM_API_KEY_BETA_EU/value": "sk-beta",
    });
    const names = ["alpha", "beta-eu", "gamma"].map(accountKeySecret);
    expect(names).toEqual([
      "UPSTREAM_API_KEY_ALPHA",
      "UPSTREAM_API_KEY_BETA_EU",
      "UPSTREAM_API_KEY_GAMMA",
    ]);
    const env = {
      ...ENV,
      SST_Secret_value_UPSTREAM_API_KEY_ALPHA: "__FETCH_FROM_SSM__",
      SST_Secret_value_UPSTREAM_API_KEY_BETA_EU: "__FETCH_FROM_SSM__",
      SST_Secret_value_UPSTREAM_API_KEY_GAMMA: "sk-gamma",
    };
    const values = await readSecrets(names, env, ssm.read);
    expect(Object.fromEntries(values)).toEqual({
      UPSTREAM_API_KEY_ALPHA: "sk-alpha",
      UPSTREAM_API_KEY_BETA_EU: "sk-beta",
      UPSTREAM_API_KEY_GAMMA: "sk-gamma",
    });
    expect(ssm.asked).toEqual([
      [
        "/sst/reelay/prod/Secret/UPSTREAM_API_KEY_ALPHA/value",
        "/sst/reelay/prod/Secret/UPSTREAM_API_KEY_BETA_EU/value",
      ],
      ["/sst/reelay/.fallback/Secret/UPSTREAM_API_KEY_BETA_EU/value"],
    ]);
    await expect(
      readSecrets([...names, "UPSTREAM_API_KEY_DELTA"], env, ssm.read),
    ).rejects.toMatchObject({ code: "secret_not_bound", path: "UPSTREAM_API_KEY_DELTA" });
  });
});
