/**
 * `npm run bench [-- --only NAME[,NAME]]`: runs every module in bench/figures/ (in name order), one
 * after another so they do not compete for the two cores, and prints one line per figure with its
 * same-run baseline and ratio. Exits 1 when a figure misses its target or a module fails.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { formatFigure, meetsTarget, type FigureModule } from "./support/figure.ts";

const { values } = parseArgs({ options: { only: { type: "string" } } });
const only =
  values.only === undefined ? undefined : new Set(values.only.split(",").map((s) => s.trim()));
const dir = fileURLToPath(new URL("./figures/", import.meta.url));
const names = (await readdir(dir)).filter((f) => f.endsWith(".ts")).sort();
let failed = false;
console.log(
  `bench on ${process.platform}/${process.arch}, node ${process.version}, ${(await import("node:os")).cpus().length} cores`,
);
for (const file of names) {
  const name = basename(file, ".ts");
  if (only !== undefined && !only.has(name)) continue;
  const tmpDir = await mkdtemp(join(tmpdir(), `reelay-bench-${name}-`));
  try {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as FigureModule;
    const figures = await mod.figures({
      tmpDir,
      log: (line) => console.error(`  [${name}] ${line}`),
    });
    for (const figure of figures) {
      console.log(formatFigure(figure));
      if (!meetsTarget(figure)) failed = true;
    }
  } catch (error) {
    failed = true;
    console.log(
      `${name}: FAILED ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  } finally {
    await rm(tmpDir, { recursive: true, force: true });
  }
}
process.exitCode = failed ? 1 : 0;
