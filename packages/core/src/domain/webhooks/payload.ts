/**
 * The webhook body for an event (a job's end or a batch's), in Standard Webhooks' recommended envelope
 * (`type`, `timestamp`, `data`). The event id is the webhook id: stable per job and terminal status
 * (or per batch), so a receiver can drop a repeat, and the same on every retry.
 */
import { ReelayError } from "../errors.ts";
import {
  BATCH_COMPLETED,
  type BatchCompletedEvent,
  DETAIL_TYPES,
  EVENT_SOURCE,
  type ReelayEvent,
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
 * The event carried by an EventBridge delivery: a job's terminal event or a batch's Batch Completed.
 * EventBridge gives every put its own id, so the stable id is rebuilt the way reelay makes it
 * (`<jobId>.<status>`, `<batchId>.completed`).
 */
export function eventFromBridge(envelope: BridgeEnvelope): ReelayEvent {
  const detailType = envelope["detail-type"];
  if (envelope.source === EVENT_SOURCE && detailType === BATCH_COMPLETED) {
    const detail = envelope.detail as Partial<BatchCompletedEvent["detail"]> | undefined;
    if (typeof detail?.batchId === "string" && typeof detail.finishedAt === "string") {
      return {
        id: `${detail.batchId}.completed`,
        time: detail.finishedAt,
        source: EVENT_SOURCE,
        "detail-type": BATCH_COMPLETED,
        detail: detail as BatchCompletedEvent["detail"],
      };
    }
  }
  const detail = envelope.detail as Partial<TerminalEventDetail> | undefined;
  const status = detail?.status;
  if (
    envelope.source !== EVENT_SOURCE ||
    typeof detail?.jobId !== "string" ||
    status === undefined ||
    DETAIL_TYPES[status] !== detailType
  ) {
    throw new ReelayError(
      "invalid_event",
      `Not a reelay event (source ${String(envelope.source)}, detail-type ${String(detailType)}).`,
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
