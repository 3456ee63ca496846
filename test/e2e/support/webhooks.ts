/** Receiver scripts and readings shared by the webhook acceptance tests. */
import type { Receiver } from "../../../packages/core/test/usecases/webhooks/receiver.ts";

/** 503 for the first `failures` attempts of each event (counted by webhook-id), then 200. */
export function failFirst(failures: number): (n: number, webhookId: string) => number {
  const seen = new Map<string, number>();
  return (_n, webhookId) => {
    const count = (seen.get(webhookId) ?? 0) + 1;
    seen.set(webhookId, count);
    return count <= failures ? 503 : 200;
  };
}

/** The statuses a receiver answered, by webhook-id, in order. */
export function attemptsPerEvent(receiver: Receiver): Record<string, number[]> {
  const byId: Record<string, number[]> = {};
  for (const request of receiver.received) {
    const id = String(request.headers["webhook-id"]);
    byId[id] = [...(byId[id] ?? []), request.status];
  }
  return byId;
}
