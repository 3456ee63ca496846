/**
 * The previous release's cloud assembly, synthesized by that release's own code: its tree is
 * extracted from git (test/support/releases.ts, kept per commit under node_modules/.cache) and its
 * rehearsal/assembly.ts runs there, in a child whose working directory is the tree, so its
 * stacks, functions and bundles are the release's and its templates and assets are kept in the
 * tree's own .sst/rehearsal (a later run of the same deploy settings synthesizes nothing).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { extractRelease, previousRelease, type Release } from "../../test/support/releases.ts";
import type { Assembly } from "../assembly.ts";
import type { DeployEnv } from "../synth.ts";

const run = promisify(execFile);

/** Imports the release's own assembly module (argv: the tree, the deploy settings, the output file). */
const CHILD = `
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [tree, env, out] = process.argv.slice(1);
const { rehearsalAssembly } = await import(pathToFileURL(join(tree, "rehearsal/assembly.ts")).href);
const assembly = await rehearsalAssembly(JSON.parse(env));
await writeFile(out, JSON.stringify(assembly));
`;

export interface PreviousAssembly extends Assembly {
  release: Release;
}

export async function previousAssembly(env: DeployEnv): Promise<PreviousAssembly> {
  const release = previousRelease();
  const tree = extractRelease(release);
  const work = await mkdtemp(join(tmpdir(), "reelay-previous-"));
  try {
    const out = join(work, "assembly.json");
    await run(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", CHILD, tree, JSON.stringify(env), out],
      {
        cwd: tree,
        env: { ...process.env, SST_TELEMETRY_DISABLED: "1" },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const assembly = JSON.parse(await readFile(out, "utf8")) as Assembly;
    return { ...assembly, release };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? "";
    throw new Error(
      `The previous release (${release.version}, ${release.commit.slice(0, 8)}) did not synthesize: ${stderr.trim().split("\n").slice(-5).join(" / ") || String(error)}`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
