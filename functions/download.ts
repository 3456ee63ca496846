/** Job flow state "Download": the state machine invokes this with the flow state. */
import { collectGarbageForCopies } from "@reelay/core/adapters";
import { loadMediaProbe } from "@reelay/core/usecases";
import { loadBucketClient } from "./support/bucket.ts";
import { stepHandler } from "./support/step.ts";

// This function's work is streaming outputs into the bucket (see copier-gc.ts).
collectGarbageForCopies();
// Every call copies through the bucket and reads the media's structure: both load before the first.
await Promise.all([loadBucketClient(), loadMediaProbe()]);

export const handler = stepHandler("download");
