/**
 * Bundles a TypeScript entry the way SST v2 (node_modules/sst/runtime/handlers/node.js) bundles a
 * Node function in ESM, its default format: platform node, esnext, mainFields module then main,
 * keepNames, the createRequire/__dirname banner, nothing external but sharp and pg-native (the
 * AWS SDK v3 is bundled, as SST does for every runtime but nodejs16.x); split into chunks (.mjs
 * beside the entry) when asked, as SST does for `nodejs.splitting`. Run with the esbuild CLI in
 * node_modules/.bin, so the bench needs no esbuild API dependency.
 */
import { execFile } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ESBUILD = `${ROOT}node_modules/.bin/esbuild`;

/** SST v2's ESM banner: a require and __dirname for bundled CommonJS code. */
const BANNER = [
  `import { createRequire as topLevelCreateRequire } from 'module';`,
  `const require = topLevelCreateRequire(import.meta.url);`,
  `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
  `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
].join("\n");

export interface BundleOptions {
  minify: boolean;
  /**
   * Code splitting (SST's `nodejs.splitting`): the entry is then `<entry's name>.mjs` in the
   * outfile's folder, beside its chunks.
   */
  splitting?: boolean;
  /** esbuild options SST passes on as they are (`nodejs.esbuild`): module aliases, conditions. */
  esbuild?: {
    alias?: Readonly<Record<string, string>>;
    conditions?: readonly string[];
  };
  /** Extra externals, e.g. "@aws-sdk/*" for the runtime-provided SDK. */
  external?: string[];
}

interface Output {
  bytes: number;
  inputs: Record<string, { bytesInOutput: number }>;
  imports: { path: string; kind: string }[];
}

export interface Bundle {
  /** The entry: the file a function's handler names. */
  file: string;
  /** The entry's bytes. */
  bytes: number;
  /** The entry's and every chunk's it imports statically: what a cold import reads and compiles. */
  coldBytes: number;
  /** The input files in those: what a cold import runs. */
  coldInputs: string[];
  /** Every output file's bytes, chunks loaded later with `import()` too. */
  totalBytes: number;
  /** esbuild's metafile: every input file and its bytes in the output. */
  meta: {
    inputs: Record<string, { bytes: number }>;
    outputs: Record<string, Output>;
  };
}

/** `entry` and every output it imports statically, each once. */
function staticClosure(outputs: Record<string, Output>, entry: string): Output[] {
  const seen = new Map<string, Output>();
  const visit = (path: string): void => {
    const output = outputs[path];
    if (output === undefined || seen.has(path)) return;
    seen.set(path, output);
    for (const i of output.imports) if (i.kind === "import-statement") visit(i.path);
  };
  visit(entry);
  return [...seen.values()];
}

export async function esbuildVersion(): Promise<string> {
  return (await run(ESBUILD, ["--version"])).stdout.trim();
}

/** Bundles `entry` (relative to the repo root or absolute) into `outfile` (.mjs). */
export async function bundle(
  entry: string,
  outfile: string,
  options: BundleOptions,
): Promise<Bundle> {
  const metafile = `${outfile}.meta.json`;
  const file = options.splitting
    ? join(dirname(outfile), `${basename(entry, extname(entry))}.mjs`)
    : outfile;
  await run(
    ESBUILD,
    [
      entry,
      "--bundle",
      "--platform=node",
      "--format=esm",
      "--target=esnext",
      "--main-fields=module,main",
      "--keep-names",
      "--log-level=error",
      `--banner:js=${BANNER}`,
      ...["sharp", "pg-native", ...(options.external ?? [])].map((name) => `--external:${name}`),
      ...(options.minify ? ["--minify"] : []),
      ...Object.entries(options.esbuild?.alias ?? {}).map(([from, to]) => `--alias:${from}=${to}`),
      ...(options.esbuild?.conditions === undefined
        ? []
        : [`--conditions=${options.esbuild.conditions.join(",")}`]),
      `--metafile=${metafile}`,
      ...(options.splitting
        ? ["--splitting", "--out-extension:.js=.mjs", `--outdir=${dirname(outfile)}`]
        : [`--outfile=${outfile}`]),
    ],
    { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  const meta = JSON.parse(await readFile(metafile, "utf8")) as Bundle["meta"];
  // The metafile names outputs relative to the working directory (the repo root).
  const entryKey = Object.keys(meta.outputs).find((path) => join(ROOT, path) === file) ?? "";
  return { ...bundleOf(meta, entryKey, file), bytes: (await stat(file)).size };
}

/**
 * A bundle as its esbuild metafile describes it: `entryKey` is the entry's output (a key of
 * `meta.outputs`), `file` where that output is.
 */
export function bundleOf(meta: Bundle["meta"], entryKey: string, file: string): Bundle {
  const cold = staticClosure(meta.outputs, entryKey);
  return {
    file,
    bytes: meta.outputs[entryKey]?.bytes ?? 0,
    coldBytes: cold.reduce((sum, output) => sum + output.bytes, 0),
    coldInputs: cold.flatMap((output) => Object.keys(output.inputs)),
    totalBytes: Object.values(meta.outputs).reduce((sum, output) => sum + output.bytes, 0),
    meta,
  };
}
