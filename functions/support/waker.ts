/**
 * Wakes the Dispatch function on AWS: an asynchronous invoke (InvocationType Event), so the caller
 * never waits for the run. Lambda queues and retries such invokes itself; a lost one is covered by
 * the function's one-minute schedule.
 */
import { InvokeCommand, type LambdaClient } from "@aws-sdk/client-lambda";
import { ReelayError } from "@reelay/core/domain";
import type { DispatchWaker } from "@reelay/core/usecases";

const WAKE = new TextEncoder().encode(JSON.stringify({ source: "reelay.wake" }));

export function lambdaWaker(lambda: LambdaClient, functionName: string): DispatchWaker {
  return {
    async wake() {
      try {
        await lambda.send(
          new InvokeCommand({ FunctionName: functionName, InvocationType: "Event", Payload: WAKE }),
        );
      } catch (error) {
        // The AWS error type only: its message can quote the caller's role ARN.
        const type = error instanceof Error ? error.name : "Error";
        throw new ReelayError(
          "service_unavailable",
          `lambda refused to queue the wake of ${functionName}: ${type}.`,
          { path: functionName },
        );
      }
    },
  };
}
