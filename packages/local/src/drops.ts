/**
 * S3 drops on one machine: s3rver emits an S3 notification in-process for every created object;
 * those under `inbox/` in our bucket go to the same ingestDrop the drop Lambda calls on AWS.
 * A failure is logged and the stack carries on: one bad file must never take the service down.
 */
import { ingestDrop, INBOX_PREFIX, type DropDeps } from "@reelay/core/drops/ingest";
import type { Logger } from "./log.ts";
import type { S3rverEventRecord, S3rverInstance } from "./s3rver-extras.ts";

export interface DropRouter {
  /** Resolves when every drop being handled now is done. */
  drain(): Promise<void>;
  /** Ignore notifications from now on (shutting down). */
  stop(): void;
}

export function routeDrops(s3rver: S3rverInstance, deps: DropDeps, log: Logger): DropRouter {
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  const handle = async (record: S3rverEventRecord): Promise<void> => {
    const key = record.s3.object.key;
    try {
      const outcome = await ingestDrop(deps, key);
      if (outcome.status === "ignored") return;
      const jobs = outcome.jobs.map((job) => `${job.id}${job.created ? "" : " (already made)"}`).join(", ");
      log.info(`drop ${key}: ${outcome.status}${jobs ? ` -> ${jobs}` : ""}${outcome.rejectedKey ? `; see ${outcome.rejectedKey}.error.json` : ""}`);
    } catch (error) {
      log.error(`drop ${key} could not be handled`, error);
    }
  };

  s3rver.on("event", (event) => {
    for (const record of event.Records ?? []) {
      if (stopped || !record.eventName.startsWith("ObjectCreated:")) continue;
      if (record.s3.bucket.name !== deps.objects.bucket || !record.s3.object.key.startsWith(INBOX_PREFIX)) continue;
      const done = handle(record);
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    }
  });

  return {
    drain: async () => {
      await Promise.allSettled([...inFlight]);
    },
    stop: () => {
      stopped = true;
    },
  };
}
