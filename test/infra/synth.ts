/**
 * Synthesizes the real SST app offline (stage "test", no AWS credentials) with cdk-nag's
 * AwsSolutions pack applied, once per test file.
 */
import { createHash } from "node:crypto";
import { cp, mkdir, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Aspects } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { App, getStack } from "sst/constructs";
import { initProject } from "sst/project.js";
import { useRuntimeHandlers } from "sst/runtime/handlers.js";
import { applyAppDefaults } from "../../stacks/defaults.ts";
import { ReelayStack } from "../../stacks/ReelayStack.ts";

export interface Synth {
  template: Template;
  nagErrors: { id: string; message: string }[];
}

const LOCK_DIR = ".sst/reelay-test-synth.lock";
// Longer than a synth on a loaded machine: a live holder's lock is never taken over.
const STALE_LOCK_MS = 600_000;

/**
 * How long a test file's synth may take: a synth bundles every function (about a minute on a
 * loaded machine), and a file may first wait its turn behind another's (the default template and a
 * pool's are two synths after any change to their inputs).
 */
export const SYNTH_TIMEOUT_MS = 300_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lock is free to take over when its holder died (a killed test run) or it is very old. */
async function lockIsStale(): Promise<boolean> {
  const holder = Number(await readFile(join(LOCK_DIR, "pid"), "utf8").catch(() => "NaN"));
  const age = await stat(LOCK_DIR).then(
    (s) => Date.now() - s.mtimeMs,
    () => 0,
  );
  return (Number.isInteger(holder) && !alive(holder)) || age > STALE_LOCK_MS;
}

/**
 * SST builds every function into the same .sst/artifacts folders, so two test files synthesizing
 * at once (vitest runs files in parallel) would write over each other: take turns.
 */
