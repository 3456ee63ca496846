/**
 * The deployed simulator of a trial stage: REELAY_UPSTREAM_URL=simulator synthesized on stage "try"
 * (offline, cdk-nag applied) has the Simulator function behind its own Function URL, every
 * function's upstream is that URL, and its key is the stage's UPSTREAM_API_KEY secret; stage
 * "prod" refuses the simulator before anything is built.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ReelayError } from "@reelay/core/domain";
import { recordedRoles, roleGrantLines } from "../../rehearsal/iam/grant-lines.ts";
import { explanationOf, readGrantRecord } from "../../rehearsal/iam/record.ts";
import { SIMULATOR_FUNCTION_ID } from "../../stacks/simulator.ts";
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

const DEPLOY = { REELAY_UPSTREAM_URL: "simulator" };

let synth: Synth;

beforeAll(async () => {
  synth = await synthReelay(DEPLOY, "try");
}, SYNTH_TIMEOUT_MS);

const functionsById = () =>
  Object.entries(reelayFunctions(synth.template)).map(([id, fn]) => ({
    id,
    name: shortId(id),
    props: fn.Properties as Record<string, any>,
    env: fn.Properties!.Environment.Variables as Record<string, unknown>,
  }));

const simulator = () => {
  const found = functionsById().find((fn) => fn.props.Handler === "functions/simulator.handler");
  if (found === undefined) throw new Error("no function runs functions/simulator.handler");
  return found;
};

describe("a trial stage with the deployed simulator (REELAY_UPSTREAM_URL=simulator)", () => {
  it("synthesizes on stage try with the Simulator function beside the eleven others, and cdk-nag reports no unsuppressed error", () => {
    expect(synth.nagErrors).toEqual([]);
    expect(functionsById()).toHaveLength(12);
    expect(simulator().name).toBe("SimulatorFunction");
  });

  it("gives the Simulator function a Function URL of its own, auth NONE (it checks its own Bearer key), and outputs its base URL as SimulatorUrl", () => {
    const urls = Object.entries(resourcesOf(synth.template, "AWS::Lambda::Url"));
    expect(urls).toHaveLength(1);
    const [urlId, url] = urls[0] ?? [];
    expect(url?.Properties?.AuthType).toBe("NONE");
    expect(render(url?.Properties?.TargetFunctionArn)).toBe("SimulatorFunction");
    const outputs = synth.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    // The URL's FunctionUrl attribute (it ends in "/"), then "v1".
    expect(render(outputs.SimulatorUrl?.Value)).toBe(`${shortId(String(urlId))}v1`);
  });

  it("points every function's REELAY_UPSTREAM_URL at that URL's /v1", () => {
    const outputs = synth.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    const baseUrl = render(outputs.SimulatorUrl?.Value);
    const others = functionsById().filter((fn) => fn.name !== "SimulatorFunction");
    expect(others).toHaveLength(11);
    for (const fn of others) expect(render(fn.env.REELAY_UPSTREAM_URL), fn.name).toBe(baseUrl);
  });

  it("runs the simulator on x86_64 with the ffmpeg layer, its key read from the UPSTREAM_API_KEY secret in SSM (never a value in the template)", () => {
    const { props, env } = simulator();
    expect(props.Architectures).toEqual(["x86_64"]);
    expect(props.Layers.map(render)).toEqual([expect.stringMatching(/^FfmpegLayer/)]);
    expect(env).toMatchObject({
      REELAY_FFMPEG_PATH: "/opt/ffmpeg",
      REELAY_SIMULATOR_KEY_SECRET: "UPSTREAM_API_KEY",
      SST_Secret_value_UPSTREAM_API_KEY: "__FETCH_FROM_SSM__",
    });
  });
  it("grants the Simulator function's role exactly what the full rehearsal recorded it using (stacks/grants.rehearsed.json) and the explained grants: reading its key, no more", async () => {
    const resources = synth.template.toJSON().Resources;
    const role = recordedRoles(resources).find((r) => r.name === SIMULATOR_FUNCTION_ID);
    if (role === undefined) throw new Error("no Simulator function's role");
    const deployment = { stage: "try", account: "my-account" };
    const lines = roleGrantLines(resources, role.roleLogicalId, deployment, false).map(
      (l) => l.line,
    );
    const recorded = (await readGrantRecord())[role.name] ?? [];
    expect(recorded).toEqual([
      "ssm:GetParameters arn:aws:ssm:us-east-1:{account}:parameter/sst/reelay/{stage}/Secret/UPSTREAM_API_KEY[_<ACCOUNT>]/value",
    ]);
    expect(
      lines.filter((l) => !recorded.includes(l) && explanationOf(role, l) === undefined),
    ).toEqual([]);
    expect(recorded.filter((l) => !lines.includes(l))).toEqual([]);
  });
});

// Each check builds the app, which waits its turn behind any other file's synth (stackError).
describe("the simulator on stage prod", { timeout: SYNTH_TIMEOUT_MS }, () => {
  it("is refused at synth, naming REELAY_UPSTREAM_URL", async () => {
    const error = await stackError(DEPLOY, "prod");
    expect(error).toBeInstanceOf(ReelayError);
    expect(error).toMatchObject({ code: "invalid_config", path: "REELAY_UPSTREAM_URL" });
    expect((error as Error).message).toContain('never deployed on stage "prod"');
  });

  it("is refused as a pool account's url too, naming that account's url", async () => {
    const pool = [
      { name: "real", url: "https://api.example.com/v1", api_key: "k1" },
      { name: "trial", url: "simulator", api_key: "k2" },
    ];
    const error = await stackError({ REELAY_UPSTREAMS: JSON.stringify(pool) }, "prod");
    expect(error).toMatchObject({ code: "invalid_config", path: "REELAY_UPSTREAMS[1].url" });
  });

  it("is one account's url at most in a pool (one simulator, one key), on any stage", async () => {
    const pool = ["a", "b"].map((name) => ({ name, url: "simulator", api_key: `k-${name}` }));
    const error = await stackError({ REELAY_UPSTREAMS: JSON.stringify(pool) }, "try");
    expect(error).toMatchObject({ code: "invalid_config", path: "REELAY_UPSTREAMS[1].url" });
  });
});
