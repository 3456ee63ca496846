/**
 * Least privilege, spelled out: each function gets named actions on the exact table (and, where it
 * can, the kind of item), bucket prefix or object, bus or state machine it uses. No wildcard actions
 * anywhere. Both ways checked: `npm run rehearse` records the grants its calls used
 * (stacks/grants.rehearsed.json) and fails on a grant no call used unless EXPLAINED_GRANTS below
 * says why it stays; the infra test fails on a grant of the template that is in neither.
 */
import {
  accountAdmissionKey,
  API_KEY_KEY_PREFIX,
  KEYS_LIST_PARTITION,
  ADMISSION_KEY,
  QUEUE_KEY_PREFIX,
  QUEUE_PARTITION,
  BATCHES_DUE_KEY,
  BATCHES_PARTITION,
  JOBS_LIST_INDEX,
  BUDGET_KEY_PREFIX,
  DELIVERY_PARTITION_PREFIX,
  SUBSCRIBER_ID_PREFIX,
  SUBSCRIBERS_PARTITION,
  GENERATION_STATS_KEY_PREFIX,
  KEY_LIMITS_KEY_PREFIX,
  REUSE_KEY_PREFIX,
} from "@reelay/core/adapters";
import { ArnFormat, Aws, Stack } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type * as events from "aws-cdk-lib/aws-events";
import type * as s3 from "aws-cdk-lib/aws-s3";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import {
  AUDIT_ID_PREFIX,
  BATCH_ID_PREFIX,
  JOB_ID_PREFIXES,
  manifestKey,
  DELIVERY_ID_PREFIX,
  pendingUploadKey,
  stagedUploadKey,
} from "@reelay/core/domain";
import { resultsKey } from "@reelay/core/usecases";

export type TableAction =
  | "GetItem"
  | "BatchGetItem"
  | "PutItem"
  | "UpdateItem"
  | "DeleteItem"
  | "Query";
export type ObjectAction =
  | "GetObject"
  | "PutObject"
  | "PutObjectTagging"
  | "DeleteObject"
  | "AbortMultipartUpload";
export type Prefix = "inbox/" | "outputs/" | "rejected/" | "uploads/";

function allow(
  fn: IFunction,
  actions: string[],
  resources: string[],
  conditions?: Record<string, unknown>,
): void {
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      effect: iam.Effect.ALLOW,
      actions,
      resources,
      ...(conditions === undefined ? {} : { conditions }),
    }),
  );
}

/**
 * Which items of the one table a function may touch, by partition key: the table also holds API
 * key hashes (`apikey#...`) and webhook deliveries, which a job step has no business reading.
 * "all" is the API function, which serves jobs and manages keys.
 */
export type TableItems =
  | "jobs"
  | "deliveries"
  | "webhook-subscribers"
  | "generation-stats"
  | "admission"
  | "batches"
  | "budgets"
  | "api-keys"
  | "key-limits"
  | "all";

const ITEM_KEY_PATTERNS: Record<Exclude<TableItems, "all">, string[]> = {
  // Job records, and the reuse index that names them by fingerprint.
  jobs: [...JOB_ID_PREFIXES.map((prefix) => `${prefix}_*`), `${REUSE_KEY_PREFIX}*`],
  // Webhook deliveries, and their partitions of the listing index (one per status).
  deliveries: [`${DELIVERY_ID_PREFIX}_*`, `${DELIVERY_PARTITION_PREFIX}*`],
  // Managed subscribers (their secrets sign deliveries) and their partition of the listing index.
  "webhook-subscribers": [`${SUBSCRIBER_ID_PREFIX}_*`, SUBSCRIBERS_PARTITION],
  "generation-stats": [`${GENERATION_STATS_KEY_PREFIX}*`],
  // The admission item, each pool account's (admission#<account>), the queue entries, and the
  // queue's partition of the listing index.
  admission: [ADMISSION_KEY, accountAdmissionKey("*"), `${QUEUE_KEY_PREFIX}*`, QUEUE_PARTITION],
  // Each key's limits item: its call bucket, waiting count and places in flight.
  "key-limits": [`${KEY_LIMITS_KEY_PREFIX}*`],
  // Batch records and their lines, the due set, and the batches' partition of the listing index.
  batches: [`${BATCH_ID_PREFIX}_*`, BATCHES_DUE_KEY, BATCHES_PARTITION],
  // The keys' budget ledgers, one item per key and period.
  budgets: [`${BUDGET_KEY_PREFIX}*`],
  // Stored API keys (hashed) and their partition of the listing index: a key's webhook secrets.
  "api-keys": [`${API_KEY_KEY_PREFIX}*`, KEYS_LIST_PARTITION],
};

