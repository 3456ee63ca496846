/**
 * GET /v1/events (local stack): every terminal event as it happens, as Server-Sent Events
 * (`event: <detail-type>`, `data: <event JSON>`, `id: <event id>`). A comment line every heartbeat
 * keeps proxies and idle timers from closing a quiet stream.
 */
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { ReelayEvent } from "@reelay/core/domain";
import type { EventSource } from "@reelay/core/usecases";
import type { ApiEnv } from "../../api-deps.ts";

export function eventRoutes(source: EventSource, heartbeatMs: number): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();

  routes.get("/", (c) =>
    streamSSE(c, async (stream) => {
      const queue: ReelayEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = source.subscribe((event) => {
        queue.push(event);
        wake?.();
      });
      const heartbeat = setInterval(() => void stream.write(": heartbeat\n\n"), heartbeatMs);
      stream.onAbort(() => wake?.());
      try {
        // Sent at once, so a client knows it is subscribed before the first event.
        await stream.write(": subscribed\n\n");
        while (!stream.aborted && !stream.closed) {
          const event = queue.shift();
          if (event === undefined) {
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
            continue;
          }
          await stream.writeSSE({
            event: event["detail-type"],
            data: JSON.stringify(event),
            id: event.id,
          });
        }
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
      }
    }),
  );

  return routes;
}
