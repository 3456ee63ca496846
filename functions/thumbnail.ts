/**
 * Job flow state "Thumbnail": a video's poster frame and spritesheet, made by ffmpeg from the
 * function's layer (stacks/job-flow.ts; REELAY_FFMPEG_PATH names the binary). The only function
 * that runs ffmpeg: Download stays the small streaming copy it is.
 */
import { loadBucketClient } from "./support/bucket.ts";
import { stepHandler } from "./support/step.ts";

// Every call reads the stored video and writes two images and the manifest.
await loadBucketClient();

export const handler = stepHandler("thumbnail");
