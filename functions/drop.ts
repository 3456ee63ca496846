/**
 * S3 notification for inbox/. For now it parses the event and logs what arrived; turning drops
 * into jobs (core) comes next.
 */
import type { S3NotificationEvent } from "./support/aws-events.ts";

export async function handler(event: S3NotificationEvent): Promise<void> {
  for (const record of event.Records) {
    // S3 URL-encodes keys in notifications, with "+" for spaces.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, " "));
    console.log(JSON.stringify({ msg: "drop received", bucket: record.s3.bucket.name, key, etag: record.s3.object.eTag }));
  }
}
