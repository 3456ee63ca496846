/** Every scenario `npm run rehearse` runs, in order. */
import { DOCTOR_SCENARIOS } from "./doctor.ts";
import { FILE_SCENARIOS } from "./files.ts";
import { FLOW_SCENARIOS } from "./flow.ts";
import { JOB_SCENARIOS } from "./jobs.ts";
import { MONEY_SCENARIOS } from "./money.ts";
import { OPERATIONS_SCENARIOS } from "./operations.ts";
import type { Scenario } from "./support.ts";

export const SCENARIOS: readonly Scenario[] = [
  ...JOB_SCENARIOS,
  ...FILE_SCENARIOS,
  ...MONEY_SCENARIOS,
  ...FLOW_SCENARIOS,
  ...OPERATIONS_SCENARIOS,
  ...DOCTOR_SCENARIOS,
];
