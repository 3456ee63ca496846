/**
 * The webhook body for a terminal event, in Standard Webhooks' recommended envelope
 * (`type`, `timestamp`, `data`). The event id is the webhook id: stable per job and terminal status,
 * so a receiver can drop a repeat, and the same on every retry.
 */
import { ReelayError } from "../errors.ts";
import {
  DETAIL_TYPES,
  EVENT_SOURCE,
  type ReelayEvent,
  type TerminalEvent,
  type TerminalEventDetail,
} from "../events/types.ts";

export interface WebhookMessage {
  id: string;
  body: string;
}

export function webhookMessage(event: ReelayEvent): WebhookMessage {
  return {
    id: event.id,
    body: JSON.stringify({ type: event["detail-type"], timestamp: event.time, data: event.detail }),
  };
}

/** The fields of an EventBridge delivery the webhook function reads. */
export interface BridgeEnvelope {
  source?: string;
  "detail-type"?: string;
  detail?: unknown;
}

/**
 * The terminal event carried by an EventBridge delivery. EventBridge gives every put its own id, so
 * the stable id is rebuilt the way buildTerminalEvent makes it (`<jobId>.<status>`).
 */
export function eventFromBridge(envelope: BridgeEnvelope): TerminalEvent {
  const detail = envelope.detail as Partial<TerminalEventDetail> | undefined;
  const detailType = envelope["detail-type"];
  const status = detail?.status;
  if (
    envelope.source !== EVENT_SOURCE ||
    typeof detail?.jobId !== "string" ||
    status === undefined ||
    DETAIL_TYPES[status] !== detailType
  ) {
    throw new ReelayError(
      "invalid_event",
      `Not a reelay terminal event (source ${String(envelope.source)}, detail-type ${String(detailType)}).`,
    );
  }
  return {
    id: `${detail.jobId}.${status}`,
    time: detail.timings?.finishedAt ?? new Date().toISOString(),
    source: EVENT_SOURCE,
    "detail-type": DETAIL_TYPES[status],
    detail: detail as TerminalEventDetail,
  };
}
