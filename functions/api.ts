/**
 * The one API function behind every route: the same hono app the local stack serves. Reelay's own
 * Bearer key is an SST secret bound to this function only. It has no subscriber secrets: a replay
 * goes to the subscribers the event was delivered to before.
 */
import { apiDepsFrom, createApp } from "@reelay/api";
import { handle } from "hono/aws-lambda";
import { DeliveryStore } from "@reelay/core/webhooks/deliveries";
import { SubscriberStore } from "@reelay/core/webhooks/managed";
import { awsProcess, awsStopper, awsWiring } from "./support/deps.ts";
import { withMetrics } from "./support/metrics.ts";
import { readSecret } from "./support/secrets.ts";

const wiring = await awsWiring({ callsUpstream: false });
const { config, clients } = awsProcess();
const app = createApp(
  apiDepsFrom(wiring, {
    // Into the admission queue; the Dispatch function starts the executions.
    starter: wiring.queue,
    stopper: awsStopper(),
    adminKey: await readSecret("REELAY_API_KEY"),
    // API Gateway ends a request at 30 s (and so does this function): an images/edits wait stays well inside.
    maxWaitS: 20,
    // The delivery log and managed subscribers; what they make, the webhook sweep sends within a minute.
    webhooks: {
      store: new DeliveryStore(clients.db, clients.tableName),
      schedule: config.webhookSchedule,
      now: () => new Date(),
      managed: { store: new SubscriberStore(clients.db, clients.tableName), deployment: "aws" },
    },
  }),
);

// Jobs made and ended here, and budget refusals, written at the end of each request.
export const handler = withMetrics(awsProcess().metrics, handle(app));
