/**
 * `reelay demo` (= `npm run demo`): the main job, end to end, on this machine alone. It starts the
 * local stack (dynalite, s3rver, the state machine interpreter over the deployed definition, the
 * bundled simulator), generates one video from a sample prompt exactly as `reelay generate` does,
 * saves it, says where, and stops the stack again. When a local stack is already running at the
 * configured address, the demo uses it and leaves it running.
 */
import { loadConfig } from "@reelay/core/wiring";
import { startLocalStack, type LocalStack } from "@reelay/local";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";
import { runGenerate } from "./generate.ts";

export const SAMPLE_PROMPT = "a paper boat drifting down a rainy street at dusk, cinematic";
export const SAMPLE_MODEL = "gamma-3.1";

async function alreadyRunning(apiUrl: string): Promise<boolean> {
  try {
    const answer = await fetch(new URL("/healthz", apiUrl), { signal: AbortSignal.timeout(1500) });
    return answer.ok;
  } catch {
    return false;
  }
}

export async function runDemo(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      out: { type: "string" },
      // The simulator's generation time is scaled so the demo takes seconds, not 20 s or minutes.
      "sim-time-scale": { type: "string", default: "0.15" },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
  const timeScale = Number(values["sim-time-scale"]);
  if (!(timeScale > 0)) throw new UsageError("--sim-time-scale must be a positive number.");
  const config = loadConfig(io.env);

  let stack: LocalStack | undefined;
  let apiUrl = config.apiUrl;
  if (await alreadyRunning(config.apiUrl)) {
    io.stdout(`using the local stack already running at ${config.apiUrl}\n`);
  } else {
    io.stdout(`starting the local stack (data in ${config.dataDir}/) ...\n`);
    stack = await startLocalStack({ config, quiet: true, simulator: { timeScale } });
    // REELAY_PORT=0 binds any free port: talk to the one the stack got.
    apiUrl = stack.url;
    io.stdout(
      `local stack ready at ${stack.url}; upstream: ${stack.upstream}; bucket ${stack.bucket} at ${stack.s3Endpoint}\n`,
    );
  }
  try {
    io.stdout(`generating "${SAMPLE_PROMPT}" with ${SAMPLE_MODEL}\n`);
    const code = await runGenerate(
      [
        SAMPLE_PROMPT,
        "--model",
        SAMPLE_MODEL,
        "--duration",
        "4",
        ...(values.out === undefined ? [] : ["--out", values.out]),
      ],
      io,
      { ...config, apiUrl },
    );
    if (code === 0)
      io.stdout(
        "done: the video above is also kept in the local bucket under outputs/<job id>/ with its job.json\n",
      );
    return code;
  } finally {
    await stack?.stop();
  }
}
