/**
 * Stops a cancelled job's execution on AWS. Executions are named by the job id, so the ARN follows
 * from the machine's: arn:...:stateMachine:<name> -> arn:...:execution:<name>:<execution name>.
 */
import { ExecutionDoesNotExist, type SFNClient, StopExecutionCommand } from "@aws-sdk/client-sfn";
import type { ExecutionStopper } from "@reelay/core/usecases";

export function executionArn(stateMachineArn: string, execution: string): string {
  return `${stateMachineArn.replace(":stateMachine:", ":execution:")}:${execution}`;
}

export function stateMachineStopper(sfn: SFNClient, stateMachineArn: string): ExecutionStopper {
  return {
    async stop(execution) {
      try {
        await sfn.send(
          new StopExecutionCommand({
            executionArn: executionArn(stateMachineArn, execution),
            cause: "Cancelled through POST /v1/jobs/{id}/cancel.",
          }),
        );
      } catch (error) {
        // Never started (a start that failed) or long gone: nothing left to stop. A finished
        // execution is not an error for StopExecution, so only a missing one needs this.
        if (error instanceof ExecutionDoesNotExist) return;
        throw error;
      }
    },
  };
}
