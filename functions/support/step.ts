import type { JobFlowStep } from "../../packages/core/src/flow/job-flow.ts";

/** Placeholder until core's pipeline steps land: fails permanently so the flow records the failure. */
export async function runStep(step: JobFlowStep, _event: unknown): Promise<unknown> {
  throw new Error(`step ${step} is not wired yet`);
}
