/** S3 notification for inbox/: each object becomes jobs or a rejected/ entry (core's ingestDrop). */
import { ingestDrop } from "@reelay/core/usecases";
import { dropDepsFrom } from "@reelay/core/wiring";
import type { S3NotificationEvent } from "./support/aws-events.ts";
import { loadBucketClient } from "./support/bucket.ts";
import { awsProcess, awsWiring } from "./support/deps.ts";
import { functionLogger } from "./support/log.ts";
import { withMetrics } from "./support/metrics.ts";

const drops = dropDepsFrom(
  await awsWiring({ callsUpstream: false }),
  awsProcess().config.defaultModel,
);

// Every drop is read from the bucket and moved or removed there.
await loadBucketClient();

export const handler = withMetrics(awsProcess().metrics, handleDrops);

async function handleDrops(event: S3NotificationEvent): Promise<void> {
  for (const record of event.Records) {
    // S3 URL-encodes keys in notifications, with "+" for spaces.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, " "));
    const outcome = await ingestDrop(drops, key);
    const jobs = outcome.jobs.map((job) => job.id);
    functionLogger().info(`drop ${key}: ${outcome.status}`, {
      key,
      status: outcome.status,
      ...(outcome.batchId === undefined ? {} : { batchId: outcome.batchId }),
      ...(jobs.length === 1 ? { jobId: jobs[0] } : {}),
      jobs,
      errors: outcome.errors.length,
    });
  }
}
