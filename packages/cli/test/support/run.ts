/**
 * Two ways to run `reelay ARGS` for a test: in this process (`main` with an Io of strings, which is
 * what most tests need and costs no process start), or as the real binary in a child process, for
 * what only a process shows (its start, process.exitCode, stdin, signals, a working directory).
 */
import { execFile } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { main } from "../../src/main.ts";

export const BIN = join(import.meta.dirname, "..", "..", "bin", "reelay.js");

/** This process's environment with no REELAY_* setting: a command sees only the settings a test gives it. */
export function cleanEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        !entry[0].startsWith("REELAY_") && entry[1] !== undefined,
    ),
  );
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `reelay ARGS` in this process: what the binary does after its start, with stdout and stderr as
 * strings, `env` as the only settings, and `stdin` given or empty; `onStderr` sees each write as it
 * happens. A throw the binary would die of is exit 1 with its stack on stderr, as node prints it.
 */
export async function runInProcess(
  args: string[],
  env: Record<string, string>,
  options: { stdin?: string; onStderr?: (text: string) => void } = {},
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: (text: string) => {
      stdout += text;
    },
    stderr: (text: string) => {
      stderr += text;
      options.onStderr?.(text);
    },
    readStdin: async () => options.stdin ?? "",
    env,
    terminal: { stdout: false, stderr: false },
  };
  try {
    const code = await main(args, io);
    return { code, stdout, stderr };
  } catch (error) {
    return { code: 1, stdout, stderr: `${stderr}${(error as Error).stack ?? String(error)}\n` };
  }
}

/** `reelay ARGS` as a child process: the real binary with only `env` as its environment. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env, ...(cwd === undefined ? {} : { cwd }), timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A port nothing listens on: bound once by us, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
