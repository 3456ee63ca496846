/** Job flow state "Submit": the state machine invokes this with the flow state. */
import { runStep } from "./support/step.ts";

export const handler = (event: unknown) => runStep("submit", event);
