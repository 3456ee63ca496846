/**
 * The infra tests' template: the real SST app synthesized offline (stage "test", no AWS
 * credentials) with cdk-nag's AwsSolutions pack applied (rehearsal/synth.ts), cached on disk while
 * no input changes, so each test file after the first reads it.
 */
import { readFile, writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { Template } from "aws-cdk-lib/assertions";
import {
  type DeployEnv,
  inputsHash,
  type KeptBundle,
  keptBundles,
  reelayApp,
  synthApp,
  withDeployEnv,
  withSynthLock,
} from "../../rehearsal/synth.ts";

export type { DeployEnv };

export interface Synth {
  template: Template;
  nagErrors: { id: string; message: string }[];
}

/**
 * How long a test file's synth may take: a synth bundles every function (about a minute on a
 * loaded machine), and a file may first wait its turn behind another's (the default template and a
 * pool's are two synths after any change to their inputs).
 */
export const SYNTH_TIMEOUT_MS = 300_000;

/** One cached template per stage and set of deploy settings; the default keeps the plain file name. */
function cacheFile(env: DeployEnv, stage: string): string {
  if (Object.keys(env).length === 0 && stage === "test") return ".sst/reelay-test-synth.json";
  const id = createHash("sha256")
    .update(JSON.stringify([stage, env]))
    .digest("hex")
    .slice(0, 16);
  return `.sst/reelay-test-synth-${id}.json`;
}

/**
 * Each test file that needs the template calls this; the first synthesizes (SST bundles every
 * function, tens of seconds), the others reuse its result while no input file has changed.
 */
export function synthReelay(env: DeployEnv = {}, stage = "test"): Promise<Synth> {
  return withSynthLock(async () => {
    const key = await inputsHash(env, stage);
    const file = cacheFile(env, stage);
    const cached = await readFile(file, "utf8").then(
      (text) =>
        JSON.parse(text) as { key: string; template: object; nagErrors: Synth["nagErrors"] },
      () => undefined,
    );
    if (cached?.key === key)
      return {
        template: Template.fromJSON(cached.template as Record<string, unknown>),
        nagErrors: cached.nagErrors,
      };
    const fresh = await synthApp({ stage, env, nag: true });
    await writeFile(
      file,
      JSON.stringify({ key, template: fresh.template.toJSON(), nagErrors: fresh.nagErrors }),
    );
    return fresh;
  });
}

/** What building the stack with these deploy settings throws (a bad config fails before any bundling). */
export function stackError(env: DeployEnv, stage = "test"): Promise<unknown> {
  // SST builds functions only when the app finishes, but its App rewrites .sst/types as it is made
  // (removes the folder, then writes index.ts): beside another file's synth, one of the two meets
  // ENOENT. So this too takes its turn.
  return withSynthLock(() =>
    withDeployEnv(env, () =>
      reelayApp(stage, true).then(
        () => undefined,
        (error: unknown) => error,
      ),
    ),
  );
}

type Resources = Record<string, { Type: string; Properties?: Record<string, any> }>;

export function resourcesOf(template: Template, type?: string): Resources {
  const all = template.toJSON().Resources as Resources;
  return Object.fromEntries(
    Object.entries(all).filter(([, r]) => type === undefined || r.Type === type),
  );
}

/** Logical id without CDK's 8-hex-digit hash: `Bucket83908E77` -> `Bucket`. */
export function shortId(logicalId: string): string {
  return logicalId.replace(/[0-9A-F]{8}$/, "");
}

/**
 * A CloudFormation value as readable text: GetAtt/Ref become the short logical id, the partition
 * is "aws", joins are concatenated. `Bucket/outputs/*`, `Jobs/index/gsi1`.
 */
export function render(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(render).join(",");
  const v = value as Record<string, any>;
  if (v["Fn::GetAtt"]) return shortId(v["Fn::GetAtt"][0]);
  if (v.Ref === "AWS::Partition") return "aws";
  if (v.Ref) return shortId(v.Ref);
  if (v["Fn::Join"]) return (v["Fn::Join"][1] as unknown[]).map(render).join(v["Fn::Join"][0]);
  return JSON.stringify(value);
}

/** Logical ids of reelay's own functions (not CDK's or SST's providers), by handler. */
export function reelayFunctions(template: Template): Resources {
  return Object.fromEntries(
    Object.entries(resourcesOf(template, "AWS::Lambda::Function")).filter(([, r]) =>
      String(r.Properties?.Handler ?? "").startsWith("functions/"),
    ),
  );
}

/** The deploy settings of the stage with the deployed simulator: it has every function there is. */
const EVERY_FUNCTION: { env: DeployEnv; stage: string } = {
  env: { REELAY_UPSTREAM_URL: "simulator" },
  stage: "try",
};

/**
 * Each function's bundle as SST built it for the template, by handler ("functions/api.handler"),
 * with esbuild's metafile (kept by the synth, rehearsal/synth.ts): what a deploy uploads. When some
 * of `handlers` have none for the code as it is (no synth of it yet), a synth of the stage with
 * every function makes them; one already made is reused, as every synth reuses it.
 */
export function sstBundles(handlers: readonly string[]): Promise<Map<string, KeptBundle>> {
  return withSynthLock(async () => {
    const kept = await keptBundles();
    if (handlers.every((handler) => kept.has(handler))) return kept;
    await synthApp({ ...EVERY_FUNCTION, nag: false });
    return keptBundles();
  });
}
