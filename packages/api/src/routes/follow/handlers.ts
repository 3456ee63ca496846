/**
 * GET /v1/jobs/{id}/events and GET /v1/batches/{id}/events: one job's or one batch's changes as
 * Server-Sent Events, read from its record every `streamPollMs`, so they work wherever the record
 * is (the local stack, or any API instance on AWS) and need no bus of their own.
 *
 * - A job: an `event: status` frame for each entry of its history (queued, running, downloading,
 *   and the end, whose data is the whole job view with its links or error), and an
 *   `event: progress` frame when the record changes between them (polls, queue position). Each
 *   frame's id is `<history entries so far>-<the change's time in ms>`; a reconnect sending it as
 *   Last-Event-ID gets the history entries after it and the progress after that time: nothing twice
 *   and no status skipped.
 * - A batch: an `event: progress` frame with its view (`total`, `counts`) whenever the counts
 *   change, and `event: completed` with the final view. Its id names the counts it carries.
 *
 * `live` streams stay open until the end (local stack). `long-poll` ones (AWS: API Gateway buffers
 * a response and ends it at 30 s) close once they have sent a frame, or after `streamMaxMs`, with
 * `retry` set low, so an EventSource reconnects with Last-Event-ID and misses nothing.
 */
import type { Context } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import { isTerminal, type Job, jobNotFound } from "@reelay/core/domain";
import type { ApiEnv, ResolvedDeps } from "../../api-deps.ts";
import { jobView, withQueuePosition } from "../../views.ts";

interface Frame {
  id: string;
  event: string;
  data: unknown;
}

/** What a stream shows: the frames after `since` (a frame id it sent), and whether it has ended. */
export type NextFrames = (
  since: string | undefined,
) => Promise<{ frames: Frame[]; ended: boolean }>;

export interface StreamSettings {
  /** How often the record is read. */
  pollMs: number;
  heartbeatMs: number;
  /** `long-poll`: close after a frame or `maxMs` (a buffering proxy in front). */
  mode: "live" | "long-poll";
  maxMs: number;
}

/** A pause that a closed connection cuts short. */
function pause(ms: number, stream: SSEStreamingApi): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    stream.onAbort(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Sends `next`'s frames until the thing ends, the client leaves, or (long-poll) a frame went. */
export function followStream(
  c: Context<ApiEnv>,
  next: NextFrames,
  settings: StreamSettings,
): Response {
  let since = c.req.header("last-event-id") || undefined;
  return streamSSE(c, async (stream) => {
    const started = Date.now();
    const heartbeat = setInterval(() => void stream.write(": heartbeat\n\n"), settings.heartbeatMs);
    try {
      if (settings.mode === "long-poll") await stream.write("retry: 1000\n\n");
      while (!stream.aborted && !stream.closed) {
        const { frames, ended } = await next(since);
        for (const frame of frames) {
          await stream.writeSSE({
            id: frame.id,
            event: frame.event,
            data: JSON.stringify(frame.data),
          });
          since = frame.id;
        }
        if (ended) break;
        const sent = frames.length > 0;
        if (settings.mode === "long-poll" && (sent || Date.now() - started >= settings.maxMs))
          break;
        await pause(settings.pollMs, stream);
      }
    } finally {
      clearInterval(heartbeat);
    }
  });
}

/** `<count>-<ms>` as this module writes ids; anything else starts from the beginning. */
function readSince(since: string | undefined): { count: number; ms: number } {
  const match = /^(\d{1,9})-(\d{1,15})$/.exec(since ?? "");
  return match === null ? { count: 0, ms: -1 } : { count: Number(match[1]), ms: Number(match[2]) };
}

const msOf = (iso: string): number => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
};

/** A job's frames after `since`: its history entries, then the record's latest change. */
export function jobFrames(deps: ResolvedDeps, id: string): NextFrames {
  const signer = { objects: deps.objects, ttlS: deps.presignTtlS, now: deps.now };
  return async (since) => {
    const job = await deps.jobs.get(id);
    if (job === undefined) throw jobNotFound(id);
    const after = readSince(since);
    const ended = isTerminal(job.status);
    const fresh = job.history.length > after.count;
    const changed = msOf(job.updatedAt);
    const lastStatusMs = msOf(job.history.at(-1)?.at ?? job.createdAt);
    const progressed = !fresh && !ended && changed > Math.max(after.ms, lastStatusMs);
    // Nothing new since `since`: no view is signed and no queue position read on this look.
    if (!fresh && !progressed) return { frames: [], ended };
    const view = await withQueuePosition(await jobView(job, signer), job, deps.admission);
    const frames: Frame[] = [];
    job.history.forEach((entry, index) => {
      const count = index + 1;
      if (count <= after.count) return;
      const last = count === job.history.length;
      frames.push({
        id: `${count}-${msOf(entry.at)}`,
        event: "status",
        // The last entry is where the job stands: the whole view (links, error, queue position).
        data: last
          ? view
          : { id: job.id, status: entry.status, at: entry.at, ...noteOf(entry.note) },
      });
    });
    if (progressed) {
      frames.push({
        id: `${job.history.length}-${changed}`,
        event: "progress",
        data: progressOf(job, view),
      });
    }
    return { frames, ended };
  };
}

function noteOf(note: string | undefined): { note?: string } {
  return note === undefined ? {} : { note };
}

function progressOf(job: Job, view: { queue_position?: number }) {
  return {
    id: job.id,
    status: job.status,
    polls: job.polls,
    updated_at: job.updatedAt,
    ...(view.queue_position === undefined ? {} : { queue_position: view.queue_position }),
  };
}

/** A batch's view as the stream shows it; its counts always sum to its total. */
export interface BatchFrameView {
  status: "in_progress" | "completed";
  counts: Record<string, number>;
}

/** A batch's frames: its view whenever its counts (or its end) differ from the frame `since` names. */
export function batchFrames(view: () => Promise<BatchFrameView>): NextFrames {
  return async (since) => {
    const current = await view();
    const ended = current.status === "completed";
    const id = `${Object.values(current.counts).join(".")}${ended ? ".end" : ""}`;
    if (id === since) return { frames: [], ended };
    return { frames: [{ id, event: ended ? "completed" : "progress", data: current }], ended };
  };
}

/** The settings a stream runs with, from the API's deps. */
export function streamSettings(deps: ResolvedDeps): StreamSettings {
  return {
    pollMs: deps.streamPollMs,
    heartbeatMs: deps.sseHeartbeatMs,
    mode: deps.streamMaxMs === undefined ? "live" : "long-poll",
    maxMs: deps.streamMaxMs ?? 0,
  };
}
