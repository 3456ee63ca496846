/** Every scenario `npm run rehearse` runs, in order. */
import { FLOW_SCENARIOS } from "./flow.ts";
import { JOB_SCENARIOS } from "./jobs.ts";
import { OPERATIONS_SCENARIOS } from "./operations.ts";
import type { Scenario } from "./support.ts";

export const SCENARIOS: readonly Scenario[] = [
  ...JOB_SCENARIOS,
  ...FLOW_SCENARIOS,
  ...OPERATIONS_SCENARIOS,
];
