/**
 * The one API function behind every route: the same hono app the local stack serves. Reelay's own
 * Bearer key is an SST secret bound to this function only.
 */
import { apiDepsFrom, createApp } from "@reelay/api";
import { handle } from "hono/aws-lambda";
import { awsStopper, awsWiring } from "./support/deps.ts";
import { readSecret } from "./support/secrets.ts";

const wiring = await awsWiring({ callsUpstream: false });
const app = createApp(
  apiDepsFrom(wiring, {
    // Into the admission queue; the Dispatch function starts the executions.
    starter: wiring.queue,
    stopper: awsStopper(),
    adminKey: await readSecret("REELAY_API_KEY"),
    // API Gateway ends a request at 30 s (and so does this function): an images/edits wait stays well inside.
    maxWaitS: 20,
  }),
);

export const handler = handle(app);
