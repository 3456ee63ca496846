/**
 * Runs a bench script (bundled to plain JavaScript first, see esbuild.ts) in a fresh Node process
 * and returns the JSON line it prints last, so that what the script measures (time, peak RSS) is
 * that process's alone, without a TypeScript loader in it.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A file of bench/support by its path below that folder. */
export const supportFile = (name: string): string =>
  fileURLToPath(new URL(`./${name}`, import.meta.url));

interface ChildRun {
  stdout: string;
  stderr: string;
}

interface RunOptions {
  nodeArgs?: string[];
  env?: NodeJS.ProcessEnv;
  /** The node executable; this process's own when left out. */
  node?: string;
}

/** Runs `node [nodeArgs] file args` and resolves with its output; rejects on a non-zero exit. */
function runNode(file: string, args: string[], options: RunOptions = {}): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      options.node ?? process.execPath,
      [...(options.nodeArgs ?? []), file, ...args],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: options.env ?? process.env,
      },
    );
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
  options: Omit<RunOptions, "nodeArgs"> = {},
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

/** The fields of /proc/<pid>/stat from the state on (field 3; the command name before it may hold spaces). */
function statFields(pid: number | string): string[] {
  return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)?.split(" ") ?? [];
}

/** Linux's USER_HZ: /proc counts CPU time in ticks of 10 ms. */
const MS_PER_TICK = 10;

/** utime + stime of a process from /proc/<pid>/stat, in ms. */
function procCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = statFields(pid);
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * MS_PER_TICK : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU time (user + system, ms) of process `root` and every process it started, from /proc: each
 * live process's utime + stime, and the cutime + cstime each collected from its children that
 * ended (a child that ended is counted once, by its parent; one that is started again in its place
 * counts afresh). Taken before and after some work, the difference is what the whole tree spent on
 * it, whichever processes came and went meanwhile. Linux only: throws where there is no /proc.
 */
export function processTreeCpuMs(root: number = process.pid): number {
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fields: string[];
    try {
      fields = statFields(entry);
    } catch {
      continue; // Ended between the listing and the read: its parent's cutime holds it now.
    }
    const pid = Number(entry);
    parents.set(pid, Number(fields[1]));
    // utime, stime, cutime, cstime: fields 14 to 17, 11 to 14 from the state.
    ticks.set(
      pid,
      fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0),
    );
  }
  if (!ticks.has(root))
    throw new Error(`no /proc/${root}/stat: the process tree's CPU needs Linux`);
  let total = 0;
  const pending = [root];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    total += ticks.get(pid) ?? 0;
    for (const [child, parent] of parents) if (parent === pid) pending.push(child);
  }
  return total * MS_PER_TICK;
}
