/**
 * The deployed simulator (REELAY_UPSTREAM_URL=simulator, or a pool account whose url is
 * `simulator`, on any stage but prod): the bundled upstream simulator behind a Function URL of its
 * own. Its key is the upstream key secret of the account it stands for (REELAY_SIMULATOR_KEY_SECRET
 * names it), the one the steps that call the upstream send; the key also signs the task ids and
 * download links, so every instance answers for every task. Videos are encoded by its layer's ffmpeg.
 */
import { loadConfig } from "@reelay/core/wiring";
import { simulatorHandler } from "@reelay/simulator/lambda";
import { readSecret, UPSTREAM_KEY_SECRET } from "./support/secrets.ts";

export const handler = simulatorHandler(async () => {
  const { simulatorKeySecret, ffmpegPath } = loadConfig().aws;
  const key = await readSecret(simulatorKeySecret ?? UPSTREAM_KEY_SECRET);
  return { apiKey: key, sharedSecret: key, ...(ffmpegPath === undefined ? {} : { ffmpegPath }) };
});
