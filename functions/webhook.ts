/**
 * EventBridge rule target: a terminal event from bus reelay, delivered to every subscriber in the
 * REELAY_WEBHOOKS secret (a JSON array of {url, secret}), signed per Standard Webhooks and retried
 * with backoff inside this invocation; a subscriber that keeps failing gets a dead-letter item in the
 * jobs table. Only URLs, outcomes and ids are logged: never a secret.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { loadConfig } from "../packages/core/src/config.ts";
import { guardedFetch } from "../packages/core/src/net/guarded-fetch.ts";
import { webhookFetchPolicy } from "../packages/core/src/net/policy.ts";
import { DynamoDeadLetters } from "../packages/core/src/webhooks/dead-letter.ts";
import { dispatchWebhooks } from "../packages/core/src/webhooks/dispatch.ts";
import { eventFromBridge, type BridgeEnvelope } from "../packages/core/src/webhooks/payload.ts";
import { parseSubscribersText } from "../packages/core/src/webhooks/subscribers.ts";
import { required } from "./support/deps.ts";
import { readSecret } from "./support/secrets.ts";

const config = loadConfig();
const subscribers = parseSubscribersText(await readSecret("REELAY_WEBHOOKS"), "REELAY_WEBHOOKS");
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: config.aws.region }));
const deadLetters = new DynamoDeadLetters(db, required(config.aws.tableName, "REELAY_TABLE_NAME"));
// Subscribers are the operator's, but this function runs beside the metadata service: https to public addresses only.
const fetch = guardedFetch(webhookFetchPolicy("aws"));

export async function handler(envelope: BridgeEnvelope): Promise<void> {
  const event = eventFromBridge(envelope);
  const outcomes = await dispatchWebhooks(event, subscribers, { deadLetters, fetch });
  for (const outcome of outcomes) {
    console.log(
      JSON.stringify({
        msg: "webhook",
        webhookId: event.id,
        host: new URL(outcome.url).host,
        delivered: outcome.delivered,
        attempts: outcome.attempts,
        lastError: outcome.lastError,
      }),
    );
  }
}
