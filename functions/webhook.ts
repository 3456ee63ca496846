/**
 * Webhook delivery on AWS, two entry points:
 * - `handler`, the target of the rule for reelay's events on bus reelay: records one pending
 *   delivery per subscriber (those in the REELAY_WEBHOOKS secret, a JSON array of {url, secret},
 *   and the managed ones made through POST /v1/webhooks that want the event), then
 *   sends what is due, so the schedule's immediate first attempt goes out at once. A failure before
 *   the deliveries are recorded fails the invocation and EventBridge tries it again; recording twice
 *   adds nothing.
 * - `sweep`, run every minute by a schedule: sends every delivery that is due, signed per Standard
 *   Webhooks, and records each attempt; deletes deliveries that ended more than 30 days ago.
 * Only ids, hosts and counts are logged: never a secret.
 */
import { type BridgeEnvelope, eventFromBridge, parseSubscribersText } from "@reelay/core/domain";
import { enqueueEvent, targetsFor, purgeDeliveries, sweepDeliveries } from "@reelay/core/usecases";
import { wireWebhooks } from "@reelay/core/wiring";
import { awsProcess } from "./support/deps.ts";
import { functionLogger } from "./support/log.ts";
import { withMetrics } from "./support/metrics.ts";
import { readSecret } from "./support/secrets.ts";

const { config, clients, metrics } = awsProcess();
const { deliveries: deps } = wireWebhooks({
  config,
  platform: "aws",
  clients,
  subscribers: parseSubscribersText(await readSecret("REELAY_WEBHOOKS"), "REELAY_WEBHOOKS"),
  metrics,
});
/** A sweep stops taking new pages this long before the function's own timeout. */
const SWEEP_BUDGET_MS = 60_000;

async function sweepUntilDone(): Promise<number> {
  const started = Date.now();
  let attempted = 0;
  for (;;) {
    const result = await sweepDeliveries(deps);
    attempted += result.attempted;
    if (!result.more || Date.now() - started > SWEEP_BUDGET_MS) return attempted;
  }
}

export const handler = withMetrics(metrics, deliverEvent);

export const sweep = withMetrics(metrics, sweepDue);

async function deliverEvent(envelope: BridgeEnvelope): Promise<void> {
  const event = eventFromBridge(envelope);
  const added = await enqueueEvent(deps, event, await targetsFor(deps.subscribers, event));
  const attempted = await sweepUntilDone();
  const detail = event.detail;
  // What the event is about: its batch, or its job with the model and upstream task it names.
  const about =
    "jobId" in detail
      ? {
          jobId: detail.jobId,
          model: detail.model,
          ...(detail.upstreamTaskId === null ? {} : { upstreamTaskId: detail.upstreamTaskId }),
        }
      : { batchId: detail.batchId };
  functionLogger().info("webhook", { webhookId: event.id, ...about, added, attempted });
}

async function sweepDue(): Promise<void> {
  // Deliveries kept 30 days: a page of the oldest past that goes each minute.
  const purged = await purgeDeliveries(deps);
  const attempted = await sweepUntilDone();
  if (purged > 0) functionLogger().info("webhook purge", { purged });
  if (attempted > 0) functionLogger().info("webhook sweep", { attempted });
}
