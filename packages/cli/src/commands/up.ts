/**
 * `reelay up` (= `npm start`): the whole service on this machine until Ctrl-C or SIGTERM. Stopping
 * aborts the running executions; their jobs resume from their records on the next start.
 */
import { loadConfig, type Config } from "@reelay/core";
import { consoleLogger, readyBanner, startLocalStack } from "@reelay/local";
import type { Io } from "../main.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

/** Past this, a stop that hangs (a step stuck on a dead socket) no longer holds the process. */
const STOP_GRACE_MS = 10_000;

function portOf(raw: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${raw}".`);
  return port;
}

function configFrom(values: { port?: string; "data-dir"?: string }): Config {
  const config = loadConfig();
  return {
    ...config,
    ...(values.port === undefined ? {} : { port: portOf(values.port) }),
    ...(values["data-dir"] === undefined ? {} : { dataDir: values["data-dir"] }),
  };
}

function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      resolve(signal);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}

export async function runUp(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      port: { type: "string" },
      "data-dir": { type: "string" },
      "sim-time-scale": { type: "string" },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
  const timeScale =
    values["sim-time-scale"] === undefined ? undefined : Number(values["sim-time-scale"]);
  if (timeScale !== undefined && !(timeScale > 0))
    throw new UsageError("--sim-time-scale must be a positive number.");

  const config = configFrom(values);
  const began = Date.now();
  let stack: Awaited<ReturnType<typeof startLocalStack>>;
  try {
    stack = await startLocalStack({
      config,
      logger: consoleLogger(io.stderr),
      ...(timeScale === undefined ? {} : { simulator: { timeScale } }),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    io.stderr(
      `reelay up: ${config.host}:${config.port} is in use (another reelay up?); choose another with --port or REELAY_PORT.\n`,
    );
    return 2;
  }
  io.stdout(readyBanner(stack, Date.now() - began));

  const signal = await nextSignal();
  io.stderr(`reelay: ${signal}, stopping (unfinished jobs resume on the next start)\n`);
  // A second signal while stopping means "now".
  const forced = nextSignal().then(() => "forced" as const);
  const grace = new Promise<"timeout">((resolve) =>
    setTimeout(() => resolve("timeout"), STOP_GRACE_MS).unref(),
  );
  const ended = await Promise.race([stack.stop().then(() => "stopped" as const), forced, grace]);
  if (ended !== "stopped")
    io.stderr(`reelay: stop ${ended === "forced" ? "forced" : "took too long"}; exiting anyway\n`);
  return 0;
}
