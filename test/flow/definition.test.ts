/**
 * The local stack runs `synthJobFlowDefinition()`; AWS runs what the SST stack synthesizes. They
 * must be the same definition, never a hand-kept copy: this compares them state by state.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { JOB_FLOW_STEPS, type JobFlowStep } from "@reelay/flow/job-flow-names";
import {
  aslFromResolved,
  placeholderFunctionArn,
  synthJobFlowDefinition,
} from "@reelay/flow/synth-definition";
import { STEP_HANDLERS } from "../../stacks/ReelayStack.ts";
import { resourcesOf, synthReelay } from "../infra/synth.ts";

let deployed: Record<string, unknown>;

beforeAll(async () => {
  const { template } = await synthReelay();
  const functions = resourcesOf(template, "AWS::Lambda::Function");
  const stepOfHandler = new Map(
    JOB_FLOW_STEPS.map((step) => [STEP_HANDLERS[step], step] as [string, JobFlowStep]),
  );
  const machine = Object.values(resourcesOf(template, "AWS::StepFunctions::StateMachine"))[0]!;
  // Each function ARN token becomes the placeholder ARN of the step whose handler that function runs.
  deployed = aslFromResolved(machine.Properties!.DefinitionString, (token) => {
    const [logicalId, attribute] =
      (token as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"] ?? [];
    const step = stepOfHandler.get(String(functions[logicalId ?? ""]?.Properties?.Handler));
    if (attribute !== "Arn" || step === undefined)
      throw new Error(`Unexpected token in the deployed definition: ${JSON.stringify(token)}`);
    return placeholderFunctionArn(step);
  });
}, 120_000);

describe("job flow definition", () => {
  it("synthesized by the SST stack equals synthJobFlowDefinition() exactly, ARNs aside", () => {
    expect(deployed).toEqual(synthJobFlowDefinition());
  });

  it("calls a different function in each Task state, one per step", () => {
    const resources = Object.values(
      (deployed as { States: Record<string, { Type: string; Resource?: string }> }).States,
    )
      .filter((s) => s.Type === "Task")
      .map((s) => s.Resource);
    expect(resources.sort()).toEqual(JOB_FLOW_STEPS.map(placeholderFunctionArn).sort());
  });
});
