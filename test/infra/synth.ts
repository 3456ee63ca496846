/**
 * Synthesizes the real SST app offline (stage "test", no AWS credentials) with cdk-nag's
 * AwsSolutions pack applied, once per test file.
 */
import { mkdir, rm, stat } from "node:fs/promises";
import { Aspects } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { App, getStack } from "sst/constructs";
import { initProject } from "sst/project.js";
import { applyAppDefaults } from "../../stacks/defaults.ts";
import { ReelayStack } from "../../stacks/ReelayStack.ts";

export interface Synth {
  template: Template;
  nagErrors: { id: string; message: string }[];
}

const LOCK_DIR = ".sst/reelay-test-synth.lock";
const STALE_LOCK_MS = 120_000;

/**
 * SST builds every function into the same .sst/artifacts folders, so two test files synthesizing
 * at once (vitest runs files in parallel) would write over each other: take turns.
 */
async function withSynthLock<T>(work: () => Promise<T>): Promise<T> {
  await mkdir(".sst", { recursive: true });
  for (;;) {
    try {
      await mkdir(LOCK_DIR);
      break;
    } catch {
      const age = await stat(LOCK_DIR).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > STALE_LOCK_MS) await rm(LOCK_DIR, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await work();
  } finally {
    await rm(LOCK_DIR, { recursive: true, force: true });
  }
}

export function synthReelay(): Promise<Synth> {
  return withSynthLock(synthOnce);
}

async function synthOnce(): Promise<Synth> {
  // SST synthesizes offline only under NODE_ENV=test (vitest sets it); otherwise it asks AWS.
  await initProject({ stage: "test" });
  const app = new App({ mode: "deploy", stage: "test", name: "reelay", region: "us-east-1" });
  applyAppDefaults(app);
  Aspects.of(app).add(new AwsSolutionsChecks());
  app.stack(ReelayStack);
  await app.finish();
  const stack = getStack(ReelayStack);
  const nagErrors = Annotations.fromStack(stack)
    .findError("*", Match.stringLikeRegexp("AwsSolutions-.*"))
    .map((m) => ({ id: m.id, message: String(m.entry.data) }));
  return { template: Template.fromStack(stack), nagErrors };
}

type Resources = Record<string, { Type: string; Properties?: Record<string, any> }>;

export function resourcesOf(template: Template, type?: string): Resources {
  const all = template.toJSON().Resources as Resources;
  return Object.fromEntries(Object.entries(all).filter(([, r]) => type === undefined || r.Type === type));
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
