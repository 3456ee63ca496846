/**
 * Wakes the Dispatch function on AWS: an asynchronous invoke (InvocationType Event), so the caller
 * never waits for the run. Lambda queues and retries such invokes itself; a lost one is covered by
 * the function's one-minute schedule. Signed by hand: functions/support/signed-call.ts says why.
 */
import type { DispatchWaker } from "@reelay/core/usecases";
import { signedPost } from "./signed-call.ts";

export function lambdaWaker(region: string, functionName: string): DispatchWaker {
  return {
    async wake() {
      await signedPost({
        service: "lambda",
        region,
        path: `/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`,
        headers: { "content-type": "application/json", "x-amz-invocation-type": "Event" },
        body: JSON.stringify({ source: "reelay.wake" }),
        expect: 202,
        what: `queue the wake of ${functionName}`,
        subject: functionName,
      });
    },
  };
}
