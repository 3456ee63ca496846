import { PutEventsCommand, type EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { TransientError } from "../../domain/pipeline/step-errors.ts";
import type { AuditBus, EventSink } from "../../usecases/ports.ts";
import type { ReelayEvent } from "../../domain/events/types.ts";
import type { AuditEvent } from "../../domain/audit/record.ts";

/**
 * Puts terminal events, and audit records, on the custom bus. A rejected entry is transient: the
 * step retries it.
 */
export class EventBridgeSink implements EventSink, AuditBus {
  readonly #client: Pick<EventBridgeClient, "send">;
  readonly busName: string;

  constructor(client: Pick<EventBridgeClient, "send">, busName: string) {
    this.#client = client;
    this.busName = busName;
  }

  emit(event: ReelayEvent): Promise<void> {
    return this.#put(event);
  }

  announce(event: AuditEvent): Promise<void> {
    return this.#put(event);
  }

  async #put(event: ReelayEvent | AuditEvent): Promise<void> {
    const answer = await this.#client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: this.busName,
            Source: event.source,
            DetailType: event["detail-type"],
            Detail: JSON.stringify(event.detail),
            Time: new Date(event.time),
          },
        ],
      }),
    );
    const failed = answer.FailedEntryCount ?? 0;
    if (failed > 0) {
      const entry = answer.Entries?.[0];
      throw new TransientError(
        "event_emit_failed",
        `EventBridge refused the ${event["detail-type"]} event ${event.id}: ${entry?.ErrorCode ?? "unknown"} ${entry?.ErrorMessage ?? ""}`.trim(),
        { details: { eventId: event.id } },
      );
    }
  }
}
