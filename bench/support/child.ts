/**
 * Runs a bench script (bundled to plain JavaScript first, see esbuild.ts) in a fresh Node process
 * and returns the JSON line it prints last, so that what the script measures (time, peak RSS) is
 * that process's alone, without a TypeScript loader in it.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A file of bench/support by its path below that folder. */
export const supportFile = (name: string): string =>
  fileURLToPath(new URL(`./${name}`, import.meta.url));

interface ChildRun {
  stdout: string;
  stderr: string;
}

/** Runs `node [nodeArgs] file args` and resolves with its output; rejects on a non-zero exit. */
function runNode(
  file: string,
  args: string[],
  options: { nodeArgs?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), file, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: options.env ?? process.env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code, signal) => {
      if (code === 0) resolve({ stdout, stderr });
      else
        reject(
          new Error(
            `${file} exited ${code ?? signal}: ${stderr.trim().split("\n").slice(-8).join("\n")}`,
          ),
        );
    });
  });
}

/** Runs `node file args` and parses the JSON object on the last line it prints. */
export async function runJson<T>(
  file: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<T> {
  const { stdout } = await runNode(file, args, options);
  const last = stdout.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`${file} printed no JSON result: ${stdout.slice(-500)}`);
  }
}

export interface Service<T> {
  info: T;
  /** The child's CPU time so far (user + system, all its threads), from /proc; undefined off Linux. */
  cpuMs(): number | undefined;
  /** Closes its stdin (it stops itself) and waits for the exit. */
  stop(): Promise<void>;
}

/** Starts `node file args` as a service: resolves with the JSON line it prints once ready. */
export function startService<T>(file: string, args: string[]): Promise<Service<T>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(
        new Error(
          `${file} exited ${code} before it was ready: ${stderr.trim().split("\n").slice(-5).join("\n")}`,
        ),
      ),
    );
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const line = stdout
        .split("\n")
        .slice(0, -1)
        .find((l) => l.startsWith("{"));
      if (line === undefined) return;
      resolve({
        info: JSON.parse(line) as T,
        cpuMs: () => procCpuMs(child.pid),
        stop: async () => {
          child.stdin.end();
          await exited;
        },
      });
    });
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The p-th percentile (0..100), nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** CPU time (user + system) of this process, in ms: all of it, or since `start`. */
export function cpuMs(start?: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

/** utime + stime of a process from /proc/<pid>/stat, in ms (Linux's USER_HZ is 100). */
function procCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // The fields after the command name (which may hold spaces) start with the state, field 3.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}
