/**
 * The real local stack, in this process, for the CLI's client commands: a temp data dir, free ports,
 * a fast simulator. `cli()` runs a command in this process with only the client settings as its
 * environment; `bin()` runs the real `reelay` binary as a child with the same environment, the way a
 * user's second terminal would, for what only a process shows.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { loadConfig } from "@reelay/core/wiring";
import { type SimAccountSpec, startLocalStack, type LocalStack } from "@reelay/local";
import { type CliResult, runCli, runInProcess } from "./run.ts";

export interface ClientStack {
  stack: LocalStack;
  env: Record<string, string>;
  cli(args: string[], options?: { env?: Record<string, string> }): Promise<CliResult>;
  bin(args: string[], options?: { cwd?: string; env?: Record<string, string> }): Promise<CliResult>;
  /** Calls the API directly (to set up or check what the CLI did). */
  api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/**
 * `restart` brings a stack back on the same data dir and port (the key file stays the same);
 * `settings` are more REELAY_* settings of the stack (e.g. its webhook subscribers); `simulator`
 * more of the bundled simulator's options (e.g. a simulated pool's accounts).
 */
export async function startClientStack(
  restart?: { dataDir: string; port: number },
  settings: Record<string, string> = {},
  simulator: { accounts?: SimAccountSpec[] } = {},
): Promise<ClientStack> {
  const dataDir = restart?.dataDir ?? (await mkdtemp(join(tmpdir(), "reelay-cli-stack-")));
  const config = {
    ...loadConfig({ ...settings, REELAY_DATA_DIR: dataDir }),
    port: restart?.port ?? 0,
  };
  const stack = await startLocalStack({
    config,
    simulator: { timeScale: 0.02, ...simulator },
    quiet: true,
    s3Port: 0,
    previews: false,
    // s3rver in this process: its child's start would cost more CPU than these tests' jobs.
    s3InChild: false,
  });
  // The key is left to the key file the stack wrote, as a user's client finds it.
  const env = { REELAY_API_URL: stack.url, REELAY_DATA_DIR: dataDir };
  return {
    stack,
    env,
    cli: (args, options = {}) => runInProcess(args, { ...env, ...options.env }),
    bin: (args, options = {}) => runCli(args, { ...env, ...options.env }, options.cwd),
    api: async <T>(method: string, path: string, body?: unknown) => {
      const response = await fetch(`${stack.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${stack.apiKey}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as T };
    },
    stop: () => stack.stop(),
  };
}

/**
 * One client stack for the tests of the enclosing describe: started before the first, stopped after
 * the last. The answer stands for it from the first test on (before then there is none to use).
 */
export function clientStackForSuite(): ClientStack {
  let started: ClientStack | undefined;
  beforeAll(async () => {
    started = await startClientStack();
  }, 60_000);
  afterAll(async () => {
    await started?.stop();
  });
  return new Proxy({} as ClientStack, {
    get(_target, property) {
      if (started === undefined) throw new Error("the client stack is not started yet");
      return Reflect.get(started, property);
    },
  });
}
