import { ReelayError } from "../errors.ts";
export const DELIVERY_ID_PREFIX = "dlv";

export const DELIVERY_STATUSES = ["pending", "delivered", "dead"] as const;

export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One try: when, how long, and what came back (an HTTP status and the answer's first 1 KB, or an error). */
export interface DeliveryAttempt {
  at: string;
  latencyMs: number;
  status?: number;
  error?: string;
  response?: string;
}

export interface Delivery {
  id: string;
  /** The event's id, sent as `webhook-id` on every attempt. */
  eventId: string;
  eventType: string;
  /** Which subscriber: `config:<digest>` for REELAY_WEBHOOKS entries. */
  subscriber: string;
  url: string;
  /** The signed body, the same on every attempt. */
  body: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** After this many failed attempts the delivery is dead. */
  maxAttempts: number;
  /** Pending only. */
  nextAttemptAt?: string;
  createdAt: string;
  updatedAt: string;
  /** The traceparent of the span that announced the event: each attempt's span is its child. */
  traceparent?: string;
}

/** A delivery a sweep holds: its attempt is recorded under `lease`. */
export interface ClaimedDelivery extends Delivery {
  lease: string;
}

export interface DeliveryFilters {
  status?: DeliveryStatus;
  eventId?: string;
  eventType?: string;
  limit?: number;
}

export function deliveryNotFound(id: string): ReelayError {
  return new ReelayError("delivery_not_found", `No webhook delivery ${id}.`, {
    status: 404,
    path: "id",
  });
}
