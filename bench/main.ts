/**
 * `npm run bench [-- --only NAME[,NAME]]`: runs every module in bench/figures/ (in name order), one
 * after another so they do not compete for the two cores, and prints one line per figure with its
 * same-run baseline and ratio. Each module runs in a fresh process of its own (this script again,
 * with `--figure NAME`), so what one leaves in the heap (the orchestration figure's interpreters,
 * the throughput figure's in-process stack) does not weigh on the next: a figure measures the same
 * in the whole run as alone. Exits 1 when a figure misses its target or a module fails.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { formatFigure, meetsTarget, type FigureModule } from "./support/figure.ts";

const { values } = parseArgs({
  options: { only: { type: "string" }, figure: { type: "string" } },
});
const dir = fileURLToPath(new URL("./figures/", import.meta.url));

/** Runs one module here and prints its figures; false when one misses its target or it fails. */
async function runFigure(name: string): Promise<boolean> {
  const tmpDir = await mkdtemp(join(tmpdir(), `reelay-bench-${name}-`));
  try {
    const mod = (await import(pathToFileURL(join(dir, `${name}.ts`)).href)) as FigureModule;
    const figures = await mod.figures({
      tmpDir,
      log: (line) => console.error(`  [${name}] ${line}`),
    });
    for (const figure of figures) console.log(formatFigure(figure));
    return figures.every(meetsTarget);
  } catch (error) {
    console.log(
      `${name}: FAILED ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return false;
  } finally {
    await rm(tmpDir, { recursive: true, force: true });
  }
}

/** Runs one module in a fresh process (the same loader flags, this script); true when it met every target. */
function runFigureProcess(name: string): Promise<boolean> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, "--figure", name], {
      stdio: "inherit",
    });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code === 0));
  });
}

if (values.figure !== undefined) {
  process.exitCode = (await runFigure(values.figure)) ? 0 : 1;
} else {
  const only =
    values.only === undefined ? undefined : new Set(values.only.split(",").map((s) => s.trim()));
  const names = (await readdir(dir))
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => basename(f, ".ts"))
    .filter((name) => only === undefined || only.has(name));
  console.log(
    `bench on ${process.platform}/${process.arch}, node ${process.version}, ${cpus().length} cores`,
  );
  let failed = false;
  for (const name of names) if (!(await runFigureProcess(name))) failed = true;
  process.exitCode = failed ? 1 : 0;
}
