/**
 * The ASL of the job flow, synthesized in-process from `buildJobFlow` with plain aws-cdk-lib (no
 * SST, no bundling): what the local stack runs. Task resources are placeholder ARNs; the local
 * runner replaces every Task with an in-process handler keyed by state name.
 */
import { rmSync } from "node:fs";
import { App, Stack } from "aws-cdk-lib";
import * as lambda from "aws-cdk-lib/aws-lambda";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { buildJobFlow, type JobFlowFunctions } from "./job-flow.ts";
import { JOB_FLOW_STEPS, type JobFlowStep } from "./job-flow-names.ts";

export function placeholderFunctionArn(step: JobFlowStep): string {
  return `arn:aws:lambda:us-east-1:000000000000:function:reelay-${step}`;
}

/** Builds the flow into a state machine in `stack` with the given functions; shared by stack and local. */
export function jobFlowStateMachineProps(
  stack: Stack,
  fns: JobFlowFunctions,
): Pick<sfn.StateMachineProps, "definitionBody" | "timeout" | "stateMachineType"> {
  const flow = buildJobFlow(stack, fns);
  return {
    definitionBody: sfn.DefinitionBody.fromChainable(flow.definition),
    timeout: flow.timeout,
    stateMachineType: sfn.StateMachineType.STANDARD,
  };
}

/** Turns a resolved CloudFormation DefinitionString (a string or an Fn::Join) into the ASL object. */
export function aslFromResolved(
  resolved: unknown,
  replaceToken: (token: unknown) => string,
): Record<string, unknown> {
  if (typeof resolved === "string") return JSON.parse(resolved) as Record<string, unknown>;
  const join = (resolved as { "Fn::Join"?: [string, unknown[]] })["Fn::Join"];
  if (!join) throw new Error("The state machine definition is neither a string nor an Fn::Join.");
  const [separator, parts] = join;
  const text = parts
    .map((part) => (typeof part === "string" ? part : replaceToken(part)))
    .join(separator);
  return JSON.parse(text) as Record<string, unknown>;
}

let synthesized: Record<string, unknown> | undefined;

/**
 * The flow's ASL, synthesized once per process (each call gets its own copy): it depends on this
 * code alone, and building the App costs most of a CPU-second at every local stack start (a test
 * run starts a hundred).
 */
export function synthJobFlowDefinition(): Record<string, unknown> {
  synthesized ??= synthesizeJobFlowDefinition();
  return structuredClone(synthesized);
}

/** The flow's ASL from a fresh CDK App (synthJobFlowDefinition keeps the first). */
export function synthesizeJobFlowDefinition(): Record<string, unknown> {
  // An App makes its output folder (cdk.outXXXX in the temp dir) as it is built; nothing is written
  // there, as nothing is synthesized, so it goes once the definition is read.
  const app = new App();
  try {
    const stack = new Stack(app, "ReelayJobFlow");
    const fns = Object.fromEntries(
      JOB_FLOW_STEPS.map((step) => [
        step,
        lambda.Function.fromFunctionArn(stack, `${step}Fn`, placeholderFunctionArn(step)),
      ]),
    ) as JobFlowFunctions;
    const machine = new sfn.StateMachine(stack, "JobFlow", jobFlowStateMachineProps(stack, fns));
    const cfn = machine.node.defaultChild as sfn.CfnStateMachine;
    return aslFromResolved(stack.resolve(cfn.definitionString), (token) => {
      throw new Error(
        `Unexpected token in the local job flow definition: ${JSON.stringify(token)}`,
      );
    });
  } finally {
    rmSync(app.outdir, { recursive: true, force: true });
  }
}
