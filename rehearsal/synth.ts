/**
 * Synthesizes the real SST app offline (no AWS credentials): the infra tests' template (stage
 * "test", with cdk-nag's AwsSolutions pack) and the rehearsal's (stage "rehearsal", with each
 * function's built bundle kept beside it). SST synthesizes offline only under NODE_ENV=test;
 * otherwise it asks AWS for the account.
 */
import { createHash } from "node:crypto";
import { cp, mkdir, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Aspects } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { App, getStack } from "sst/constructs";
import { initProject } from "sst/project.js";
import { useRuntimeHandlers } from "sst/runtime/handlers.js";
import { applyAppDefaults } from "../stacks/defaults.ts";
import { ReelayStack } from "../stacks/ReelayStack.ts";

/**
 * The settings a synth reads at deploy time, beyond the process's own environment (a pool, say):
 * set while the stack is built, as `sst deploy` would find them, and put back after.
 */
export type DeployEnv = Record<string, string>;

export interface SynthOptions {
  stage: string;
  env: DeployEnv;
  /** Apply cdk-nag's AwsSolutions checks and return their errors. */
  nag: boolean;
  /** The account the app deploys to; SST's offline default is the placeholder "my-account". */
  account?: string;
  /** Given the cloud assembly folder before it is removed: what to keep of it (the bundles). */
  keep?: (outdir: string, template: Template) => Promise<void>;
}

export interface Synthesized {
  template: Template;
  nagErrors: { id: string; message: string }[];
}

const LOCK_DIR = ".sst/reelay-synth.lock";
// Longer than a synth on a loaded machine: a live holder's lock is never taken over.
const STALE_LOCK_MS = 600_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lock is free to take over when its holder died (a killed run) or it is very old. */
async function lockIsStale(): Promise<boolean> {
  const holder = Number(await readFile(join(LOCK_DIR, "pid"), "utf8").catch(() => "NaN"));
  const age = await stat(LOCK_DIR).then(
    (s) => Date.now() - s.mtimeMs,
    () => 0,
  );
  return (Number.isInteger(holder) && !alive(holder)) || age > STALE_LOCK_MS;
}

/**
 * SST builds every function into the same .sst/artifacts folders, so two synths at once (vitest
 * runs files in parallel, the rehearsal beside them) would write over each other: take turns.
 */
