/**
 * Synthesizes the real SST app offline (stage "test", no AWS credentials) with cdk-nag's
 * AwsSolutions pack applied, once per test file.
 */
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

export async function synthReelay(): Promise<Synth> {
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
