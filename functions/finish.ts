/** Job flow state "Finish": the state machine invokes this with the flow state. */
import { runStep } from "./support/step.ts";

export const handler = (event: unknown) => runStep("finish", event);
