/**
 * S3 drops on one machine: s3rver emits an S3 notification in-process for every created object;
 * those under `inbox/` in our bucket go to the same ingestDrop the drop Lambda calls on AWS.
 * A failure is logged and the stack carries on: one bad file must never take the service down.
 */
import { ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { ingestDrop, INBOX_PREFIX, type DropDeps, type DropOutcome } from "@reelay/core/usecases";
import type { LogContext } from "@reelay/core/domain";
import type { Logger } from "./log.ts";
import type { S3Notifications } from "./s3rver/types.ts";

export interface DropRouter {
  /**
   * Ingests every file in inbox/ again. A crash between s3rver storing a file and the drop being
   * handled would otherwise lose it; files already handled find their jobs made (derived ids).
   */
  rescan(s3: S3Client): Promise<void>;
  /** Resolves when every drop being handled now is done. */
  drain(): Promise<void>;
  /** Ignore notifications from now on (shutting down). */
  stop(): void;
}

/** A drop's line is about its batch, or its one job. */
function dropContext(outcome: DropOutcome): LogContext {
  if (outcome.batchId !== undefined) return { batchId: outcome.batchId };
  const [only, ...more] = outcome.jobs;
  return only !== undefined && more.length === 0 ? { jobId: only.id } : {};
}

export function routeDrops(s3rver: S3Notifications, deps: DropDeps, log: Logger): DropRouter {
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  const handle = async (key: string, quietIfNothingNew = false): Promise<void> => {
    try {
      const outcome = await ingestDrop(deps, key);
      if (outcome.status === "ignored" || (quietIfNothingNew && nothingNew(outcome))) return;
      const jobs = outcome.jobs
        .map((job) => `${job.id}${job.created ? "" : " (already made)"}`)
        .join(", ");
      const batch = outcome.batchId === undefined ? "" : ` as batch ${outcome.batchId}`;
      log.info(
        `drop ${key}: ${outcome.status}${batch}${jobs ? ` -> ${jobs}` : ""}${outcome.rejectedKey ? `; see ${outcome.rejectedKey}.error.json` : ""}`,
        dropContext(outcome),
      );
    } catch (error) {
      log.error(`drop ${key} could not be handled`, error);
    }
  };
  const track = (done: Promise<void>) => {
    inFlight.add(done);
    void done.catch(() => undefined).finally(() => inFlight.delete(done));
    return done;
  };
  const rescanInbox = async (s3: S3Client): Promise<void> => {
    let token: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({
          Bucket: deps.objects.bucket,
          Prefix: INBOX_PREFIX,
          ...(token === undefined ? {} : { ContinuationToken: token }),
        }),
      );
      for (const object of page.Contents ?? []) {
        if (stopped || object.Key === undefined) continue;
        await track(handle(object.Key, true));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined && !stopped);
  };

  s3rver.on("event", (event) => {
    for (const record of event.Records ?? []) {
      if (stopped || !record.eventName.startsWith("ObjectCreated:")) continue;
      if (
        record.s3.bucket.name !== deps.objects.bucket ||
        !record.s3.object.key.startsWith(INBOX_PREFIX)
      )
        continue;
      track(handle(record.s3.object.key));
    }
  });

  return {
    rescan: (s3) => track(rescanInbox(s3)),
    drain: async () => {
      await Promise.allSettled([...inFlight]);
    },
    stop: () => {
      stopped = true;
    },
  };
}

function nothingNew(outcome: DropOutcome): boolean {
  return outcome.status === "accepted" && outcome.jobs.every((job) => !job.created);
}
