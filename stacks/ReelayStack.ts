/**
 * The whole AWS side of reelay in one stack: storage, the job flow state machine and its step
 * functions, the HTTP API and the S3 drop notification.
 */
import * as logs from "aws-cdk-lib/aws-logs";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as s3n from "aws-cdk-lib/aws-s3-notifications";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { Api, Config, Function as SstFunction, type StackContext } from "sst/constructs";
import { loadConfig } from "@reelay/core/config";
import { ReelayError } from "@reelay/core/errors";
import {
  STEP_LAMBDA_TIMEOUT_S,
  STEP_MEMORY_MB,
  UPSTREAM_STEPS,
  type JobFlowStep,
} from "@reelay/flow/steps";
import { jobFlowStateMachineProps } from "@reelay/flow/synth-definition";
import { suppressNagFindings } from "./nag.ts";
import {
  allowListPrefix,
  allowManifests,
  allowObjects,
  allowPutEvents,
  allowStopExecution,
  allowTable,
  allowWake,
} from "./permissions.ts";
import { admissionEnvironment, createDispatcher, dispatchName } from "./admission.ts";
import { createStorage } from "./storage.ts";
import { createWebhookDelivery } from "./webhooks.ts";

/** Stage "test" (the infra tests) synthesizes without a real upstream; every other stage needs one. */
const TEST_UPSTREAM_URL = "https://upstream.test.invalid/v1";

export const STEP_HANDLERS: Record<JobFlowStep, string> = {
  submit: "functions/submit.handler",
  poll: "functions/poll.handler",
  download: "functions/download.handler",
  finish: "functions/finish.handler",
  recordFailure: "functions/fail.handler",
};

