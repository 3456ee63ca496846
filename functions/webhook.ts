/**
 * EventBridge rule target: a job's terminal event or a Batch Completed from bus reelay, delivered to every subscriber in the
 * REELAY_WEBHOOKS secret (a JSON array of {url, secret}), signed per Standard Webhooks and retried
 * with backoff inside this invocation; a subscriber that keeps failing gets a dead-letter item in the
 * jobs table. Only URLs, outcomes and ids are logged: never a secret.
 */
import { guardedFetch } from "@reelay/core/net/guarded-fetch";
import { webhookFetchPolicy } from "@reelay/core/net/policy";
import { DynamoDeadLetters } from "@reelay/core/webhooks/dead-letter";
import { dispatchWebhooks } from "@reelay/core/webhooks/dispatch";
import { type BridgeEnvelope, eventFromBridge } from "@reelay/core/webhooks/payload";
import { parseSubscribersText } from "@reelay/core/webhooks/subscribers";
import { awsProcess } from "./support/deps.ts";
import { readSecret } from "./support/secrets.ts";

const subscribers = parseSubscribersText(await readSecret("REELAY_WEBHOOKS"), "REELAY_WEBHOOKS");
const { db, tableName } = awsProcess().clients;
const deadLetters = new DynamoDeadLetters(db, tableName);
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
