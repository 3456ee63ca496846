/** Prompt files dropped into the bucket's inbox/: the S3 notification and the function it calls. */
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as s3n from "aws-cdk-lib/aws-s3-notifications";
import { Function as SstFunction, type Stack as SstStack } from "sst/constructs";
import { allowListPrefix, allowObjects, allowTable, allowWake } from "./permissions.ts";

interface DropScope {
  table: dynamodb.ITable;
  bucket: s3.Bucket;
  environment: Record<string, string>;
  dispatchArn: string;
}

export function createDropHandler(stack: SstStack, scope: DropScope): SstFunction {
  const { table, bucket } = scope;
  const fn = new SstFunction(stack, "DropFunction", {
    handler: "functions/drop.handler",
    timeout: 60,
    environment: scope.environment,
  });
  allowTable(fn, table, ["GetItem", "PutItem", "UpdateItem"], "jobs");
  // Reads the drop, presigns materials beside it, moves a bad file to rejected/.
  allowObjects(fn, bucket, "inbox/", ["GetObject", "DeleteObject"]);
  allowObjects(fn, bucket, "rejected/", ["PutObject"]);
  allowListPrefix(fn, bucket, "inbox/");
  allowTable(fn, table, ["PutItem"], "admission");
  // The deployment's max_queued over drops: a drop's jobs are counted before they are made.
  allowTable(fn, table, ["UpdateItem"], "key-limits");
  // A file of several prompts is a batch: its record and lines, read back when a notification repeats.
  allowTable(fn, table, ["GetItem", "PutItem"], "batches");
  allowWake(fn, scope.dispatchArn);
  bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(fn), {
    prefix: "inbox/",
  });
  return fn;
}
