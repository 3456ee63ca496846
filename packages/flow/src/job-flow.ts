/**
 * The job flow, built in exactly one place. The SST stack deploys it and the local stack runs the
 * ASL that `synthJobFlowDefinition()` (synth-definition.ts) produces from this same function, so
 * AWS and one machine can never drift apart (a test compares the two).
 *
 *   Submit ─ 429 or refused, back in the admission queue ─> Requeued
 *     └──> WaitForTask -> Poll -> IsDone ─ running, polls < maxPolls ─> WaitForTask
 *                          └─ task failed, falls back to another account ─> Requeued
 *                                          ├─ succeeded ─> Download (a video's previews too) -> Finish (the end)
 *                                          ├─ failed ──────────────────────────> RecordFailure -> Failed
 *                                          └─ otherwise (loop bound) ─> LoopBoundReached -> RecordFailure
 *
 * Every state entered is a billed transition (docs/performance.md), so the success path has no
 * state that does nothing: Download makes a video's poster and spritesheet right after its copy
 * (best effort, a warning at worst) rather than a Thumbnail state behind an IsVideo Choice, and
 * Finish ends the execution itself (succeeded) rather than pass on to a Succeed state.
 */
import { Duration } from "aws-cdk-lib";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import * as tasks from "aws-cdk-lib/aws-stepfunctions-tasks";
import type { Construct } from "constructs";
import { REQUEUED_ERROR_NAME, TRANSIENT_ERROR_NAME } from "@reelay/core/domain";
import {
  JOB_FLOW_STATE_NAMES,
  LAMBDA_SERVICE_ERRORS,
  LAMBDA_TIMEOUT_ERROR,
  STEP_LAMBDA_TIMEOUT_S,
  type JobFlowStep,
} from "./job-flow-names.ts";

const TASK_TIMEOUT_MARGIN_S = 15;

/**
 * Whole-execution bound: the longest job deadline (15 min, polling policy) plus a full download
 * (15 min) plus retries, with room to spare. A REELAY_JOB_TIMEOUT_S far above 30 min would be cut
 * here on AWS.
 */
export const JOB_FLOW_TIMEOUT = Duration.hours(1);

export interface JobFlow {
  definition: sfn.IChainable;
  timeout: Duration;
}

export type JobFlowFunctions = Record<JobFlowStep, IFunction>;

function task(scope: Construct, step: JobFlowStep, fn: IFunction): tasks.LambdaInvoke {
  const invoke = new tasks.LambdaInvoke(scope, JOB_FLOW_STATE_NAMES[step], {
    lambdaFunction: fn,
    // The state is the step's answer itself (a FlowState), not Lambda's envelope around it.
    payloadResponseOnly: true,
    // Our own Retry rules below say exactly what is retried; no hidden default one.
    retryOnServiceExceptions: false,
    taskTimeout: sfn.Timeout.duration(
      Duration.seconds(STEP_LAMBDA_TIMEOUT_S[step] + TASK_TIMEOUT_MARGIN_S),
    ),
  });
  invoke.addRetry({
    errors: LAMBDA_SERVICE_ERRORS,
    interval: Duration.seconds(2),
    backoffRate: 2,
    maxAttempts: 6,
  });
  // Upstream 429/5xx and network trouble that outlived the client's own retries: wait longer.
  invoke.addRetry({
    errors: [TRANSIENT_ERROR_NAME],
    interval: Duration.seconds(10),
    backoffRate: 2,
    maxAttempts: 5,
    maxDelay: Duration.seconds(120),
  });
  return invoke;
}

export function buildJobFlow(scope: Construct, fns: JobFlowFunctions): JobFlow {
  const submit = task(scope, "submit", fns.submit);
  const poll = task(scope, "poll", fns.poll);
  const download = task(scope, "download", fns.download);
  const finish = task(scope, "finish", fns.finish);
  const recordFailure = task(scope, "recordFailure", fns.recordFailure);

  const failed = new sfn.Fail(scope, "Failed", {
    error: "JobFailed",
    cause: "The job ended failed; its record holds the error code and message.",
  });
  // Recording the failure is the job's last chance to end: a timed-out run of it (a slow start, a
  // throttled table) is tried again, as its conditional write makes a second run harmless; without
  // it the execution would fail and leave the job's record running.
  recordFailure.addRetry({
    errors: [LAMBDA_TIMEOUT_ERROR],
    interval: Duration.seconds(2),
    backoffRate: 2,
    maxAttempts: 3,
  });
  // Even recording the failure can fail for good; the execution must still end, as failed.
  recordFailure.addCatch(failed, { errors: [sfn.Errors.ALL], resultPath: "$.error" });
  recordFailure.next(failed);

  // A create that met a full or refusing account, or a task that failed on one account and may
  // be tried on another: the job waits in the queue again, with no execution.
  const requeued = new sfn.Succeed(scope, "Requeued");
  for (const step of [submit, poll])
    step.addCatch(requeued, { errors: [REQUEUED_ERROR_NAME], resultPath: "$.error" });
  for (const step of [submit, poll, download, finish]) {
    step.addCatch(recordFailure, { errors: [sfn.Errors.ALL], resultPath: "$.error" });
  }

  const waitForTask = new sfn.Wait(scope, "WaitForTask", {
    time: sfn.WaitTime.secondsPath("$.waitSeconds"),
  });
  const loopBoundReached = new sfn.Pass(scope, "LoopBoundReached", {
    result: sfn.Result.fromObject({
      code: "timeout",
      message: "The upstream task did not finish within its poll budget.",
    }),
    resultPath: "$.error",
  });
  loopBoundReached.next(recordFailure);

  // Finish has no Next: it ends the execution, succeeded (its Catch still goes to RecordFailure).

  const isDone = new sfn.Choice(scope, "IsDone")
    .when(sfn.Condition.stringEquals("$.outcome", "succeeded"), download.next(finish))
    .when(sfn.Condition.stringEquals("$.outcome", "failed"), recordFailure)
    .when(
      sfn.Condition.and(
        sfn.Condition.stringEquals("$.outcome", "running"),
        sfn.Condition.numberLessThanJsonPath("$.polls", "$.maxPolls"),
      ),
      waitForTask,
    )
    .otherwise(loopBoundReached);

  const definition = submit.next(waitForTask).next(poll).next(isDone);
  return { definition, timeout: JOB_FLOW_TIMEOUT };
}
