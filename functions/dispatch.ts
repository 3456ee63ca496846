/**
 * The Dispatch function: admits queued jobs while upstream slots are free and starts their
 * executions (admission/dispatch.ts). Woken asynchronously after every enqueue and slot release,
 * and every minute by a schedule, which also runs the sweep (admission/sweep.ts) first.
 */
import { dispatch } from "@reelay/core/admission/dispatch";
import { sweep } from "@reelay/core/admission/sweep";
import { awsStarter, awsWiring } from "./support/deps.ts";

// What this function frees it admits in the same run: its own waker does nothing.
const { pipeline } = await awsWiring({ callsUpstream: false, waker: { wake: async () => {} } });
const deps = {
  ...pipeline,
  starter: awsStarter(),
  // The create rate's pauses inside one run (at most 2 s each; longer ones wait for the schedule).
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/** A scheduled run (EventBridge Scheduler/rule) sweeps first; a wake only dispatches. */
export async function handler(event: { source?: string }): Promise<void> {
  if (event.source === "aws.events" || event.source === "aws.scheduler") {
    const swept = await sweep(deps);
    console.log(JSON.stringify({ msg: "sweep", ...swept }));
  }
  const result = await dispatch(deps);
  console.log(
    JSON.stringify({
      msg: "dispatch",
      admitted: result.admitted.length,
      retryInMs: result.retryInMs,
    }),
  );
}