async function withSynthLock<T>(work: () => Promise<T>): Promise<T> {
  await mkdir(".sst", { recursive: true });
  for (;;) {
    try {
      await mkdir(LOCK_DIR);
      await writeFile(join(LOCK_DIR, "pid"), String(process.pid));
      break;
    } catch {
      if (await lockIsStale()) await rm(LOCK_DIR, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await work();
  } finally {
    await rm(LOCK_DIR, { recursive: true, force: true });
  }
}

/**
 * The settings a synth reads at deploy time, beyond the test's own environment (a pool, say): set
 * while the stack is built, as `sst deploy` would find them, and put back after.
 */
export type DeployEnv = Record<string, string>;

/** One cached template per set of deploy settings; the default set keeps the plain file name. */
function cacheFile(env: DeployEnv): string {
  if (Object.keys(env).length === 0) return ".sst/reelay-test-synth.json";
  const id = createHash("sha256").update(JSON.stringify(env)).digest("hex").slice(0, 16);
  return `.sst/reelay-test-synth-${id}.json`;
}
// The lockfile stands for the CDK, SST and SDK versions that shape the template.
const INPUTS = [
  "sst.config.ts",
  "package-lock.json",
  "stacks",
  "functions",
  "packages/core/src",
  "packages/flow/src",
];

/** Hash of every source the synthesized template depends on, and of the deploy settings. */
async function inputsHash(env: DeployEnv): Promise<string> {
  const hash = createHash("sha256").update(JSON.stringify(env)).update("\0");
  const files: string[] = [];
  for (const input of INPUTS) {
    if ((await stat(input)).isFile()) files.push(input);
    else
      for (const entry of await readdir(input, { recursive: true, withFileTypes: true }))
        if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
  }
  for (const file of files.sort())
    hash
      .update(file)
      .update("\0")
      .update(await readFile(file))
      .update("\0");
  return hash.digest("hex");
}

/**
 * Each test file that needs the template calls this; the first synthesizes (SST bundles seven
 * functions, tens of seconds), the others reuse its result while no input file has changed.
 */
export function synthReelay(env: DeployEnv = {}): Promise<Synth> {
  return withSynthLock(async () => {
    const key = await inputsHash(env);
    const file = cacheFile(env);
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
    const codeKey = await inputsHash({});
    const fresh = await withDeployEnv(env, () => synthOnce(codeKey));
    await writeFile(
      file,
      JSON.stringify({ key, template: fresh.template.toJSON(), nagErrors: fresh.nagErrors }),
    );
    return fresh;
  });
}

/** `work` with `env` in process.env (the stack's loadConfig reads it), then the variables as they were. */
async function withDeployEnv<T>(env: DeployEnv, work: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await work();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** The app with the stack added (which reads the config) and cdk-nag's checks on it, not yet synthesized. */
async function reelayApp(): Promise<App> {
  // SST synthesizes offline only under NODE_ENV=test (vitest sets it); otherwise it asks AWS.
  await initProject({ stage: "test" });
  const app = new App({ mode: "deploy", stage: "test", name: "reelay", region: "us-east-1" });
  applyAppDefaults(app);
  Aspects.of(app).add(new AwsSolutionsChecks());
  app.stack(ReelayStack);
  return app;
}

/** What building the stack with these deploy settings throws (a bad config fails before any bundling). */
export function stackError(env: DeployEnv): Promise<unknown> {
  // SST builds functions only when the app finishes, so this writes nothing and needs no turn.
  return withDeployEnv(env, () =>
    reelayApp().then(
      () => undefined,
      (error: unknown) => error,
    ),
  );
}

async function synthOnce(codeKey: string): Promise<Synth> {
  const app = await reelayApp();
  reuseBundles(codeKey);
  await app.finish();
  const stack = getStack(ReelayStack);
  const nagErrors = Annotations.fromStack(stack)
    .findError("*", Match.stringLikeRegexp("AwsSolutions-.*"))
    .map((m) => ({ id: m.id, message: String(m.entry.data) }));
  const template = Template.fromStack(stack);
  // The App's output folder (cdk.outXXXX, in the temp dir): the template is read by now.
  if (app.outdir.startsWith(await realpath(tmpdir()))) {
    await rm(app.outdir, { recursive: true, force: true });
  }
  return { template, nagErrors };
}

/** Where a function's bundle is kept for the next synth of the same code (any deploy settings). */
const BUNDLES_DIR = ".sst/reelay-test-bundles";

type NodeBuild = (input: {
  functionID: string;
  out: string;
  mode: string;
  props: { handler?: string; nodejs?: unknown };
}) => Promise<{ type: string }>;

const reusing = new WeakSet<object>();

/**
 * The deploy settings a test synthesizes with (a pool, say) change the template, never a function's
 * bundle, yet SST bundles every function again in each synth (most of a synth's time). So the first
 * synth of this code keeps each function's output folder, as SST's node handler left it, and a later
 * synth of the same code copies it back instead of bundling: the same bytes, so the same asset hash
 * in the template. The key is the code's hash (the template cache's inputs) and the function's
 * bundling props; a change to either bundles again.
 */
function reuseBundles(codeKey: string): void {
  const node = useRuntimeHandlers().for("nodejs22.x") as unknown as { build: NodeBuild };
  if (reusing.has(node)) return;
  reusing.add(node);
  const build = node.build.bind(node);
  node.build = async (input) => {
    const id = createHash("sha256")
      .update(JSON.stringify([codeKey, input.mode, input.props.handler, input.props.nodejs]))
      .digest("hex")
      .slice(0, 24);
    const kept = join(BUNDLES_DIR, input.functionID, id);
    const result = await readFile(join(kept, "result.json"), "utf8").then(
      (text) => JSON.parse(text) as { type: string },
      () => undefined,
    );
    if (result !== undefined) {
      await cp(join(kept, "out"), input.out, { recursive: true });
      return result;
    }
    const built = await build(input);
    if (built.type === "success") {
      await rm(join(BUNDLES_DIR, input.functionID), { recursive: true, force: true });
      await cp(input.out, join(kept, "out"), { recursive: true });
      await writeFile(join(kept, "result.json"), JSON.stringify(built));
    }
    return built;
  };
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
