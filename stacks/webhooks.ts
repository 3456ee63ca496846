/**
 * Webhook delivery on AWS: a rule on bus reelay for reelay's events (detail-type "Generation …"
 * and "Batch Completed", the same set the local stack delivers) targets one function, which signs and retries itself. Subscribers are the
 * REELAY_WEBHOOKS secret (`npx sst secrets set REELAY_WEBHOOKS '[{"url":…,"secret":"whsec_…"}]'`).
 */
import { Duration } from "aws-cdk-lib";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import { Config, Function as SstFunction } from "sst/constructs";
import type { Stack } from "sst/constructs";
import { BATCH_COMPLETED, DETAIL_TYPES, EVENT_SOURCE } from "@reelay/core/events/types";
import { allowTable } from "./permissions.ts";

/** 5 tries of at most 10 s plus 15 s of backoff fit easily; more would be a stuck receiver. */
const WEBHOOK_LAMBDA_TIMEOUT_S = 120;

export function createWebhookDelivery(
  stack: Stack,
  scope: { bus: events.IEventBus; table: dynamodb.ITable; environment: Record<string, string> },
): SstFunction {
  const subscribers = new Config.Secret(stack, "REELAY_WEBHOOKS");
  const fn = new SstFunction(stack, "WebhookFunction", {
    handler: "functions/webhook.handler",
    timeout: WEBHOOK_LAMBDA_TIMEOUT_S,
    environment: scope.environment,
    bind: [subscribers],
    // The function retries each subscriber itself and dead-letters what keeps failing; a Lambda
    // retry of the whole event would deliver again to the subscribers that already got it.
    retryAttempts: 0,
  });
  // Dead letters are items in the jobs table.
  allowTable(fn, scope.table, ["PutItem"], "dead-letters");
  new events.Rule(stack, "WebhookRule", {
    eventBus: scope.bus,
    eventPattern: {
      source: [EVENT_SOURCE],
      detailType: [...Object.values(DETAIL_TYPES), BATCH_COMPLETED],
    },
    targets: [new targets.LambdaFunction(fn, { retryAttempts: 4, maxEventAge: Duration.hours(1) })],
  });
  return fn;
}
