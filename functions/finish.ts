/** Job flow state "Finish": the state machine invokes this with the flow state. */
import { loadBucketClient } from "./support/bucket.ts";
import { stepHandler } from "./support/step.ts";

// Every job's end writes its manifest (outputs/<jobId>/job.json).
await loadBucketClient();

export const handler = stepHandler("finish");
