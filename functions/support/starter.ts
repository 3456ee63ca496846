/**
 * Starts a job's execution on AWS. The execution is named by the job id, so starting the same job
 * twice (a repeated drop notification, a retried request) finds the running execution instead of
 * making a second one.
 */
import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from "@aws-sdk/client-sfn";
import type { JobStarter } from "@reelay/core/ports";

export function stateMachineStarter(sfn: SFNClient, stateMachineArn: string): JobStarter {
  return {
    async start(job) {
      try {
        await sfn.send(
          new StartExecutionCommand({
            stateMachineArn,
            name: job.id,
            input: JSON.stringify({ jobId: job.id }),
          }),
        );
      } catch (error) {
        if (error instanceof ExecutionAlreadyExists) return;
        throw error;
      }
    },
  };
}