export function ReelayStack({ stack, app }: StackContext) {
  const config = loadConfig();
  const upstreamUrl = config.upstreamUrl ?? (app.stage === "test" ? TEST_UPSTREAM_URL : undefined);
  if (upstreamUrl === undefined) {
    throw new ReelayError(
      "invalid_config",
      "REELAY_UPSTREAM_URL must be set (a base URL ending in /v1) to deploy reelay.",
      {
        path: "REELAY_UPSTREAM_URL",
      },
    );
  }
  // The bus name is fixed ("reelay") for prod; other stages in the same account get their own.
  const eventBusName = app.stage === "prod" ? "reelay" : `reelay-${app.stage}`;
  const { bucket, table, bus } = createStorage(stack, { eventBusName });

  // Set with `npx sst secrets set UPSTREAM_API_KEY ...`; functions fetch it from SSM at cold start.
  const upstreamApiKey = new Config.Secret(stack, "UPSTREAM_API_KEY");
  // The Bearer key clients use for reelay's own API (`npx sst secrets set REELAY_API_KEY ...`).
  const apiKey = new Config.Secret(stack, "REELAY_API_KEY");

  const dispatch = dispatchName(stack, app);
  const environment = {
    REELAY_TABLE_NAME: table.tableName,
    REELAY_BUCKET_NAME: bucket.bucketName,
    REELAY_EVENT_BUS_NAME: bus.eventBusName,
    REELAY_UPSTREAM_URL: upstreamUrl,
    REELAY_DEFAULT_MODEL: config.defaultModel,
    REELAY_DISPATCH_FUNCTION: dispatch.name,
    ...admissionEnvironment(config.admission),
  };

  const stepFunction = (step: JobFlowStep) =>
    new SstFunction(stack, `${step.charAt(0).toUpperCase()}${step.slice(1)}Function`, {
      handler: STEP_HANDLERS[step],
      timeout: STEP_LAMBDA_TIMEOUT_S[step],
      memorySize: `${STEP_MEMORY_MB[step]} MB`,
      environment,
      bind: UPSTREAM_STEPS.includes(step) ? [upstreamApiKey] : [],
    });
  const steps = {
    submit: stepFunction("submit"),
    poll: stepFunction("poll"),
    download: stepFunction("download"),
    finish: stepFunction("finish"),
    recordFailure: stepFunction("recordFailure"),
  };
  for (const fn of Object.values(steps)) allowTable(fn, table, ["GetItem", "UpdateItem"], "jobs");
  // The predicted first wait: Submit reads the model's observed generation times, Poll reads and adds to them.
  allowTable(steps.submit, table, ["GetItem"], "generation-stats");
  allowTable(steps.poll, table, ["GetItem", "UpdateItem"], "generation-stats");
  // Download streams outputs in (multipart); every terminal step rewrites the job.json manifest.
  allowObjects(steps.download, bucket, "outputs/", ["PutObject", "AbortMultipartUpload"]);
  allowManifests(steps.finish, bucket);
  allowManifests(steps.recordFailure, bucket);
  allowPutEvents(steps.finish, bus);
  allowPutEvents(steps.recordFailure, bus);
  // A 429 puts the job back in the queue (Submit); a task's end frees its slot (Poll, Finish, RecordFailure).
  allowTable(steps.submit, table, ["GetItem", "PutItem", "UpdateItem"], "admission");
  for (const fn of [steps.submit, steps.poll, steps.finish, steps.recordFailure]) {
    if (fn !== steps.submit) allowTable(fn, table, ["UpdateItem"], "admission");
    allowWake(fn, dispatch.arn);
  }
  // A batch job's end is counted on its batch, and the last one marks the batch due.
  allowTable(steps.finish, table, ["UpdateItem"], "batches");
  allowTable(steps.recordFailure, table, ["UpdateItem"], "batches");

  const flowLogs = new logs.LogGroup(stack, "JobFlowLogs", {
    retention: logs.RetentionDays.ONE_MONTH,
  });
  const machine = new sfn.StateMachine(stack, "JobFlow", {
    ...jobFlowStateMachineProps(stack, steps),
    tracingEnabled: true,
    logs: { destination: flowLogs, level: sfn.LogLevel.ALL, includeExecutionData: true },
  });

  // Cancel stops executions by name, so the API knows the machine.
  const apiEnvironment = { ...environment, REELAY_STATE_MACHINE_ARN: machine.stateMachineArn };

  const apiFunction = new SstFunction(stack, "ApiFunction", {
    handler: "functions/api.handler",
    timeout: 30,
    environment: apiEnvironment,
    bind: [apiKey],
  });
  allowTable(
    apiFunction,
    table,
    ["GetItem", "BatchGetItem", "PutItem", "UpdateItem", "DeleteItem", "Query"],
    "all",
  );
  // Presigned links to finished outputs are signed with this role, so it reads outputs/.
  allowObjects(apiFunction, bucket, "outputs/", ["GetObject"]);
  // POST /v1/images/edits stores the uploaded images and passes them upstream as presigned links.
  allowObjects(apiFunction, bucket, "uploads/", ["PutObject", "GetObject"]);
  // Jobs go into the admission queue; the Dispatch function starts their executions.
  allowWake(apiFunction, dispatch.arn);
  // POST /v1/jobs/{id}/cancel stops the job's execution.
  allowStopExecution(apiFunction, machine);
  // A job that cannot be started is failed by the API itself, which then announces it.
  allowPutEvents(apiFunction, bus);

  // Bearer auth is checked by the API function itself on every /v1 route (one key store, the
  // same code path locally and on AWS); API Gateway routes carry no authorizer of their own.
  const api = new Api(stack, "Api", {
    accessLog: { retention: "one_month" },
    routes: {
      "GET /healthz": apiFunction,
      "GET /openapi.json": apiFunction,
      "ANY /v1/{proxy+}": apiFunction,
    },
  });

  const dropFunction = new SstFunction(stack, "DropFunction", {
    handler: "functions/drop.handler",
    timeout: 60,
    environment,
  });
  allowTable(dropFunction, table, ["GetItem", "PutItem", "UpdateItem"], "jobs");
  // Reads the drop, presigns materials beside it, moves a bad file to rejected/.
  allowObjects(dropFunction, bucket, "inbox/", ["GetObject", "DeleteObject"]);
  allowObjects(dropFunction, bucket, "rejected/", ["PutObject"]);
  allowListPrefix(dropFunction, bucket, "inbox/");
  allowTable(dropFunction, table, ["PutItem"], "admission");
  allowWake(dropFunction, dispatch.arn);
  bucket.addEventNotification(
    s3.EventType.OBJECT_CREATED,
    new s3n.LambdaDestination(dropFunction),
    { prefix: "inbox/" },
  );

  const webhookFunction = createWebhookDelivery(stack, { bus, table, environment });
  const dispatchFunction = createDispatcher(stack, {
    name: dispatch,
    table,
    bucket,
    bus,
    machine,
    environment,
  });

  suppressNagFindings(stack, {
    functions: [
      ...Object.values(steps),
      apiFunction,
      dropFunction,
      webhookFunction,
      dispatchFunction,
    ],
    jobFlow: machine,
    routes: api.node.children.filter((child) => child.node.id.startsWith("Route_")),
  });

  stack.addOutputs({
    ApiUrl: api.url,
    BucketName: bucket.bucketName,
    TableName: table.tableName,
    EventBusName: bus.eventBusName,
    StateMachineArn: machine.stateMachineArn,
  });
  return {
    api,
    bucket,
    table,
    bus,
    machine,
    steps,
    apiFunction,
    dropFunction,
    webhookFunction,
    dispatchFunction,
  };
}
