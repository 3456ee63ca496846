/** Job flow state "Download": the state machine invokes this with the flow state. */
import { runStep } from "./support/step.ts";

export const handler = (event: unknown) => runStep("download", event);
