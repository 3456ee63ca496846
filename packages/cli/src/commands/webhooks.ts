/**
 * `reelay webhooks deliveries [--status pending|delivered|dead] [--event ID] [--limit N] | retry
 * DELIVERY_ID | replay EVENT_ID [--subscriber S]` [--json]: the webhook delivery log and its levers,
 * with the deployment's own (admin) key. A delivery shows each attempt's status or error in order.
 */
import type { DeliveryView } from "../client/api.ts";
import { table } from "../client/format.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

const USAGE =
  "use `reelay webhooks deliveries [--status S] [--event ID] [--limit N]`, `reelay webhooks retry DELIVERY_ID` or `reelay webhooks replay EVENT_ID [--subscriber S]`.";

function attemptsText(delivery: DeliveryView): string {
  return (
    delivery.attempts.map((a) => (a.status === undefined ? "error" : String(a.status))).join(",") ||
    "-"
  );
}

function rows(deliveries: readonly DeliveryView[]): string[][] {
  return [
    ["ID", "EVENT", "STATUS", "URL", "NEXT", "ATTEMPTS"],
    ...deliveries.map((d) => [
      d.id,
      d.eventId,
      d.status,
      d.url,
      d.nextAttemptAt ?? "-",
      attemptsText(d),
    ]),
  ];
}

function show(io: Io, json: boolean, deliveries: DeliveryView[], empty: string): void {
  io.stdout(
    json
      ? `${JSON.stringify({ data: deliveries })}\n`
      : deliveries.length === 0
        ? `${empty}\n`
        : table(rows(deliveries)),
  );
}

export async function runWebhooks(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      status: { type: "string" },
      event: { type: "string" },
      limit: { type: "string" },
      subscriber: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const [action, ...rest] = positionals;
  const wantsId = action === "retry" || action === "replay";
  if (action === undefined || !["deliveries", "retry", "replay"].includes(action))
    throw new UsageError(USAGE);
  if (rest.length !== (wantsId ? 1 : 0)) throw new UsageError(USAGE);
  return reportFailures(io, "webhooks", values.json, async () => {
    const { client } = await openSession();
    const id = rest[0] as string;
    if (action === "deliveries") {
      const found = await client.deliveries({
        status: values.status,
        event: values.event,
        limit: values.limit === undefined ? undefined : Number(values.limit),
      });
      show(io, values.json, found, "no deliveries");
    } else if (action === "retry") {
      show(io, values.json, [await client.retryDelivery(id)], "");
    } else {
      show(io, values.json, await client.replayEvent(id, values.subscriber), "");
    }
    return 0;
  });
}