export function allowTable(
  fn: IFunction,
  table: dynamodb.ITable,
  actions: TableAction[],
  items: TableItems,
): void {
  // GetItem/PutItem/UpdateItem name one partition key each, so LeadingKeys limits them to those items.
  const conditions =
    items === "all"
      ? undefined
      : { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ITEM_KEY_PATTERNS[items] } };
  // Every Query reelay makes reads the newest-first listing index (the table's key is a partition
  // key alone), and a Query on an index asks for the index's ARN only: Query is granted there.
  const onTable = actions.filter((a) => a !== "Query");
  if (onTable.length > 0)
    allow(
      fn,
      onTable.map((a) => `dynamodb:${a}`),
      [table.tableArn],
      conditions,
    );
  if (actions.includes("Query"))
    allow(fn, ["dynamodb:Query"], [`${table.tableArn}/index/${JOBS_LIST_INDEX}`], conditions);
}

/**
 * The audit log is append-only in IAM too, not only in code: a role that may update and delete the
 * table's items (the API's) may never update or delete an audit record (`aud_<ulid>` items). A put
 * is still allowed, since the API writes each record so (only when it does not exist yet).
 */
export function denyAuditChanges(fn: IFunction, table: dynamodb.ITable): void {
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      effect: iam.Effect.DENY,
      actions: ["dynamodb:UpdateItem", "dynamodb:DeleteItem"],
      resources: [table.tableArn],
      conditions: {
        "ForAnyValue:StringLike": { "dynamodb:LeadingKeys": [`${AUDIT_ID_PREFIX}_*`] },
      },
    }),
  );
}

export function allowObjects(
  fn: IFunction,
  bucket: s3.IBucket,
  prefix: Prefix,
  actions: ObjectAction[],
): void {
  allow(
    fn,
    actions.map((a) => `s3:${a}`),
    [bucket.arnForObjects(`${prefix}*`)],
  );
}

/**
 * Only each job's `job.json` manifest under outputs/ (Finish and RecordFailure write nothing else
 * there), tagged with its job's retention at the write (S3 asks PutObjectTagging for that).
 */
export function allowManifests(fn: IFunction, bucket: s3.IBucket): void {
  allow(fn, ["s3:PutObject", "s3:PutObjectTagging"], [bucket.arnForObjects(manifestKey("*"))]);
}

/**
 * Only a pending upload's marker and staged bytes (uploads/upl_<ulid>.pending and .staged), which
 * completing the upload deletes (or refusing its bytes does): never a completed upload.
 */
export function allowUploadStaging(fn: IFunction, bucket: s3.IBucket): void {
  allow(
    fn,
    ["s3:DeleteObject"],
    [bucket.arnForObjects(pendingUploadKey("*")), bucket.arnForObjects(stagedUploadKey("*"))],
  );
}

/**
 * output.s3_prefix: the Download step copies outputs inside S3 into the buckets of
 * REELAY_OUTPUT_BUCKETS (read at deploy time): it reads its own outputs/ as the copy's source and
 * writes those buckets' objects, nothing else of them.
 */
export function allowDelivery(fn: IFunction, bucket: s3.IBucket, targets: readonly string[]): void {
  if (targets.length === 0) return;
  allow(fn, ["s3:GetObject"], [bucket.arnForObjects("outputs/*")]);
  allow(
    fn,
    ["s3:PutObject"],
    targets.map((name) => `arn:${Aws.PARTITION}:s3:::${name}/*`),
  );
}

/**
 * Listing, limited to one prefix. Without s3:ListBucket a HEAD of a missing object answers 403
 * instead of 404, and "not there yet" could not be told from "not allowed". The s3:prefix condition
 * keeps it to the prefix; that such a ListBucket still earns the 404 inside the prefix is what
 * kopia/kopia#3072 reports from S3 itself (not checked against AWS here: no account in tests).
 */
export function allowListPrefix(fn: IFunction, bucket: s3.IBucket, prefix: Prefix): void {
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      effect: iam.Effect.ALLOW,
      actions: ["s3:ListBucket"],
      resources: [bucket.bucketArn],
      conditions: { StringLike: { "s3:prefix": [`${prefix}*`] } },
    }),
  );
}

