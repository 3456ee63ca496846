/**
 * The deployed simulator, for a trial stage: REELAY_UPSTREAM_URL=simulator (or a pool account whose
 * `url` is `simulator`) deploys the bundled upstream simulator as a function of its own
 * (functions/simulator.ts) behind a Lambda Function URL of its own, and points the pipeline at it,
 * so every path runs at no upstream cost. Never on stage prod: a production stage that talked to
 * a simulator would take jobs, charge budgets and deliver test patterns.
 *
 * A Function URL rather than a route: reelay's own API already answers the upstream's paths
 * (/v1/video/generations ...) with its own key, so the simulator needs a host of its own, as the
 * real upstream has; a Function URL is one, at no charge beyond the invocations. Its auth is NONE
 * because the simulator checks its own Bearer key, as the upstream does, and its download links
 * are fetched with no Authorization at all (presigned-style), which IAM auth would refuse.
 *
 * Its key is the upstream key secret of the account it stands for (UPSTREAM_API_KEY, or a pool
 * account's UPSTREAM_API_KEY_<NAME>), bound to it beside the steps that send it.
 */
import { type Config, Function as SstFunction, type Stack as SstStack } from "sst/constructs";
import { ReelayError } from "@reelay/core/domain";
import { ffmpegLayer, FFMPEG_PATH } from "./job-flow.ts";

/** The stage that may never have the simulator as its upstream. */
const PRODUCTION_STAGE = "prod";

/** Refuses the simulator on the production stage, naming the setting that asked for it. */
export function refuseOnProduction(stage: string, path: string): void {
  if (stage === PRODUCTION_STAGE)
    throw new ReelayError(
      "invalid_config",
      `The simulator is a trial upstream and is never deployed on stage "${PRODUCTION_STAGE}"; set ${path} to the real upstream's URL, or deploy the trial under another stage (npx sst deploy --stage try).`,
      { path },
    );
}

/** Its function's construct id (and so the name the rehearsal's grant record gives its role). */
export const SIMULATOR_FUNCTION_ID = "SimulatorFunction";

export interface DeployedSimulator {
  fn: SstFunction;
  /** Its base URL, as REELAY_UPSTREAM_URL takes one (ending in /v1). */
  baseUrl: string;
}

export function createSimulator(stack: SstStack, key: Config.Secret): DeployedSimulator {
  const fn = new SstFunction(stack, SIMULATOR_FUNCTION_ID, {
    handler: "functions/simulator.handler",
    // A slow fault holds an answer for seconds, and a clip of a new shape is encoded on demand.
    timeout: 30,
    // Its layer's ffmpeg is an x86-64 binary.
    architecture: "x86_64",
    layers: [ffmpegLayer(stack)],
    environment: { REELAY_FFMPEG_PATH: FFMPEG_PATH, REELAY_SIMULATOR_KEY_SECRET: key.name },
    bind: [key],
    // The committed clip it serves for a request that names no shape, read from beside its code:
    // every chunk of the bundle is in functions/, so "../fixtures/" from there.
    copyFiles: [{ from: "packages/simulator/fixtures/video.mp4", to: "fixtures/video.mp4" }],
    url: { authorizer: "none" },
  });
  // A Function URL ends in "/".
  return { fn, baseUrl: `${fn.url}v1` };
}
