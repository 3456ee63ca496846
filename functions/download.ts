/** Job flow state "Download": the state machine invokes this with the flow state. */
import { collectGarbageForCopies } from "@reelay/core/adapters";
import { loadBucketClient } from "./support/bucket.ts";
import { runStep } from "./support/step.ts";

// This function's work is streaming outputs into the bucket (see copier-gc.ts).
collectGarbageForCopies();
await loadBucketClient();

export const handler = (event: unknown) => runStep("download", event);
