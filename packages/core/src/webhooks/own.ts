/** The jobs' and batches' own webhooks on a deployment's table (targets.ts reads them at each event). */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { BatchStore } from "../batches/store.ts";
import { JobStore } from "../jobs/store.ts";
import { ApiKeyStore } from "../keys/store.ts";
import type { OwnWebhooks } from "./targets.ts";

export function ownWebhooks(db: DynamoDBDocumentClient, tableName: string): OwnWebhooks {
  const keys = new ApiKeyStore(db, tableName);
  return {
    jobs: new JobStore(db, tableName),
    batches: new BatchStore(db, tableName),
    secretsOf: (keyId) => keys.webhookSecretsOf(keyId),
  };
}
