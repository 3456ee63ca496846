/** S3 notification for inbox/: each object becomes jobs or a rejected/ entry (core's ingestDrop). */
import { ingestDrop } from "../packages/core/src/drops/ingest.ts";
import { loadConfig } from "../packages/core/src/config.ts";
import { awsStarter, awsStores } from "./support/deps.ts";
import type { S3NotificationEvent } from "./support/aws-events.ts";

const config = loadConfig();
const { jobs, objects } = awsStores(config);
const starter = awsStarter(config);

export async function handler(event: S3NotificationEvent): Promise<void> {
  for (const record of event.Records) {
    // S3 URL-encodes keys in notifications, with "+" for spaces.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, " "));
    const outcome = await ingestDrop(
      { jobs, objects, starter, defaultModel: config.defaultModel },
      key,
    );
    console.log(
      JSON.stringify({
        msg: "drop",
        key,
        status: outcome.status,
        jobs: outcome.jobs.map((job) => job.id),
        errors: outcome.errors.length,
      }),
    );
  }
}
