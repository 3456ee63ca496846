/**
 * `reelay webhooks list | add URL [--events T,T] [--description D] | remove ID | rotate ID`: this
 * key's managed subscribers (add and rotate print the `whsec_` secret once, on stdout);
 * `reelay webhooks deliveries [--status pending|delivered|dead] [--event ID] [--limit N] | retry
 * DELIVERY_ID | replay EVENT_ID [--subscriber S]`: the delivery log and its levers (the
 * deployment's own key). `--json` prints the API's answers.
 */
import type { DeliveryView, ReelayApiClient, SubscriberView } from "../client/api.ts";
import { table } from "../client/format.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

const USAGE =
  "use `reelay webhooks list`, `add URL [--events T,T] [--description D]`, `remove ID`, `rotate ID`, `deliveries [--status S] [--event ID] [--limit N]`, `retry DELIVERY_ID` or `replay EVENT_ID [--subscriber S]`.";

/** Each action and how many positional arguments it takes. */
const ACTIONS: Record<string, number> = {
  list: 0,
  add: 1,
  remove: 1,
  rotate: 1,
  deliveries: 0,
  retry: 1,
  replay: 1,
};

type Values = {
  status?: string;
  event?: string;
  limit?: string;
  subscriber?: string;
  events?: string;
  description?: string;
  json: boolean;
};

function attemptsText(delivery: DeliveryView): string {
  return (
    delivery.attempts.map((a) => (a.status === undefined ? "error" : String(a.status))).join(",") ||
    "-"
  );
}

function deliveryRows(deliveries: readonly DeliveryView[]): string[][] {
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

function subscriberRows(subscribers: readonly SubscriberView[]): string[][] {
  return [
    ["ID", "URL", "EVENTS", "DESCRIPTION"],
    ...subscribers.map((s) => [s.id, s.url, s.events?.join(",") ?? "all", s.description || "-"]),
  ];
}

function show<T>(io: Io, json: boolean, items: T[], rows: (items: T[]) => string[][]): void {
  io.stdout(
    json
      ? `${JSON.stringify({ data: items })}\n`
      : items.length === 0
        ? "none\n"
        : table(rows(items)),
  );
}

/** A subscriber just made or rotated: the secret alone on stdout (it is shown only this once). */
function showSecret(io: Io, json: boolean, subscriber: SubscriberView): void {
  io.stdout(json ? `${JSON.stringify(subscriber)}\n` : `${subscriber.secret}\n`);
  if (!json) io.stderr(`${subscriber.id} ${subscriber.url}; the secret is shown only this once.\n`);
}

async function run(client: ReelayApiClient, action: string, id: string, values: Values, io: Io) {
  const json = values.json;
  if (action === "list") return show(io, json, await client.subscribers(), subscriberRows);
  if (action === "add") {
    const events = values.events?.split(",").map((e) => e.trim());
    const input = { url: id, ...(events === undefined ? {} : { events }) };
    const description = values.description === undefined ? {} : { description: values.description };
    return showSecret(io, json, await client.addSubscriber({ ...input, ...description }));
  }
  if (action === "remove")
    return show(io, json, [await client.removeSubscriber(id)], subscriberRows);
  if (action === "rotate") return showSecret(io, json, await client.rotateSubscriber(id));
  if (action === "retry") return show(io, json, [await client.retryDelivery(id)], deliveryRows);
  if (action === "replay")
    return show(io, json, await client.replayEvent(id, values.subscriber), deliveryRows);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  const found = await client.deliveries({ status: values.status, event: values.event, limit });
  return show(io, json, found, deliveryRows);
}

export async function runWebhooks(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      status: { type: "string" },
      event: { type: "string" },
      limit: { type: "string" },
      subscriber: { type: "string" },
      events: { type: "string" },
      description: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const [action, ...rest] = positionals;
  const wanted = action === undefined ? undefined : ACTIONS[action];
  if (action === undefined || wanted === undefined || rest.length !== wanted)
    throw new UsageError(USAGE);
  return reportFailures(io, "webhooks", values.json, async () => {
    const { client } = await openSession(io);
    await run(client, action, rest[0] ?? "", values, io);
    return 0;
  });
}
