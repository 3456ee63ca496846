/**
 * The webhook body for a terminal event, in Standard Webhooks' recommended envelope
 * (`type`, `timestamp`, `data`). The event id is the webhook id: stable per job and terminal status,
 * so a receiver can drop a repeat, and the same on every retry.
 */
import type { TerminalEvent } from "../events/types.ts";

export interface WebhookMessage {
  id: string;
  body: string;
}

export function webhookMessage(event: TerminalEvent): WebhookMessage {
  return {
    id: event.id,
    body: JSON.stringify({ type: event["detail-type"], timestamp: event.time, data: event.detail }),
  };
}
