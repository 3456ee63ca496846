/**
 * Which jobs have ended, read from a local stack's events.jsonl as it grows: every job that ends
 * appends its one terminal event there. A wait for a job asks the file first and the API only once
 * the job's event is in (or every SAFETY_NET_MS regardless): a GET /v1/jobs/{id} costs about 9
 * CPU-ms here (the test's fetch, the API, dynalite), and a file of several dozen jobs polled a GET a
 * second each spent more of the suite's CPU the longer a loaded machine made the jobs take.
 */
import { open } from "node:fs/promises";
import { DETAIL_TYPES } from "@reelay/core/domain";

/** The detail-types of the events that end a job (one per job). */
const TERMINAL_TYPES = new Set<unknown>(Object.values(DETAIL_TYPES));
/** A refresh at most this often, however many waits ask for one. */
const REFRESH_EVERY_MS = 50;

export class EventsTail {
  readonly #path: string;
  #offset = 0;
  /** The bytes after the last complete line (a line being written; bytes, so no character is cut). */
  #partial = Buffer.alloc(0);
  readonly #ended = new Set<string>();
  #refreshing: Promise<void> | undefined;
  #refreshedAt = 0;

  constructor(path: string) {
    this.#path = path;
  }

  /** Whether the job's terminal event is in the file (reading what was appended since the last look). */
  async hasEnded(jobId: string): Promise<boolean> {
    if (this.#ended.has(jobId)) return true;
    if (Date.now() - this.#refreshedAt >= REFRESH_EVERY_MS) {
      this.#refreshing ??= this.#refresh().finally(() => {
        this.#refreshedAt = Date.now();
        this.#refreshing = undefined;
      });
    }
    await this.#refreshing;
    return this.#ended.has(jobId);
  }

  async #refresh(): Promise<void> {
    const file = await open(this.#path, "r").catch(() => undefined);
    if (file === undefined) return; // No event yet: the file comes with the first.
    try {
      const { size } = await file.stat();
      if (size < this.#offset) {
        // Written afresh (a test replaced the data dir): read it from the start.
        this.#offset = 0;
        this.#partial = Buffer.alloc(0);
      }
      if (size === this.#offset) return;
      const buffer = Buffer.alloc(size - this.#offset);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, this.#offset);
      this.#offset += bytesRead;
      const bytes = Buffer.concat([this.#partial, buffer.subarray(0, bytesRead)]);
      const end = bytes.lastIndexOf(0x0a) + 1;
      this.#partial = Buffer.from(bytes.subarray(end));
      for (const line of bytes.subarray(0, end).toString("utf8").split("\n")) this.#take(line);
    } finally {
      await file.close();
    }
  }

  #take(line: string): void {
    try {
      const event = JSON.parse(line) as { "detail-type"?: unknown; detail?: { jobId?: unknown } };
      if (TERMINAL_TYPES.has(event["detail-type"]) && typeof event.detail?.jobId === "string")
        this.#ended.add(event.detail.jobId);
    } catch {
      // A line that is not JSON ends no job; the API is still asked now and then.
    }
  }
}
