/**
 * A cold import: a fresh `node` importing modules in turn, timed from the process's start. The
 * bundles figure judges each function's by it; a fresh node importing an empty module is the
 * machine's own yardstick, measured in the same run (the throughput figure sets its CPU per job
 * against it).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runJson } from "./child.ts";

/**
 * Imports the modules named by argv[2...] in turn and prints how long the process took to get there:
 * wall-clock time since the process started, and the CPU time the process has spent so far.
 */
const IMPORTER = `const started = performance.now();
for (const module of process.argv.slice(2)) await import(module);
const done = performance.now();
const { user, system } = process.cpuUsage();
console.log(JSON.stringify({ sinceStartMs: done, importMs: done - started, cpuMs: (user + system) / 1000 }));
`;

export interface Timing {
  /** Wall-clock time from the process's start to the import resolved. */
  sinceStartMs: number;
  /** Wall-clock time of the import alone. */
  importMs: number;
  /** The process's CPU time (user + system, every thread) from its start to the import resolved. */
  cpuMs: number;
}

/** The importer script and an empty module, written into `dir`. */
export async function importerFiles(dir: string): Promise<{ importer: string; empty: string }> {
  const importer = join(dir, "importer.mjs");
  const empty = join(dir, "empty.mjs");
  await writeFile(importer, IMPORTER);
  await writeFile(empty, "export {};\n");
  return { importer, empty };
}

/** One cold import: a fresh `node` importing `modules` in turn, with `env` as its whole environment. */
export function coldImport(
  node: string,
  importer: string,
  modules: string[],
  env: Record<string, string> = {},
): Promise<Timing> {
  return runJson<Timing>(
    importer,
    modules.map((module) => pathToFileURL(module).href),
    { node, env: { PATH: process.env.PATH ?? "", ...env } },
  );
}
