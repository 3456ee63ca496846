/**
 * `reelay up` (= `npm start`): the whole service on this machine until Ctrl-C or SIGTERM. Stopping
 * aborts the running executions; their jobs resume from their records on the next start.
 */
import { loadConfig, type Config } from "@reelay/core/wiring";
import { ReelayError } from "@reelay/core/domain";
import type { LocalStack } from "@reelay/local";
import { consoleLogger } from "@reelay/local/log";
import { parseSimAccounts, type SimAccountSpec } from "@reelay/local/sim-accounts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

/** Past this, a stop that hangs (a step stuck on a dead socket) no longer holds the process. */
const STOP_GRACE_MS = 10_000;

function portOf(raw: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${raw}".`);
  return port;
}

function configFrom(values: { port?: string; "data-dir"?: string }, env: Io["env"]): Config {
  const config = loadConfig(env);
  return {
    ...config,
    ...(values.port === undefined ? {} : { port: portOf(values.port) }),
    ...(values["data-dir"] === undefined ? {} : { dataDir: values["data-dir"] }),
  };
}

/**
 * Why the stack did not start, in one line naming the cause and the fix: reelay's own errors
 * (settings, the data dir) say both already; a port is named with the setting that moves it.
 */
function startFailure(error: unknown, config: Config | undefined): string {
  if (error instanceof ReelayError || error instanceof UsageError) return error.message;
  const { code } = error as NodeJS.ErrnoException;
  const where = `${config?.host ?? "the address"}:${config?.port ?? "the port"}`;
  const elsewhere = "choose another port with --port or REELAY_PORT";
  if (code === "EADDRINUSE")
    return `${where} is taken by another program (another reelay up?); stop it, or ${elsewhere}.`;
  if (code === "EACCES")
    return `listening on ${where} is not allowed for this user (EACCES); ${elsewhere} (above 1023).`;
  if (code === "EADDRNOTAVAIL")
    return `${config?.host ?? "the host"} is not an address of this machine (EADDRNOTAVAIL); set REELAY_HOST to one (default 127.0.0.1).`;
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `the stack did not start (${what.split("\n")[0]}); if this persists, report it with this line.`;
}

function positive(flag: string, raw: string | undefined, whole = false): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!(value > 0) || (whole && !Number.isInteger(value)))
    throw new UsageError(`--${flag} must be a positive ${whole ? "whole " : ""}number.`);
  return value;
}

/** `--sim-accounts alpha:4,beta:8`; a bad value is a usage mistake (exit 2), said in one line. */
function simAccounts(raw: string | undefined): SimAccountSpec[] | undefined {
  if (raw === undefined) return undefined;
  try {
    return parseSimAccounts(raw);
  } catch (error) {
    throw error instanceof ReelayError ? new UsageError(error.message) : error;
  }
}

/** The bundled simulator's speed and account limits (a real upstream's are its own), or a simulated pool. */
function simulatorOptions(values: Record<string, string | boolean | undefined>) {
  const text = (name: string) => values[name] as string | undefined;
  const timeScale = positive("sim-time-scale", text("sim-time-scale"));
  const maxConcurrent = positive("sim-max-concurrent", text("sim-max-concurrent"), true);
  const createRate = positive("sim-create-rate", text("sim-create-rate"));
  const accounts = simAccounts(text("sim-accounts"));
  return {
    ...(timeScale === undefined ? {} : { timeScale }),
    ...(maxConcurrent === undefined ? {} : { maxConcurrent }),
    ...(createRate === undefined ? {} : { createRate }),
    ...(accounts === undefined ? {} : { accounts }),
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
      "sim-max-concurrent": { type: "string" },
      "sim-create-rate": { type: "string" },
      "sim-accounts": { type: "string" },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
  const simulator = simulatorOptions(values);

  const began = Date.now();
  let stack: LocalStack;
  let ready: string;
  let log: ReturnType<typeof consoleLogger>;
  let config: Config | undefined;
  try {
    config = configFrom(values, io.env);
    log = consoleLogger(io.stderr, config.log);
    // Loaded only now: a usage or settings mistake is told without loading the whole stack first.
    const { readyBanner, startLocalStack } = await import("@reelay/local");
    stack = await startLocalStack({
      config,
      logger: log,
      ...(Object.keys(simulator).length === 0 ? {} : { simulator }),
    });
    ready = readyBanner(stack, Date.now() - began);
  } catch (error) {
    io.stderr(`reelay up: ${startFailure(error, config)}\n`);
    return 2;
  }
  // Listening before the banner says Ctrl-C stops: a signal sent the moment it appears (the
  // reader woken by the write can run before this process goes on) must not meet Node's default.
  const signalled = nextSignal();
  io.stdout(ready);

  const signal = await signalled;
  log.info(`${signal}, stopping (unfinished jobs resume on the next start)`);
  // A second signal while stopping means "now".
  const forced = nextSignal().then(() => "forced" as const);
  const grace = new Promise<"timeout">((resolve) =>
    setTimeout(() => resolve("timeout"), STOP_GRACE_MS).unref(),
  );
  const ended = await Promise.race([stack.stop().then(() => "stopped" as const), forced, grace]);
  if (ended !== "stopped")
    log.warn(`stop ${ended === "forced" ? "forced" : "took too long"}; exiting anyway`);
  return 0;
}
