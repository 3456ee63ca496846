/**
 * Starts an admitted job's execution on AWS (the dispatcher calls it). The execution is named by
 * the job id and its admission (executionName), so starting the same admission twice (a repeated
 * dispatch, the sweep) finds the running execution instead of making a second one. Each is started
 * in the job's X-Ray trace.
 */
import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from "@aws-sdk/client-sfn";
import { executionName, type ExecutionStarter } from "@reelay/core/usecases";
import { jobTraceHeader } from "./xray.ts";

export function stateMachineStarter(sfn: SFNClient, stateMachineArn: string): ExecutionStarter {
  return {
    async start(job) {
      try {
        await sfn.send(
          new StartExecutionCommand({
            stateMachineArn,
            name: executionName(job),
            // The traceparent is for the steps' OpenTelemetry spans (domain/tracing.ts).
            input: JSON.stringify({
              jobId: job.id,
              ...(job.traceparent === undefined ? {} : { traceparent: job.traceparent }),
            }),
            // Every execution of the job joins the job's one trace (functions/support/xray.ts).
            traceHeader: jobTraceHeader(job),
          }),
        );
      } catch (error) {
        if (error instanceof ExecutionAlreadyExists) return;
        throw error;
      }
    },
  };
}
