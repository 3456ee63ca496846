/**
 * The one API function behind every route: the same hono app the local stack serves. Reelay's own
 * Bearer key is an SST secret bound to this function only.
 */
import { handle } from "hono/aws-lambda";
import { Config } from "sst/node/config";
import { createApp, singleKeyAuthenticator } from "../packages/api/src/index.ts";
import { awsStarter, awsStopper, awsStores, required } from "./support/deps.ts";

const stores = awsStores();
const app = createApp({
  jobs: stores.jobs,
  objects: stores.objects,
  sink: stores.events,
  starter: awsStarter(),
  stopper: awsStopper(),
  authenticate: singleKeyAuthenticator(required((Config as unknown as Record<string, string | undefined>).REELAY_API_KEY, "REELAY_API_KEY")),
});

export const handler = handle(app);