export async function withSynthLock<T>(work: () => Promise<T>): Promise<T> {
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

// The lockfile stands for the CDK, SST and SDK versions that shape the template.
const INPUTS = [
  "sst.config.ts",
  "package-lock.json",
  "stacks",
  "functions",
  "packages/core/src",
  "packages/flow/src",
  // The deployed simulator's function bundles it.
  "packages/simulator/src",
];

/** Hash of every source the synthesized template depends on, and of the stage and deploy settings. */
export async function inputsHash(env: DeployEnv, stage = ""): Promise<string> {
  const hash = createHash("sha256")
    .update(JSON.stringify([stage, env]))
    .update("\0");
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

/** `work` with `env` in process.env (the stack's loadConfig reads it), then the variables as they were. */
export async function withDeployEnv<T>(env: DeployEnv, work: () => Promise<T>): Promise<T> {
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

/** The app with the stack added (which reads the config), not yet synthesized. */
export async function reelayApp(stage: string, nag: boolean, account?: string): Promise<App> {
  await initProject({ stage });
  const app = new App({
    mode: "deploy",
    stage,
    name: "reelay",
    region: "us-east-1",
    ...(account === undefined ? {} : { account }),
  });
  applyAppDefaults(app);
  if (nag) Aspects.of(app).add(new AwsSolutionsChecks());
  app.stack(ReelayStack);
  return app;
}

/** Synthesizes once, with the deploy settings in the environment meanwhile; call inside withSynthLock. */
export function synthApp(options: SynthOptions): Promise<Synthesized> {
  return withDeployEnv(options.env, async () => {
    const codeKey = await inputsHash({});
    const app = await reelayApp(options.stage, options.nag, options.account);
    reuseBundles(codeKey);
    await app.finish();
    const stack = getStack(ReelayStack);
    const nagErrors = options.nag
      ? Annotations.fromStack(stack)
          .findError("*", Match.stringLikeRegexp("AwsSolutions-.*"))
          .map((m) => ({ id: m.id, message: String(m.entry.data) }))
      : [];
    const template = Template.fromStack(stack);
    await options.keep?.(app.outdir, template);
    // The App's output folder (cdk.outXXXX, in the temp dir): what was wanted of it is kept by now.
    if (app.outdir.startsWith(await realpath(tmpdir()))) {
      await rm(app.outdir, { recursive: true, force: true });
    }
    return { template, nagErrors };
  });
}

/** Where a function's bundle is kept for the next synth of the same code (any deploy settings). */
const BUNDLES_DIR = ".sst/reelay-bundles";
const ID_PLACEHOLDER = "<functionID>";

type NodeBuild = (input: {
  functionID: string;
  out: string;
  mode: string;
  props: { handler?: string; nodejs?: unknown };
}) => Promise<{ type: string }>;

const reusing = new WeakSet<object>();

/**
 * The deploy settings a synth uses (a pool, say) change the template, never a function's bundle,
 * yet SST bundles every function again in each synth (most of a synth's time). So the first synth
 * of this code keeps each function's output folder, as SST's node handler left it, and a later
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
    // By handler, not by SST's function id, which differs per stage: the infra tests' stage and
    // the rehearsal's share each bundle.
    const slot = join(BUNDLES_DIR, String(input.props.handler).replace(/[^\w.-]/g, "_"));
    const kept = join(slot, id);
    // The build's result names files in its output folder, named by SST's function id (the
    // sourcemap SST gzips next): kept with the id as a placeholder, given back with this build's.
    // A bundle kept before its metafile was (an older checkout's) is built again.
    const complete = await stat(join(kept, KEPT_META)).then(
      () => true,
      () => false,
    );
    const result = await readFile(join(kept, "result.json"), "utf8").then(
      (text) => JSON.parse(text.replaceAll(ID_PLACEHOLDER, input.functionID)) as { type: string },
      () => undefined,
    );
    if (result !== undefined && complete) {
      await cp(join(kept, "out"), input.out, { recursive: true });
      return result;
    }
    let metafile: Metafile | undefined;
    const built = await build(withMetafileKept(input, (meta) => (metafile = meta)));
    if (built.type === "success") {
      await rm(slot, { recursive: true, force: true });
      await cp(input.out, join(kept, "out"), { recursive: true });
      const text = JSON.stringify(built).replaceAll(input.functionID, ID_PLACEHOLDER);
      await writeFile(join(kept, "result.json"), text);
      if (metafile !== undefined)
        await writeFile(
          join(kept, KEPT_META),
          JSON.stringify(keptMeta(codeKey, input, metafile) satisfies KeptBundle),
        );
    }
    return built;
  };
}

/** esbuild's metafile: each input and output, paths from the working dir (read by its readers). */
interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/**
 * A kept bundle's metafile (KEPT_META beside its out folder): which code it was built from, the
 * function's handler, and esbuild's metafile with each output named from the bundle's folder.
 */
export interface KeptBundle {
  codeKey: string;
  handler: string;
  meta: Metafile;
}

const KEPT_META = "meta.json";

/**
 * SST's build with one more esbuild plugin, which hands over the build's metafile (SST asks
 * esbuild for one, and keeps it to itself): the bundle is the same, only watched.
 */
function withMetafileKept(
  input: Parameters<NodeBuild>[0],
  keep: (meta: Metafile) => void,
): Parameters<NodeBuild>[0] {
  const nodejs = (input.props.nodejs ?? {}) as { esbuild?: { plugins?: unknown[] } };
  const plugin = {
    name: "reelay-keep-metafile",
    setup(build: { onEnd(callback: (result: { metafile?: Metafile }) => void): void }) {
      build.onEnd((result) => {
        if (result.metafile !== undefined) keep(result.metafile);
      });
    },
  };
  const esbuild = { ...nodejs.esbuild, plugins: [...(nodejs.esbuild?.plugins ?? []), plugin] };
  return { ...input, props: { ...input.props, nodejs: { ...nodejs, esbuild } } };
}

/** The metafile with its outputs named from the function's out folder, as kept. */
function keptMeta(codeKey: string, input: Parameters<NodeBuild>[0], meta: Metafile): KeptBundle {
  const out = relative(process.cwd(), input.out);
  const outputs = Object.fromEntries(
    Object.entries(meta.outputs).map(([path, output]) => [relative(out, path), output]),
  );
  return { codeKey, handler: String(input.props.handler), meta: { ...meta, outputs } };
}

/**
 * The bundles kept for the code as it is now (`inputsHash({})`), by handler: each function's
 * metafile from SST's own build, for tests of what the deployed bundles hold.
 */
export async function keptBundles(): Promise<Map<string, KeptBundle>> {
  const codeKey = await inputsHash({});
  const found = new Map<string, KeptBundle>();
  const slots = await readdir(BUNDLES_DIR).catch(() => [] as string[]);
  for (const slot of slots)
    for (const id of await readdir(join(BUNDLES_DIR, slot)).catch(() => [] as string[])) {
      const text = await readFile(join(BUNDLES_DIR, slot, id, KEPT_META), "utf8").catch(
        () => undefined,
      );
      const kept = text === undefined ? undefined : (JSON.parse(text) as KeptBundle);
      if (kept?.codeKey === codeKey) found.set(kept.handler, kept);
    }
  return found;
}
