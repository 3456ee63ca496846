/**
 * The deployed simulator (REELAY_UPSTREAM_URL=simulator, on any stage but prod): the bundled
 * upstream simulator behind a Function URL of its own. Its key is the stage's UPSTREAM_API_KEY
 * secret, the one the steps that call the upstream send; it also signs the task ids and download
 * links, so every instance answers for every task. Videos are encoded by the ffmpeg of its layer.
 */
import { loadConfig } from "@reelay/core/wiring";
import { simulatorHandler } from "@reelay/simulator/lambda";
import { readSecret, UPSTREAM_KEY_SECRET } from "./support/secrets.ts";

export const handler = simulatorHandler(async () => {
  const key = await readSecret(UPSTREAM_KEY_SECRET);
  const ffmpegPath = loadConfig().aws.ffmpegPath;
  return { apiKey: key, sharedSecret: key, ...(ffmpegPath === undefined ? {} : { ffmpegPath }) };
});
