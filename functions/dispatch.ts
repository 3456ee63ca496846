/**
 * The Dispatch function: admits queued jobs while upstream slots are free and starts their
 * executions (usecases/admission/dispatch.ts), then completes the batches whose last job ended
 * (usecases/batches/batch-progress.ts). Woken asynchronously after every enqueue, slot release and last batch job,
 * and every minute by a schedule, which also runs the sweeps first.
 */
import {
  dispatch,
  sweep,
  completeDueBatches,
  completeStaleBatches,
  recordAdmission,
} from "@reelay/core/usecases";
import { awsProcess, awsStarter, awsWiring } from "./support/deps.ts";
import { functionLogger } from "./support/log.ts";
import { withMetrics } from "./support/metrics.ts";

/** An open batch not counted up for this long is recounted by the scheduled run. */
const STALE_BATCH_MS = 120_000;

// What this function frees it admits in the same run: its own waker does nothing.
const wiring = await awsWiring({ callsUpstream: false, waker: { wake: async () => {} } });
const deps = {
  ...wiring.pipeline,
  starter: awsStarter(),
  // The create rate's pauses inside one run (at most 2 s each; longer ones wait for the schedule).
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};
const completion = { ...wiring.pipeline, batches: wiring.batches };

/** A scheduled run (EventBridge rule) sweeps first; a wake only dispatches. */
export const handler = withMetrics(awsProcess().metrics, run);

async function run(event: { source?: string }): Promise<void> {
  if (event.source === "aws.events") {
    const swept = await sweep(deps);
    const recounted = await completeStaleBatches(completion, STALE_BATCH_MS);
    functionLogger().info("admission sweep", { ...swept, recounted });
  }
  const result = await dispatch(deps);
  const completed = await completeDueBatches(completion);
  functionLogger().info("dispatch", {
    admitted: result.admitted.length,
    ...(result.retryInMs === undefined ? {} : { retryInMs: result.retryInMs }),
    batchesCompleted: completed,
  });
  for (const batchId of completed) functionLogger().info(`batch ${batchId} completed`, { batchId });
  // The queue and the slots as the scheduled run leaves them, once a minute: the oldest entry
  // means reading the whole queue, too much for every wake while a large batch drains.
  if (event.source === "aws.events")
    await recordAdmission(awsProcess().metrics, deps.admission, deps.now()).catch(
      (error: unknown) => functionLogger().warn("admission gauges not read", { error }),
    );
}
