/** The local stack's event bus: one JSON line per event in `<data dir>/events.jsonl`, plus in-process subscribers. */
import { appendFile, mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { AuditBus, EventSink, EventSource } from "../../usecases/ports.ts";
import { isBatchEvent, type ReelayEvent, type TerminalEvent } from "../../domain/events/types.ts";
import { AUDIT_DETAIL_TYPE, type AuditEvent } from "../../domain/audit/record.ts";

export type EventListener = (event: ReelayEvent) => void;

export class JsonlFileSink implements EventSink, EventSource, AuditBus {
  readonly path: string;
  readonly #listeners = new Set<EventListener>();

  constructor(path: string) {
    this.path = path;
  }

  async emit(event: ReelayEvent): Promise<void> {
    await this.#append(event);
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A subscriber's bug must not fail the step that emitted; the line is already written.
      }
    }
  }

  /** An audit record is written to the file only: the stream's subscribers follow jobs' events. */
  announce(event: AuditEvent): Promise<void> {
    return this.#append(event);
  }

  async #append(event: ReelayEvent | AuditEvent): Promise<void> {
    const line = {
      id: event.id,
      time: event.time,
      source: event.source,
      "detail-type": event["detail-type"],
      detail: event.detail,
    };
    await mkdir(dirname(this.path), { recursive: true });
    // One write per line with O_APPEND, so concurrent emits never interleave inside a line.
    await appendFile(this.path, `${JSON.stringify(line)}\n`, "utf8");
  }

  /** Calls `listener` for every later event; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every job's terminal event written so far (a missing file is no events). */
  async readAll(): Promise<TerminalEvent[]> {
    return (await this.readEvents()).filter((event) => !isBatchEvent(event)) as TerminalEvent[];
  }

  /** Every event written so far, jobs' and batches' (audit records are not); a torn last line is skipped. */
  async readEvents(): Promise<ReelayEvent[]> {
    const text = await readFile(this.path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    });
    const events: ReelayEvent[] = [];
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        const event = JSON.parse(line) as ReelayEvent | AuditEvent;
        if (event["detail-type"] !== AUDIT_DETAIL_TYPE) events.push(event);
      } catch {
        // a crash mid-append leaves at most one partial line
      }
    }
    return events;
  }
}
