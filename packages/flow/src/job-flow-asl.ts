/**
 * The job flow's ASL as synthesized from job-flow.ts (synth-definition.ts), kept in
 * job-flow.asl.json: a local stack's start then loads no aws-cdk-lib and builds no CDK App (about
 * 1.8 CPU-seconds at every `reelay up`). `npm run docs` writes the file; test/docs fails when it
 * differs from a fresh synthesis, so it is always the definition the deploy synthesizes.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const JOB_FLOW_ASL_FILE = fileURLToPath(new URL("./job-flow.asl.json", import.meta.url));

/** The committed ASL, a fresh object at each call (the stack's interpreter is built from it). */
export function jobFlowDefinition(): Record<string, unknown> {
  return JSON.parse(readFileSync(JOB_FLOW_ASL_FILE, "utf8")) as Record<string, unknown>;
}
