/**
 * The stack synthesized (stage "test", offline) with a pool of upstream accounts in
 * REELAY_UPSTREAMS, as `sst deploy` would read it: each account's key is an SST secret bound only
 * to the steps that call the upstream, the functions get the pool without its keys, the template
 * holds no key, and cdk-nag stays clean. A bad pool fails before anything is built.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@reelay/core/wiring";
import { keyPlaceholder } from "../../stacks/upstream.ts";
import {
  reelayFunctions,
  render,
  resourcesOf,
  shortId,
  stackError,
  synthReelay,
  SYNTH_TIMEOUT_MS,
} from "./synth.ts";
import type { Synth } from "./synth.ts";

// Fixed, so the synthesized template is cached between runs like the one-account one.
const KEYS = {
  alpha: "sk-ALPHA-pool-canary-6c1f0b93e2d4a7",
  "beta-eu": "sk-BETA-pool-canary-91d2e84f07ab5c",
};
const POOL = [
  {
    name: "alpha",
    url: "https://alpha.upstream.test.invalid/v1",
    api_key: KEYS.alpha,
    models: ["os-2", "gamma-3.1"],
    concurrency: 4,
  },
  {
    name: "beta-eu",
    url: "https://beta.upstream.test.invalid/v1/",
    api_key: KEYS["beta-eu"],
    rate: 0.5,
    weight: 2,
    prices: { currency: "USD", models: { "os-2": { per_second: { default: 0.02 } } } },
  },
];
const DEPLOY = {
  REELAY_UPSTREAMS: JSON.stringify(POOL),
  REELAY_ROUTING: "ordered",
  REELAY_FALLBACK_ATTEMPTS: "1",
};
const SECRETS = ["UPSTREAM_API_KEY_ALPHA", "UPSTREAM_API_KEY_BETA_EU"];
const UPSTREAM_CALLERS = ["DownloadFunction", "PollFunction", "SubmitFunction"];

let synth: Synth;

beforeAll(async () => {
  synth = await synthReelay(DEPLOY);
}, SYNTH_TIMEOUT_MS);

const functions = () =>
  Object.entries(reelayFunctions(synth.template)).map(([id, fn]) => ({
    name: shortId(id),
    env: fn.Properties!.Environment.Variables as Record<string, unknown>,
    role: render(fn.Properties!.Role),
  }));

describe("a pool of upstream accounts on AWS", () => {
  it("synthesizes without REELAY_UPSTREAM_URL, and cdk-nag reports no unsuppressed error", () => {
    expect(synth.nagErrors).toEqual([]);
    // The ten handlers' functions and the webhook sweep's (stack.test.ts lists them).
    expect(functions()).toHaveLength(11);
    for (const { name, env } of functions()) expect("REELAY_UPSTREAM_URL" in env, name).toBe(false);
  });

  it("has no account's key anywhere in the template, nor any part of one", () => {
    const text = JSON.stringify(synth.template.toJSON());
    for (const key of Object.values(KEYS)) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(-14));
    }
    expect(text).not.toMatch(/pool-canary/);
  });

  it("gives every function the pool with each key replaced by its secret's name, and the routing settings, which the functions' loadConfig reads back as the same accounts", () => {
    const deployed = loadConfig(DEPLOY);
    const envs = functions().map(({ env }) => env);
    for (const env of envs) {
      expect(env.REELAY_UPSTREAMS).toBe(envs[0]!.REELAY_UPSTREAMS);
      expect(env.REELAY_ROUTING).toBe("ordered");
      expect(env.REELAY_FALLBACK_ATTEMPTS).toBe("1");
    }
    const listed = JSON.parse(String(envs[0]!.REELAY_UPSTREAMS)) as { api_key: string }[];
    expect(listed.map((a) => a.api_key)).toEqual([
      "secret:UPSTREAM_API_KEY_ALPHA",
      "secret:UPSTREAM_API_KEY_BETA_EU",
    ]);
    // The settings as the function has them (the resource names are tokens until deploy).
    const { REELAY_UPSTREAMS, REELAY_ROUTING, REELAY_FALLBACK_ATTEMPTS } = envs[0] as Record<
      string,
      string
    >;
    const inFunction = loadConfig({ REELAY_UPSTREAMS, REELAY_ROUTING, REELAY_FALLBACK_ATTEMPTS });
    const withoutKeys = (config: typeof deployed) =>
      config.upstreams?.map(({ apiKey: _key, prices, ...account }) => ({
        ...account,
        prices: prices?.version,
      }));
    expect(withoutKeys(inFunction)).toEqual(withoutKeys(deployed));
    expect(inFunction.upstreams?.map((a) => a.apiKey)).toEqual(
      POOL.map((a) => keyPlaceholder(a.name)),
    );
    expect(inFunction.routing).toBe("ordered");
    expect(inFunction.fallbackAttempts).toBe(1);
  });

  it("binds one secret per account (UPSTREAM_API_KEY_<NAME>) to Submit, Poll and Download only, and no one-account UPSTREAM_API_KEY", () => {
    const bound = new Map<string, string[]>();
    for (const { name, env } of functions()) {
      expect("SST_Secret_value_UPSTREAM_API_KEY" in env, name).toBe(false);
      for (const secret of SECRETS) {
        const value = env[`SST_Secret_value_${secret}`];
        if (value === undefined) continue;
        expect(value, `${name} ${secret}`).toBe("__FETCH_FROM_SSM__");
        bound.set(secret, [...(bound.get(secret) ?? []), name]);
      }
    }
    for (const secret of SECRETS)
      expect(bound.get(secret)?.sort(), secret).toEqual(UPSTREAM_CALLERS);
  });

  describe("IAM", () => {
    type Statement = { Action: string | string[]; Resource: unknown; Condition?: any };
    const statementsOf = (role: string): Statement[] =>
      Object.values(resourcesOf(synth.template, "AWS::IAM::Policy"))
        .filter((p) => render(p.Properties!.Roles[0]) === role)
        .flatMap((p) => p.Properties!.PolicyDocument.Statement as Statement[]);

    it("lets only the upstream callers read the account secrets, each from its stage parameter and the app's fallback", () => {
      for (const { name, role } of functions()) {
        const read = statementsOf(role)
          .filter((s) => [s.Action].flat().includes("ssm:GetParameters"))
          .flatMap((s) => [s.Resource].flat().map(render))
          .filter((resource) => resource.includes("UPSTREAM_API_KEY"))
          .map((resource) => resource.replace(/^arn:aws:ssm:us-east-1:[^:]+:parameter/, ""))
          .sort();
        const expected = UPSTREAM_CALLERS.includes(name)
          ? SECRETS.flatMap((secret) => [
              `/sst/reelay/.fallback/Secret/${secret}/value`,
              `/sst/reelay/test/Secret/${secret}/value`,
            ]).sort()
          : [];
        expect(read, name).toEqual(expected);
      }
    });

    it("reaches every account's admission item (admission#<name>) wherever it reaches the admission item", () => {
      let granting = 0;
      for (const { name, role } of functions()) {
        for (const statement of statementsOf(role)) {
          const keys = [statement.Condition?.["ForAllValues:StringLike"]?.["dynamodb:LeadingKeys"]]
            .flat()
            .filter((k) => k !== undefined);
          if (!keys.includes("admission")) continue;
          granting++;
          expect(keys, name).toContain("admission#*");
        }
      }
      // Submit, Poll, Finish, RecordFailure, Drop and Dispatch (the API function reaches the whole table).
      expect(granting).toBeGreaterThanOrEqual(6);
    });
  });
});

// Each check builds the app, which waits its turn behind any other file's synth (stackError).
describe("checking the pool at synth", { timeout: SYNTH_TIMEOUT_MS }, () => {
  it("fails on a bad REELAY_UPSTREAMS with one line naming the entry and the field, quoting no key", async () => {
    const bad = [POOL[0], { ...POOL[1], url: undefined }];
    const error = (await stackError({ REELAY_UPSTREAMS: JSON.stringify(bad) })) as Error & {
      code?: string;
      path?: string;
    };
    expect(error).toMatchObject({ code: "invalid_config", path: "REELAY_UPSTREAMS[1].url" });
    expect(error.message).toMatch(/REELAY_UPSTREAMS\[1\]\.url \(account "beta-eu"\)/);
    expect(error.message).not.toContain("\n");
    for (const key of Object.values(KEYS)) expect(error.message).not.toContain(key);
  });

  it("refuses a pool beside REELAY_UPSTREAM_URL", async () => {
    const error = await stackError({
      ...DEPLOY,
      REELAY_UPSTREAM_URL: "https://upstream.test.invalid/v1",
    });
    expect(error).toMatchObject({ code: "invalid_config", path: "REELAY_UPSTREAMS" });
  });

  it("refuses a pool too big for Lambda's environment, naming REELAY_UPSTREAMS", async () => {
    const models = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`model-${i}`, { per_second: { default: 0.01 } }]),
    );
    const big = POOL.map((account) => ({ ...account, prices: { currency: "USD", models } }));
    const error = await stackError({ REELAY_UPSTREAMS: JSON.stringify(big) });
    expect(error).toMatchObject({ code: "invalid_config", path: "REELAY_UPSTREAMS" });
    expect(String((error as Error).message)).toMatch(/environment holds at most 3000/);
  });
});
