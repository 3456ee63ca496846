/** The local stack's event bus: one JSON line per event in `<data dir>/events.jsonl`, plus in-process subscribers. */
import { appendFile, mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { EventSink, EventSource } from "../ports.ts";
import type { TerminalEvent } from "./types.ts";

export type EventListener = (event: TerminalEvent) => void;

export class JsonlFileSink implements EventSink, EventSource {
  readonly path: string;
  readonly #listeners = new Set<EventListener>();

  constructor(path: string) {
    this.path = path;
  }

  async emit(event: TerminalEvent): Promise<void> {
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
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A subscriber's bug must not fail the step that emitted; the line is already written.
      }
    }
  }

  /** Calls `listener` for every later event; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every event written so far (a missing file is no events); a torn last line is skipped. */
  async readAll(): Promise<TerminalEvent[]> {
    const text = await readFile(this.path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    });
    const events: TerminalEvent[] = [];
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        events.push(JSON.parse(line) as TerminalEvent);
      } catch {
        // a crash mid-append leaves at most one partial line
      }
    }
    return events;
  }
}
