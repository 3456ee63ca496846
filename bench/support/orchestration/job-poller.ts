/**
 * The baseline: the Step Functions job-poller sample (aws-samples/aws-cdk-examples,
 * typescript/stepfunctions-job-poller) with reelay's own steps: Submit -> a fixed Wait -> a status
 * Lambda that asks once -> Choice, around until done, then Download -> Finish. Task states carry
 * reelay's state names so the same handlers (Poll with no window: one look per call) run them;
 * failures are caught into RecordFailure as in reelay's flow.
 */
import { JOB_FLOW_STATE_NAMES, type JobFlowStep } from "@reelay/flow/job-flow-names";

/** The sample's usual Wait; 3 s is the longest fixed Wait whose detection delay stays within 3 s. */
export const POLLER_WAIT_S = 5;
export const EQUAL_DELAY_WAIT_S = 3;

function task(step: JobFlowStep, next: string): Record<string, unknown> {
  return {
    Type: "Task",
    Resource: `arn:aws:lambda:us-east-1:000000000000:function:job-poller-${step}`,
    Next: next,
    ...(step === "recordFailure"
      ? {}
      : {
          Catch: [
            {
              ErrorEquals: ["States.ALL"],
              ResultPath: "$.error",
              Next: JOB_FLOW_STATE_NAMES.recordFailure,
            },
          ],
        }),
  };
}

export function jobPollerDefinition(waitSeconds: number = POLLER_WAIT_S): Record<string, unknown> {
  const n = JOB_FLOW_STATE_NAMES;
  return {
    Comment: `job-poller baseline: fixed ${waitSeconds} s Wait, status Lambda, Choice`,
    StartAt: n.submit,
    TimeoutSeconds: 3_600,
    States: {
      [n.submit]: task("submit", "Wait"),
      Wait: { Type: "Wait", Seconds: waitSeconds, Next: n.poll },
      [n.poll]: task("poll", "JobComplete"),
      JobComplete: {
        Type: "Choice",
        Choices: [
          { Variable: "$.outcome", StringEquals: "succeeded", Next: n.download },
          { Variable: "$.outcome", StringEquals: "failed", Next: n.recordFailure },
        ],
        Default: "Wait",
      },
      [n.download]: task("download", n.finish),
      [n.finish]: task("finish", "Succeeded"),
      Succeeded: { Type: "Succeed" },
      [n.recordFailure]: task("recordFailure", "Failed"),
      Failed: { Type: "Fail", Error: "JobFailed" },
    },
  };
}
