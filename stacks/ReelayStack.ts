/**
 * The whole AWS side of reelay in one stack: storage, the job flow state machine and its step
 * functions, the HTTP API, the S3 drop notification, webhook delivery, the dispatcher, and the
 * alarms and dashboard over them; each part in its own file, composed here.
 */
import { Config, type StackContext } from "sst/constructs";
import { type Config as Settings, loadConfig } from "@reelay/core/wiring";
import { createAlarms } from "./alarms.ts";
import { admissionEnvironment, createDispatcher, dispatchName } from "./admission.ts";
import { createApi } from "./api.ts";
import { createDropHandler } from "./drops.ts";
import { createJobFlow } from "./job-flow.ts";
import { moneyEnvironment } from "./money.ts";
import { suppressNagFindings } from "./nag.ts";
import { allowDelivery } from "./permissions.ts";
import { rehearsalEnvironment } from "./rehearsal.ts";
import { createStorage } from "./storage.ts";
import { upstreamAccess } from "./upstream.ts";
import { createWebhookDelivery } from "./webhooks.ts";

export { STEP_HANDLERS } from "./job-flow.ts";

/** The deployer's settings (read at deploy time) that every function gets. */
function settingsEnvironment(config: Settings): Record<string, string> {
  return {
    REELAY_DEFAULT_MODEL: config.defaultModel,
    REELAY_WEBHOOK_SCHEDULE: config.webhookSchedule.join(","),
    // The deployer's limit is the one the Download step enforces.
    REELAY_MAX_OUTPUT_BYTES: String(config.maxOutputBytes),
    // Whether the Download step fails an output that differs from its request.
    REELAY_VERIFY: config.verify,
    // A job's retention when its request gives none, and where output.s3_prefix may deliver.
    ...(config.retentionDays === undefined
      ? {}
      : { REELAY_RETENTION_DAYS: String(config.retentionDays) }),
    REELAY_OUTPUT_BUCKETS: config.outputBuckets.join(","),
    // An upload's expires_at, as the lifecycle rule on uploads/ removes it.
    REELAY_UPLOAD_RETENTION_DAYS: String(config.uploadRetentionDays),
    // Every job's deadline, when the deployer replaces the formula's (Submit sets it, Poll keeps it).
    ...(config.jobTimeoutS === undefined
      ? {}
      : { REELAY_JOB_TIMEOUT_S: String(config.jobTimeoutS) }),
    // The functions' Powertools Logger level, as the deployer set it (default info).
    REELAY_LOG_LEVEL: config.log.level,
    ...admissionEnvironment(config.admission),
    ...moneyEnvironment(config),
  };
}

export function ReelayStack({ stack, app }: StackContext) {
  const config = loadConfig();
  // The bus name is fixed ("reelay") for prod; other stages in the same account get their own,
  // and so does the dashboard.
  const eventBusName = app.stage === "prod" ? "reelay" : `reelay-${app.stage}`;
  const { bucket, table, bus } = createStorage(stack, {
    eventBusName,
    uploadRetentionDays: config.uploadRetentionDays,
  });
  const upstream = upstreamAccess(stack, app.stage, config);
  // The Bearer key clients use for reelay's own API (`npx sst secrets set REELAY_API_KEY ...`).
  const apiKey = new Config.Secret(stack, "REELAY_API_KEY");
  const dispatch = dispatchName(stack, app);
  const environment = {
    REELAY_TABLE_NAME: table.tableName,
    REELAY_BUCKET_NAME: bucket.bucketName,
    REELAY_EVENT_BUS_NAME: bus.eventBusName,
    ...upstream.environment,
    REELAY_DISPATCH_FUNCTION: dispatch.name,
    ...settingsEnvironment(config),
    ...rehearsalEnvironment(app),
  };
  const scope = { table, bucket, bus, environment, dispatchArn: dispatch.arn };
  const { steps, machine } = createJobFlow(stack, { ...scope, upstreamKeys: upstream.keys });
  allowDelivery(steps.download, bucket, config.outputBuckets);
  const {
    api,
    fn: apiFunction,
    mcp: mcpFunction,
  } = createApi(stack, {
    ...scope,
    machine,
    apiKey,
  });
  const dropFunction = createDropHandler(stack, scope);
  const webhooks = createWebhookDelivery(stack, { bus, table, environment });
  const dispatchFunction = createDispatcher(stack, { ...scope, name: dispatch, machine });
  const functions = {
    apiFunction,
    mcpFunction,
    dropFunction,
    ...webhooks,
    dispatchFunction,
    ...(upstream.simulator === undefined ? {} : { simulatorFunction: upstream.simulator.fn }),
  };
  const { topic: alarmTopic } = createAlarms(stack, {
    machine,
    httpApi: api.cdk.httpApi,
    queueTimeoutS: config.admission.queueTimeoutS,
    alertEmail: config.alertEmail,
    dashboardName: eventBusName,
  });
  suppressNagFindings(stack, {
    functions: [...Object.values(steps), ...Object.values(functions)],
    jobFlow: machine,
    routes: api.node.children.filter((child) => child.node.id.startsWith("Route_")),
    delivery: { fn: steps.download, buckets: config.outputBuckets },
  });
  stack.addOutputs({
    ApiUrl: api.url,
    BucketName: bucket.bucketName,
    TableName: table.tableName,
    EventBusName: bus.eventBusName,
    StateMachineArn: machine.stateMachineArn,
    AlarmTopicArn: alarmTopic.topicArn,
    // The deployed simulator's base URL, the upstream of a trial stage (stacks/simulator.ts).
    ...(upstream.simulator === undefined ? {} : { SimulatorUrl: upstream.simulator.baseUrl }),
  });
  return { api, bucket, table, bus, machine, steps, ...functions };
}
