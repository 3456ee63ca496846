/**
 * The one API function behind every route: the same hono app the local stack serves. Reelay's own
 * Bearer key is an SST secret bound to this function only.
 */
import { handle } from "hono/aws-lambda";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createApp, keyStoreAuthenticator } from "../packages/api/src/index.ts";
import { loadConfig } from "../packages/core/src/config.ts";
import { ApiKeyStore } from "../packages/core/src/keys/store.ts";
import { awsStarter, awsStopper, awsStores, required } from "./support/deps.ts";
import { readSecret } from "./support/secrets.ts";

const stores = awsStores();
const config = loadConfig();
// Stored API keys live in the jobs table (hashed); the REELAY_API_KEY secret is the admin key.
const keys = new ApiKeyStore(
  DynamoDBDocumentClient.from(new DynamoDBClient({ region: config.aws.region })),
  required(config.aws.tableName, "REELAY_TABLE_NAME"),
);
const app = createApp({
  jobs: stores.jobs,
  objects: stores.objects,
  sink: stores.events,
  starter: awsStarter(),
  stopper: awsStopper(),
  keys,
  // API Gateway ends a request at 30 s (and so does this function): an images/edits wait stays well inside.
  maxWaitS: 20,
  authenticate: keyStoreAuthenticator(await readSecret("REELAY_API_KEY"), keys),
});

export const handler = handle(app);
