/**
 * Webhook delivery on AWS: a rule on bus reelay for reelay's events (detail-type "Generation …" and
 * "Batch Completed", the same set the local stack delivers) targets a function that records one
 * pending delivery per subscriber in the jobs table and sends what is due; a one-minute schedule
 * runs the same sweep in a second function, which sends the later attempts of the retry schedule
 * (REELAY_WEBHOOK_SCHEDULE). Subscribers are the REELAY_WEBHOOKS secret
 * (`npx sst secrets set REELAY_WEBHOOKS '[{"url":…,"secret":"whsec_…"}]'`).
 */
import { Duration } from "aws-cdk-lib";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import { Config, Function as SstFunction } from "sst/constructs";
import type { Stack } from "sst/constructs";
import { BATCH_COMPLETED, DETAIL_TYPES, EVENT_SOURCE } from "@reelay/core/domain";
import { allowTable } from "./permissions.ts";

/** A sweep takes pages for 60 s at most; each attempt is limited to 10 s. */
const WEBHOOK_LAMBDA_TIMEOUT_S = 120;

export function createWebhookDelivery(
  stack: Stack,
  scope: { bus: events.IEventBus; table: dynamodb.ITable; environment: Record<string, string> },
): { webhookFunction: SstFunction; webhookSweepFunction: SstFunction } {
  const subscribers = new Config.Secret(stack, "REELAY_WEBHOOKS");
  const make = (id: string, handler: "handler" | "sweep", retryAttempts: number) => {
    const fn = new SstFunction(stack, id, {
      handler: `functions/webhook.${handler}`,
      timeout: WEBHOOK_LAMBDA_TIMEOUT_S,
      environment: {
        ...scope.environment,
        // A subscriber's URL can carry its token in the path, and Powertools Tracer records the
        // path of every call it traces: this function's HTTP calls are left out of its traces.
        POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: "false",
      },
      bind: [subscribers],
      retryAttempts,
    });
    const sweep = handler === "sweep";
    // Delivery items and their partitions of the listing index (due ones are found through it):
    // both claim and record attempts; the event's function records new ones, the sweep deletes
    // those that ended more than 30 days ago (neither reads one by id: only the API's retry does).
    allowTable(
      fn,
      scope.table,
      sweep ? ["UpdateItem", "DeleteItem", "Query"] : ["PutItem", "UpdateItem", "Query"],
      "deliveries",
    );
    // The managed subscriber a delivery names (its URL and secrets); the event's function also
    // lists those the event goes to, and reads the job whose key owns it.
    allowTable(fn, scope.table, sweep ? ["GetItem"] : ["GetItem", "Query"], "webhook-subscribers");
    allowTable(fn, scope.table, ["GetItem"], "jobs");
    // A job's or batch's own webhook (webhook_url), signed with its key's webhook secrets.
    allowTable(fn, scope.table, ["GetItem"], "batches");
    allowTable(fn, scope.table, ["Query"], "api-keys");
    return fn;
  };
  // A failed run of the event's function is run again until its deliveries are recorded (recording
  // twice adds nothing); a failed sweep loses nothing, the next one finds the same due deliveries.
  const webhookFunction = make("WebhookFunction", "handler", 2);
  const webhookSweepFunction = make("WebhookSweepFunction", "sweep", 0);
  new events.Rule(stack, "WebhookRule", {
    eventBus: scope.bus,
    eventPattern: {
      source: [EVENT_SOURCE],
      detailType: [...Object.values(DETAIL_TYPES), BATCH_COMPLETED],
    },
    targets: [
      new targets.LambdaFunction(webhookFunction, {
        retryAttempts: 4,
        maxEventAge: Duration.hours(1),
      }),
    ],
  });
  new events.Rule(stack, "WebhookSchedule", {
    schedule: events.Schedule.rate(Duration.minutes(1)),
    targets: [new targets.LambdaFunction(webhookSweepFunction, { retryAttempts: 0 })],
  });
  return { webhookFunction, webhookSweepFunction };
}
