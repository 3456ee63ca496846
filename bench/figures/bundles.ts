/**
 * Lambda bundles (issue 6, point 6; issue 22): each functions/*.ts handler bundled as SST v2 bundles
 * it for Node 22 (bench/support/esbuild.ts), minified, and
 *  - its cold import, the figure judged (at most 250 ms, what a user feels of a cold start): a fresh
 *    `node` importing the bundle, timed from the process's start until the import resolved (median
 *    of several processes), against a fresh `node` importing an empty module the same way;
 *  - its size, shown without a target (the size is not what a user feels), against the same handler
 *    bundled unminified (what SST v2 ships by default).
 * The bundles sit outside the checkout, so nothing resolves from node_modules; the environment is
 * the one the stack sets plus what Lambda sets for active tracing (so Powertools Tracer turns on
 * and instruments http and fetch as it does there), with the SST secrets given as values (no SSM
 * call, so the functions that read a secret from SSM load its client later than on AWS).
 */
import { readdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, runJson } from "../support/child.ts";
import { bundle, esbuildVersion } from "../support/esbuild.ts";
import type { BenchContext, Figure } from "../support/figure.ts";

const MB = 1_000_000;
const IMPORTS = 9;
/** The cold-start target: process start to the handler's module imported. */
const COLD_IMPORT_TARGET_MS = 250;
const FUNCTIONS_DIR = fileURLToPath(new URL("../../functions/", import.meta.url));

/** What the stack and Lambda put on the functions (stacks/ReelayStack.ts), with made-up names. */
const FUNCTION_ENV: Record<string, string> = {
  AWS_REGION: "us-east-1",
  AWS_LAMBDA_FUNCTION_NAME: "bench",
  AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x",
  LAMBDA_TASK_ROOT: "/var/task",
  // Tracing active: nothing is traced during an import, so nothing is sent there.
  AWS_XRAY_DAEMON_ADDRESS: "127.0.0.1:2000",
  REELAY_TABLE_NAME: "reelay-bench-jobs",
  REELAY_BUCKET_NAME: "reelay-bench-bucket",
  REELAY_EVENT_BUS_NAME: "reelay",
  REELAY_UPSTREAM_URL: "https://upstream.example/v1",
  REELAY_STATE_MACHINE_ARN: "arn:aws:states:us-east-1:123456789012:stateMachine:bench",
  SST_APP: "reelay",
  SST_STAGE: "bench",
  // Bound secrets as plain values: SST would fetch "__FETCH_FROM_SSM__" ones, a network call.
  SST_Secret_value_UPSTREAM_API_KEY: "bench-upstream-key",
  SST_Secret_value_REELAY_API_KEY: "bench-reelay-key",
  SST_Secret_value_REELAY_WEBHOOKS: "[]",
};

/** Imports the module named by argv[2] and prints how long the process took to get there. */
const IMPORTER = `const started = performance.now();
await import(process.argv[2]);
const done = performance.now();
console.log(JSON.stringify({ sinceStartMs: done, importMs: done - started }));
`;

interface Timing {
  sinceStartMs: number;
  importMs: number;
}

async function coldImports(importer: string, module: string): Promise<Timing[]> {
  const runs: Timing[] = [];
  for (let i = 0; i < IMPORTS; i++)
    runs.push(
      await runJson<Timing>(importer, [pathToFileURL(module).href], {
        env: { PATH: process.env.PATH ?? "", ...FUNCTION_ENV },
      }),
    );
  return runs;
}

export async function figures(ctx: BenchContext): Promise<Figure[]> {
  const handlers = (await readdir(FUNCTIONS_DIR)).filter((f) => f.endsWith(".ts")).sort();
  const importer = join(ctx.tmpDir, "importer.mjs");
  const empty = join(ctx.tmpDir, "empty.mjs");
  await writeFile(importer, IMPORTER);
  await writeFile(empty, "export {};\n");
  ctx.log(
    `esbuild ${await esbuildVersion()}, ${handlers.length} handlers, ${IMPORTS} cold imports each`,
  );
  const emptyRuns = await coldImports(importer, empty);
  const emptyMs = median(emptyRuns.map((r) => r.sinceStartMs));

  const out: Figure[] = [];
  for (const file of handlers) {
    const name = basename(file, ".ts");
    const entry = join(FUNCTIONS_DIR, file);
    const [minified, plain] = await Promise.all([
      bundle(entry, join(ctx.tmpDir, `${name}.mjs`), { minify: true }),
      bundle(entry, join(ctx.tmpDir, "unminified", `${name}.mjs`), { minify: false }),
    ]);
    const runs = await coldImports(importer, minified.file);
    const ms = median(runs.map((r) => r.sinceStartMs));
    ctx.log(`${name}: cold import ${ms.toFixed(0)} ms, ${(minified.bytes / MB).toFixed(2)} MB`);
    out.push(
      {
        name: `${name} function cold import`,
        value: ms,
        unit: "ms",
        baselineName: "a fresh node importing an empty module",
        baseline: emptyMs,
        target: { on: "value", atMost: COLD_IMPORT_TARGET_MS },
        note: `process start to import resolved, median of ${IMPORTS} fresh processes; the import alone ${median(runs.map((r) => r.importMs)).toFixed(0)} ms`,
      },
      {
        name: `${name} function bundle, minified`,
        value: minified.bytes / MB,
        unit: "MB",
        baselineName: "the same bundle unminified (SST v2's default)",
        baseline: plain.bytes / MB,
        note: `${Object.keys(minified.meta.inputs).length} input files; no target: the cold import is what is judged`,
      },
    );
  }
  return out;
}
