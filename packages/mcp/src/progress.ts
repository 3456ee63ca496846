/**
 * Progress notifications for a tool call that carries `_meta.progressToken`: one for each change
 * the client's wait sees (status, queue position, polls), `progress` counting up as MCP requires.
 * A call without a token gets none.
 */
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Job } from "@reelay/client";

export interface ProgressSink {
  (job: Job): void;
  /** Resolves once every notification so far is sent: the answer must not overtake them. */
  sent(): Promise<void>;
}

/** The words a person reads for a job's state now, e.g. `queued (position 3)` or `running, poll 4`. */
function progressMessage(job: Job): string {
  if (typeof job.queue_position === "number")
    return `${job.id} ${job.status} (queue position ${job.queue_position})`;
  return job.polls > 0 ? `${job.id} ${job.status}, poll ${job.polls}` : `${job.id} ${job.status}`;
}

export function progressSink(
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
): ProgressSink | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let progress = 0;
  let last: Promise<void> = Promise.resolve();
  const sink = (job: Job) => {
    progress += 1;
    // A notification that cannot be sent (the client went away) must not end the wait: the
    // wait's own signal ends it.
    last = extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken, progress, message: progressMessage(job) },
      })
      .catch(() => {});
  };
  return Object.assign(sink, { sent: () => last });
}
