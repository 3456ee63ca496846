/**
 * Bundles a TypeScript entry the way SST v2 (node_modules/sst/runtime/handlers/node.js) bundles a
 * Node function in ESM, its default format: platform node, esnext, mainFields module then main,
 * keepNames, the createRequire/__dirname banner, nothing external but sharp and pg-native (the
 * AWS SDK v3 is bundled, as SST does for every runtime but nodejs16.x). Run with the esbuild CLI
 * in node_modules/.bin, so the bench needs no esbuild API dependency.
 */
import { execFile } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
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
  /** Extra externals, e.g. "@aws-sdk/*" for the runtime-provided SDK. */
  external?: string[];
}

export interface Bundle {
  file: string;
  bytes: number;
  /** esbuild's metafile: every input file and its bytes in the output. */
  meta: {
    inputs: Record<string, { bytes: number }>;
    outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
  };
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
      `--metafile=${metafile}`,
      `--outfile=${outfile}`,
    ],
    { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  const meta = JSON.parse(await readFile(metafile, "utf8")) as Bundle["meta"];
  return { file: outfile, bytes: (await stat(outfile)).size, meta };
}