export function allowPutEvents(fn: IFunction, bus: events.IEventBus): void {
  allow(fn, ["events:PutEvents"], [bus.eventBusArn]);
}

export function allowStartExecution(fn: IFunction, machine: sfn.IStateMachine): void {
  allow(fn, ["states:StartExecution"], [machine.stateMachineArn]);
}

/**
 * Cancel stops a job's execution. StopExecution acts on executions, not on the machine, so the
 * resource is this machine's executions (named by job id, hence the `:*`), and no other machine's.
 */
export function allowStopExecution(fn: IFunction, machine: sfn.StateMachine): void {
  const executions = Stack.of(machine).formatArn({
    service: "states",
    resource: "execution",
    resourceName: `${machine.stateMachineName}:*`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
  allow(fn, ["states:StopExecution"], [executions]);
}

/** Wakes the Dispatch function (an asynchronous invoke), named by its ARN so no function depends on another's resource. */
export function allowWake(fn: IFunction, dispatchFunctionArn: string): void {
  allow(fn, ["lambda:InvokeFunction"], [dispatchFunctionArn]);
}

/**
 * Only each batch's results.jsonl under outputs/batches/; and reading outputs/, since the links in
 * that file are presigned with this function's own role, and S3 answers a presigned GET only when
 * its signer may read the object.
 */
export function allowBatchResults(fn: IFunction, bucket: s3.IBucket): void {
  allow(fn, ["s3:PutObject"], [bucket.arnForObjects(resultsKey("*"))]);
  allow(fn, ["s3:GetObject"], [bucket.arnForObjects("outputs/*")]);
}

/**
 * A grant no rehearsal scenario uses, kept on purpose: whose it is, its lines as
 * rehearsal/iam/grant-lines.ts writes them (a string is one line, a pattern a family of them), and
 * why. The rehearsal prints each with its reason; docs/deploy.md says how the record is kept.
 */
export interface ExplainedGrant {
  /** Function construct ids (`DownloadFunction`), the state machine's (`JobFlow`), or every function. */
  roles: readonly string[] | "every function";
  grants: readonly (string | RegExp)[];
  reason: string;
}

/** A table grant's line (the table is the construct `Jobs`), limited to one kind of item. */
function itemGrant(action: TableAction, items: Exclude<TableItems, "all">): string {
  const keys = ITEM_KEY_PATTERNS[items].join("|");
  return `dynamodb:${action} Jobs if ForAllValues:StringLike dynamodb:LeadingKeys=${keys}`;
}

/** allowWake's line: the Dispatch function of the same stage, by name. */
const WAKE =
  /^lambda:InvokeFunction arn:aws:lambda:[a-z0-9-]+:\{account\}:function:\{stage\}-reelay-dispatch$/;

/** A job's or batch's own webhook_url is signed with its key's webhook secrets. */
const OWN_WEBHOOK =
  "A job's or batch's own webhook (webhook_url) names its record and is signed with its key's webhook secrets, read through the keys' listing index; no scenario's job or batch has a webhook_url.";

export const EXPLAINED_GRANTS: readonly ExplainedGrant[] = [
  {
    roles: "every function",
    grants: ["xray:PutTraceSegments *", "xray:PutTelemetryRecords *"],
    reason:
      "Tracing is Active: Lambda's X-Ray daemon sends the traces with the function's role; no call of the function's code does (AWS requires the resource *).",
  },
  {
    roles: "every function",
    grants: [
      /^ssm:GetParameters arn:aws:ssm:[a-z0-9-]+:\{account\}:parameter\/sst\/reelay\/\.fallback\/Secret\/[^ ]+$/,
    ],
    reason:
      "SST's bind grants each secret's app-wide fallback too: read only when the stage has no value of its own (sst secrets set --fallback; functions/support/secrets.ts), and the rehearsal sets every secret for its stage.",
  },
  {
    roles: ["DownloadFunction"],
    grants: ["s3:AbortMultipartUpload Bucket/outputs/*"],
    reason:
      "A multipart upload of an output that fails part way is aborted (the S3 adapter's abort()); no scenario's output breaks off mid-stream.",
  },
  {
    roles: ["ApiFunction"],
    grants: ["s3:ListBucket Bucket if StringLike s3:prefix=uploads/*"],
    reason:
      "Looking up an upload that is not there (an unknown id, or a pending upload's object before it is completed): S3 answers the HEAD 404 (upload_not_found, or the pending upload) rather than 403 only with s3:ListBucket, a choice the rehearsal's S3 does not make.",
  },
  {
    roles: ["DropFunction"],
    grants: ["s3:ListBucket Bucket if StringLike s3:prefix=inbox/*"],
    reason:
      "A drop naming a material file that is not there: S3 answers the HEAD 404 (material_not_found) rather than 403 only with s3:ListBucket, a choice the rehearsal's S3 does not make.",
  },
  {
    roles: ["JobFlow"],
    grants: [/^lambda:InvokeFunction [A-Za-z]+Function:\*$/],
    reason:
      "CDK's LambdaInvoke grants each step function's versions and aliases (ARN:*) beside it; the definition invokes the unqualified ARN.",
  },
  {
    roles: ["JobFlow"],
    grants: [/^logs:[A-Za-z]+ \*$/, /^xray:[A-Za-z]+ \*$/],
    reason:
      "Logging ALL and tracing on the state machine: Step Functions itself delivers the execution logs and traces with its role; no task calls these.",
  },
  {
    roles: ["SubmitFunction"],
    grants: [itemGrant("PutItem", "admission"), itemGrant("UpdateItem", "admission"), WAKE],
    reason:
      "A create the upstream answers 429, or a pool account refuses, puts the job back in the queue (its queue entry, its slot freed) and wakes Dispatch; the simulated accounts accept every create.",
  },
  {
    roles: ["FinishFunction"],
    grants: [itemGrant("GetItem", "jobs")],
    reason:
      "A Finish run again (Retry) after its first attempt wrote the record reads the job back, to announce it once.",
  },
  {
    roles: ["FinishFunction", "RecordFailureFunction"],
    grants: [itemGrant("UpdateItem", "admission")],
    reason:
      "Frees the job's slot when no Poll freed it (a release failed, or the job failed before Poll: a create refused, a download failed); every scenario's job reaches Poll, which frees it.",
  },
  {
    roles: ["RecordFailureFunction"],
    grants: [WAKE],
    reason: "Wakes Dispatch after freeing a slot no Poll freed (the line above).",
  },
  {
    roles: ["FinishFunction", "RecordFailureFunction"],
    grants: [itemGrant("UpdateItem", "budgets")],
    reason:
      "Settles a budget's reservation to what the job cost (a budget in money, or a failed job's give-back); the scenarios' budget counts video seconds, reserved exactly, and its refused jobs fail before they start.",
  },
  {
    roles: ["RecordFailureFunction"],
    grants: [itemGrant("UpdateItem", "batches"), "s3:PutObjectTagging Bucket/outputs/*/job.json"],
    reason:
      "A failed batch job is counted on its batch, and a failed job with a retention has its job.json tagged with it; the scenarios' failing jobs are in no batch and keep no retention.",
  },
  {
    roles: ["DropFunction"],
    grants: [itemGrant("GetItem", "jobs"), itemGrant("UpdateItem", "jobs")],
    reason:
      "S3 delivers a notification at least once: a repeat finds the job the first made (and queues it only if it never was).",
  },
  {
    roles: ["DropFunction"],
    grants: [itemGrant("GetItem", "batches"), itemGrant("PutItem", "batches")],
    reason:
      "A prompt file of several prompts is a batch: its record and lines, read back when a notification repeats; the scenarios drop one-prompt files.",
  },
  {
    roles: ["DropFunction"],
    grants: [itemGrant("UpdateItem", "key-limits")],
    reason:
      "The deployment's max_queued (REELAY_KEY_LIMITS) counts a drop's jobs before they are made; the rehearsal deploys without one.",
  },
  {
    roles: ["WebhookFunction", "WebhookSweepFunction"],
    grants: [itemGrant("Query", "api-keys").replace("Jobs ", "Jobs/index/gsi1 ")],
    reason: OWN_WEBHOOK,
  },
  {
    roles: ["WebhookSweepFunction"],
    grants: [itemGrant("GetItem", "jobs"), itemGrant("GetItem", "batches")],
    reason: OWN_WEBHOOK,
  },
  {
    roles: ["WebhookSweepFunction"],
    grants: [itemGrant("DeleteItem", "deliveries")],
    reason:
      "The sweep deletes deliveries that ended more than 30 days ago; a rehearsal lasts minutes.",
  },
  {
    roles: ["DispatchFunction"],
    grants: [itemGrant("GetItem", "key-limits")],
    reason:
      "A key at its max_in_flight: Dispatch reads its places in flight to give back stale ones; no scenario's key sets max_in_flight.",
  },
];
