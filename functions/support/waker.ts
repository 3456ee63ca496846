/**
 * Wakes the Dispatch function on AWS: an asynchronous invoke (InvocationType Event), so the caller
 * never waits for the run. Lambda queues and retries such invokes itself; a lost one is covered by
 * the function's one-minute schedule.
 */
import { InvokeCommand, type LambdaClient } from "@aws-sdk/client-lambda";
import type { DispatchWaker } from "@reelay/core/ports";

export function lambdaWaker(lambda: LambdaClient, functionName: string): DispatchWaker {
  return {
    async wake() {
      await lambda.send(
        new InvokeCommand({
          FunctionName: functionName,
          InvocationType: "Event",
          Payload: new TextEncoder().encode(JSON.stringify({ source: "reelay.wake" })),
        }),
      );
    },
  };
}
