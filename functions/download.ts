/**
 * Job flow state "Download": the state machine invokes this with the flow state. It copies the
 * outputs in and makes a video's previews with ffmpeg from the function's layer (stacks/job-flow.ts;
 * REELAY_FFMPEG_PATH names the binary), the only function that runs it.
 */
import { collectGarbageForCopies } from "@reelay/core/adapters";
import { loadMediaProbe } from "@reelay/core/usecases";
import { loadBucketClient } from "./support/bucket.ts";
import { awsProcess, required } from "./support/deps.ts";
import { stepHandler } from "./support/step.ts";

// This function's work is streaming outputs into the bucket (see copier-gc.ts).
collectGarbageForCopies();
// Every call copies through the bucket and reads the media's structure: both load before the first.
await Promise.all([loadBucketClient(), loadMediaProbe()]);

// A video's previews need the layer's ffmpeg: a stack that forgot its path fails this init, named,
// instead of every video going without (a process with no ffmpeg makes none, as a local stack may).
required(awsProcess().config.aws.ffmpegPath, "REELAY_FFMPEG_PATH");

// The context's time left: a video's previews are made only when they fit in it.
export const handler = stepHandler("download");
