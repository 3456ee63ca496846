/** The jobs' and batches' own webhooks on a deployment's table (targets.ts reads them at each event). */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { BatchStore } from "./batch-table.ts";
import { JobStore } from "./job-table.ts";
import { ApiKeyStore } from "./api-key-table.ts";
import type { OwnWebhooks } from "../../usecases/webhooks/targets.ts";

export function ownWebhooks(db: DynamoDBDocumentClient, tableName: string): OwnWebhooks {
  const keys = new ApiKeyStore(db, tableName);
  return {
    jobs: new JobStore(db, tableName),
    batches: new BatchStore(db, tableName),
    secretsOf: (keyId) => keys.webhookSecretsOf(keyId),
  };
}
