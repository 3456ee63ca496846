/**
 * Least privilege, spelled out: each function gets named actions on the exact table, bucket prefix,
 * bus or state machine it uses. No wildcard actions anywhere.
 */
import { ArnFormat, Stack } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type * as events from "aws-cdk-lib/aws-events";
import type * as s3 from "aws-cdk-lib/aws-s3";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { JOBS_LIST_INDEX } from "../packages/core/src/jobs/schema.ts";

export type TableAction = "GetItem" | "PutItem" | "UpdateItem" | "Query";
export type ObjectAction = "GetObject" | "PutObject" | "DeleteObject" | "AbortMultipartUpload";
export type Prefix = "inbox/" | "outputs/" | "rejected/" | "uploads/";

function allow(fn: IFunction, actions: string[], resources: string[]): void {
  fn.addToRolePolicy(new iam.PolicyStatement({ effect: iam.Effect.ALLOW, actions, resources }));
}

export function allowTable(fn: IFunction, table: dynamodb.ITable, actions: TableAction[]): void {
  allow(fn, actions.map((a) => `dynamodb:${a}`), [table.tableArn]);
  // Listing reads the newest-first index; only Query ever touches it.
  if (actions.includes("Query")) allow(fn, ["dynamodb:Query"], [`${table.tableArn}/index/${JOBS_LIST_INDEX}`]);
}

export function allowObjects(fn: IFunction, bucket: s3.IBucket, prefix: Prefix, actions: ObjectAction[]): void {
  allow(fn, actions.map((a) => `s3:${a}`), [bucket.arnForObjects(`${prefix}*`)]);
}

/**
 * Listing, limited to one prefix. Without s3:ListBucket a HEAD of a missing object answers 403
 * instead of 404, and "not there yet" could not be told from "not allowed".
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
