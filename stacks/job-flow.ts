/**
 * The job flow on AWS: one Lambda function per step (each with only the grants its step needs) and
 * the Step Functions state machine that runs them, as packages/flow defines it.
 */
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type * as events from "aws-cdk-lib/aws-events";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import * as lambda from "aws-cdk-lib/aws-lambda";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as s3 from "aws-cdk-lib/aws-s3";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import type { Config, Stack as SstStack } from "sst/constructs";
import { Function as SstFunction } from "sst/constructs";
import {
  type JobFlowStep,
  STEP_ARCHITECTURE,
  STEP_LAMBDA_TIMEOUT_S,
  STEP_MEMORY_MB,
  UPSTREAM_STEPS,
} from "@reelay/flow/job-flow-names";
import { jobFlowStateMachineProps } from "@reelay/flow/synth-definition";
import {
  allowManifests,
  allowObjects,
  allowPutEvents,
  allowTable,
  allowWake,
} from "./permissions.ts";

export const STEP_HANDLERS: Record<JobFlowStep, string> = {
  submit: "functions/submit.handler",
  poll: "functions/poll.handler",
  download: "functions/download.handler",
  finish: "functions/finish.handler",
  recordFailure: "functions/fail.handler",
};

export type StepFunctions = Record<JobFlowStep, SstFunction>;

/**
 * The folder of the npm package that carries ffmpeg for Linux x86-64 (what @ffmpeg-installer/ffmpeg
 * picks on such a machine): the Download function's layer is this folder as it is, so the binary
 * lands at /opt/ffmpeg, and a fresh clone needs nothing but `npm ci`.
 */
export const FFMPEG_LAYER_DIR = dirname(
  createRequire(import.meta.url).resolve("@ffmpeg-installer/linux-x64/package.json"),
);
/** Where Lambda mounts a layer's files. */
export const FFMPEG_PATH = "/opt/ffmpeg";

/** The step that makes each video's previews: ffmpeg is its layer, so no bundle carries it. */
const FFMPEG_STEP: JobFlowStep = "download";

/**
 * ffmpeg for the functions that run it (x86-64 ones, the binary's architecture: see
 * STEP_ARCHITECTURE), the Download function and a deployed simulator, so no other function's
 * bundle or cold start carries it. One layer, however many ask.
 */
export function ffmpegLayer(stack: SstStack): lambda.ILayerVersion {
  const made = stack.node.tryFindChild("FfmpegLayer") as lambda.LayerVersion | undefined;
  return (
    made ??
    new lambda.LayerVersion(stack, "FfmpegLayer", {
      code: lambda.Code.fromAsset(FFMPEG_LAYER_DIR),
      compatibleArchitectures: [lambda.Architecture.X86_64],
      description: "ffmpeg from the npm package @ffmpeg-installer/linux-x64",
    })
  );
}

interface JobFlowScope {
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  bus: events.IEventBus;
  environment: Record<string, string>;
  /** The upstream's key secrets (one, or one per pool account): bound to the steps that call it only. */
  upstreamKeys: Config.Secret[];
  dispatchArn: string;
}

function createSteps(stack: SstStack, scope: JobFlowScope): StepFunctions {
  if (STEP_ARCHITECTURE[FFMPEG_STEP] !== "x86_64")
    throw new Error(
      `The ffmpeg layer is an x86-64 binary; the ${FFMPEG_STEP} function must be too.`,
    );
  const stepFunction = (step: JobFlowStep) => {
    const ffmpeg = step === FFMPEG_STEP;
    return new SstFunction(stack, `${step.charAt(0).toUpperCase()}${step.slice(1)}Function`, {
      handler: STEP_HANDLERS[step],
      timeout: STEP_LAMBDA_TIMEOUT_S[step],
      memorySize: `${STEP_MEMORY_MB[step]} MB`,
      architecture: STEP_ARCHITECTURE[step] === "x86_64" ? "x86_64" : "arm_64",
      ...(ffmpeg ? { layers: [ffmpegLayer(stack)] } : {}),
      environment: ffmpeg
        ? { ...scope.environment, REELAY_FFMPEG_PATH: FFMPEG_PATH }
        : scope.environment,
      bind: UPSTREAM_STEPS.includes(step) ? scope.upstreamKeys : [],
    });
  };
  return {
    submit: stepFunction("submit"),
    poll: stepFunction("poll"),
    download: stepFunction("download"),
    finish: stepFunction("finish"),
    recordFailure: stepFunction("recordFailure"),
  };
}

function grantSteps(steps: StepFunctions, scope: JobFlowScope): void {
  const { table, bucket, bus } = scope;
  for (const fn of Object.values(steps)) allowTable(fn, table, ["GetItem", "UpdateItem"], "jobs");
  // The predicted first wait: Submit reads the model's observed generation times, Poll reads and adds to them.
  allowTable(steps.submit, table, ["GetItem"], "generation-stats");
  allowTable(steps.poll, table, ["GetItem", "UpdateItem"], "generation-stats");
  // Download streams outputs in (multipart), or for a reuse copies another job's (CopyObject reads
  // the source), then has ffmpeg read a video (a presigned GET) and writes its previews, tagged
  // with the job's retention like the video; every terminal step rewrites the job.json manifest.
  allowObjects(steps.download, bucket, "outputs/", [
    "PutObject",
    "PutObjectTagging",
    "AbortMultipartUpload",
    "GetObject",
  ]);
  // Submit gives the upstream presigned links of the uploads a request names (upload://).
  allowObjects(steps.submit, bucket, "uploads/", ["GetObject"]);
  allowManifests(steps.finish, bucket);
  allowManifests(steps.recordFailure, bucket);
  allowPutEvents(steps.finish, bus);
  allowPutEvents(steps.recordFailure, bus);
  // A 429 puts the job back in the queue (Submit); a task's end frees its slot (Poll, Finish, RecordFailure).
  allowTable(steps.submit, table, ["GetItem", "PutItem", "UpdateItem"], "admission");
  // A failed task on a pool account puts the job back in the queue for the next account (a queue entry).
  allowTable(steps.poll, table, ["PutItem", "UpdateItem"], "admission");
  for (const fn of [steps.submit, steps.poll, steps.finish, steps.recordFailure]) {
    if (fn === steps.finish || fn === steps.recordFailure)
      allowTable(fn, table, ["UpdateItem"], "admission");
    allowWake(fn, scope.dispatchArn);
  }
  // A batch job's end is counted on its batch, and the last one marks the batch due.
  allowTable(steps.finish, table, ["UpdateItem"], "batches");
  allowTable(steps.recordFailure, table, ["UpdateItem"], "batches");
  // ... and settles its budget reservation to what it cost.
  allowTable(steps.finish, table, ["UpdateItem"], "budgets");
  allowTable(steps.recordFailure, table, ["UpdateItem"], "budgets");
}

/** The step functions and the state machine, logged and traced. */
export function createJobFlow(
  stack: SstStack,
  scope: JobFlowScope,
): { steps: StepFunctions; machine: sfn.StateMachine } {
  const steps = createSteps(stack, scope);
  grantSteps(steps, scope);
  const flowLogs = new logs.LogGroup(stack, "JobFlowLogs", {
    retention: logs.RetentionDays.ONE_MONTH,
  });
  const machine = new sfn.StateMachine(stack, "JobFlow", {
    ...jobFlowStateMachineProps(stack, steps),
    tracingEnabled: true,
    logs: { destination: flowLogs, level: sfn.LogLevel.ALL, includeExecutionData: true },
  });
  return { steps, machine };
}
