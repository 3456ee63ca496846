/**
 * Admission on AWS: the Dispatch function admits queued jobs while upstream slots are free and
 * starts their executions. Every enqueue and slot release wakes it with an asynchronous invoke; a
 * one-minute schedule runs the sweep (usecases/admission/queue-sweep.ts) and covers a wake that was lost.
 *
 * Its name is fixed, so the functions that wake it find it by name and ARN: the step functions
 * wake it and it starts the state machine that invokes them, and a reference to its resource from
 * theirs would be a dependency cycle.
 */
import { ArnFormat, Duration, Stack } from "aws-cdk-lib";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type * as s3 from "aws-cdk-lib/aws-s3";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { Function as SstFunction, type Stack as SstStack } from "sst/constructs";
import type { AdmissionSettings } from "@reelay/core/domain";
import {
  allowBatchResults,
  allowPutEvents,
  allowStartExecution,
  allowTable,
} from "./permissions.ts";

export interface DispatchName {
  name: string;
  arn: string;
}

/** The Dispatch function's name and ARN, known before the function exists. */
export function dispatchName(stack: SstStack, app: { name: string; stage: string }): DispatchName {
  const name = `${app.stage}-${app.name}-dispatch`;
  const arn = Stack.of(stack).formatArn({
    service: "lambda",
    resource: "function",
    resourceName: name,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
  return { name, arn };
}

export function createDispatcher(
  stack: SstStack,
  scope: {
    name: DispatchName;
    table: dynamodb.ITable;
    bucket: s3.IBucket;
    bus: events.IEventBus;
    machine: sfn.IStateMachine;
    environment: Record<string, string>;
  },
): SstFunction {
  const fn = new SstFunction(stack, "DispatchFunction", {
    handler: "functions/dispatch.handler",
    functionName: scope.name.name,
    timeout: 60,
    environment: { ...scope.environment, REELAY_STATE_MACHINE_ARN: scope.machine.stateMachineArn },
  });
  allowTable(fn, scope.table, ["GetItem", "BatchGetItem", "UpdateItem"], "jobs");
  allowTable(fn, scope.table, ["GetItem", "UpdateItem", "DeleteItem", "Query"], "admission");
  // Limits per key: a job leaving the queue counts back, a place in flight before each slot; the
  // keys' own limits (and budgets) are read from their listing.
  allowTable(fn, scope.table, ["GetItem", "UpdateItem"], "key-limits");
  allowTable(fn, scope.table, ["Query"], "api-keys");
  // Completing a batch: its record, lines and the due set, then results.jsonl beside the outputs.
  allowTable(fn, scope.table, ["GetItem", "UpdateItem", "Query"], "batches");
  allowBatchResults(fn, scope.bucket);
  allowStartExecution(fn, scope.machine);
  // A job that waited past REELAY_QUEUE_TIMEOUT_S ends here, with its Generation Failed event.
  allowPutEvents(fn, scope.bus);
  // ... and gives back its budget reservation; a batch line that no longer fits its key's budget
  // is refused with what the budget has used, read from its ledger.
  allowTable(fn, scope.table, ["GetItem", "UpdateItem"], "budgets");
  new events.Rule(stack, "DispatchSchedule", {
    schedule: events.Schedule.rate(Duration.minutes(1)),
    targets: [new targets.LambdaFunction(fn, { retryAttempts: 0 })],
  });
  return fn;
}

/** The operator's admission settings, taken at deploy time like the upstream URL. */
export function admissionEnvironment(settings: AdmissionSettings): Record<string, string> {
  return {
    ...(settings.concurrency === undefined
      ? {}
      : { REELAY_UPSTREAM_CONCURRENCY: String(settings.concurrency) }),
    ...(settings.ratePerS === undefined ? {} : { REELAY_UPSTREAM_RATE: String(settings.ratePerS) }),
    REELAY_QUEUE_TIMEOUT_S: String(settings.queueTimeoutS),
  };
}
