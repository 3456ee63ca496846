/** Job flow state "Poll": the state machine invokes this with the flow state. */
import { stepHandler } from "./support/step.ts";

export const handler = stepHandler("poll");
