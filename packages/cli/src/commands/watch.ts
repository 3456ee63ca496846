/**
 * `reelay watch [--json] [--count N]`: follows reelay's terminal events (`GET /v1/events`), one
 * line each. A dropped stream is reopened with growing pauses, and an event seen before the drop is
 * not printed twice. If reelay is not there at the start, that is reported at once (exit 2).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { isReelayError } from "@reelay/core/domain";
import { eventLine } from "../client/format.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { ReelayEvent } from "@reelay/client";
import type { TerminalEvent } from "../client/types.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 10_000;
const SEEN_IDS_KEPT = 1000;

export async function runWatch(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: { json: { type: "boolean", default: false }, count: { type: "string" } },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
  const count = values.count === undefined ? Infinity : Number(values.count);
  if (!(Number.isInteger(count) && count > 0) && count !== Infinity)
    throw new UsageError(`--count must be a positive whole number, got "${values.count}".`);

  return reportFailures(io, "watch", values.json, async () => {
    const { client } = await openSession(io);
    const seen = new Set<string>();
    let printed = 0;
    let opened = false;
    let backoff = FIRST_BACKOFF_MS;
    let lastEventId: string | undefined;
    for (;;) {
      try {
        const stream = client.events({
          ...(lastEventId === undefined ? {} : { lastEventId }),
          onOpen: () => {
            io.stderr(
              opened ? "reconnected\n" : `watching ${client.apiUrl}/v1/events (Ctrl-C to stop)\n`,
            );
            opened = true;
            backoff = FIRST_BACKOFF_MS;
          },
        });
        for await (const received of stream) {
          if (typeof received.id === "string") lastEventId = received.id;
          const event = terminalEvent(received);
          if (event === undefined || seen.has(event.id)) continue;
          seen.add(event.id);
          // Only repeats right after a reconnect matter; old ids can go.
          if (seen.size > SEEN_IDS_KEPT) seen.delete(seen.values().next().value as string);
          io.stdout(values.json ? `${JSON.stringify(event)}\n` : `${eventLine(event)}\n`);
          if (++printed >= count) return 0;
        }
      } catch (error) {
        // A broken stream or a restarting server is worth waiting for; a refused key is not. Before
        // the first connection there is nothing to resume, so "not running" is reported at once.
        const transient = isReelayError(error) ? error.retryable : true;
        if (!opened || !transient) throw error;
      }
      io.stderr(`event stream closed; reconnecting in ${(backoff / 1000).toFixed(1)} s\n`);
      await sleep(backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  });
}

/** A job's terminal event; anything else on the stream (a batch's completion) is not shown. */
function terminalEvent(event: ReelayEvent): TerminalEvent | undefined {
  return typeof event.id === "string" && typeof event.detail?.jobId === "string"
    ? (event as unknown as TerminalEvent)
    : undefined;
}
