/**
 * reelay's releases, as CHANGELOG.md and git history record them: a release is the commit that adds
 * its `## [x.y.z] - date` heading (and sets the version). The upgrade tests run the previous
 * release's code, extracted read-only from git (`git archive`, no worktree), beside this checkout.
 *
 * The extracted tree has no node_modules of its own: it gets a real node_modules whose entries link
 * to this checkout's (absolute paths), except @reelay/*, which link to the tree's own packages/*. The
 * checkout's @reelay/* are relative links to ../../packages/*; linked as they are, they would run
 * this checkout's code under the release's name.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
/** Extracted trees, one per commit; under node_modules so no tool of the checkout sees them. */
const CACHE = join(ROOT, "node_modules", ".cache", "reelay", "releases");
const HEADING = /^## \[(\d+\.\d+\.\d+[^\]]*)\] - (\d{4}-\d{2}-\d{2})\s*$/gm;

export interface Release {
  version: string;
  date: string;
  /** The commit that added the release's heading to CHANGELOG.md. */
  commit: string;
}

function git(args: string[]): string {
  return execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
}

/** The commit that added `heading`: the oldest that changed how often it occurs. */
function commitAdding(heading: string): string | undefined {
  const commits = git(["log", "--format=%H", `-S${heading}`, "--", "CHANGELOG.md"]);
  return commits.split("\n").filter(Boolean).at(-1);
}

const shallowHint =
  "this clone lacks the history the upgrade test needs (a shallow clone?): run `git fetch --unshallow` (or clone without --depth) and run the test again";

/** The commits a shallow clone cut the history at (none in a full clone). */
function shallowRoots(): Set<string> {
  const file = resolve(ROOT, git(["rev-parse", "--git-path", "shallow"]));
  return new Set(existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);
}

/** Every release CHANGELOG.md names, newest first, each with the commit that made it. */
function releases(): Release[] {
  const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
  const cut = shallowRoots();
  return [...changelog.matchAll(HEADING)].map(([heading, version = "", date = ""]) => {
    const commit = commitAdding(heading.trimEnd());
    // At a cut, the heading seems added by the oldest commit there is, whichever added it.
    if (commit === undefined || cut.has(commit))
      throw new Error(`no commit adds "${heading.trim()}" to CHANGELOG.md: ${shallowHint}`);
    return { version, date, commit };
  });
}

/** The newest release before HEAD: its commit an ancestor of HEAD, not HEAD itself. */
export function previousRelease(): Release {
  const head = git(["rev-parse", "HEAD"]);
  const found = releases().find(
    (release) =>
      release.commit !== head &&
      spawnSync("git", ["merge-base", "--is-ancestor", release.commit, head], { cwd: ROOT })
        .status === 0,
  );
  if (found === undefined)
    throw new Error(`CHANGELOG.md names no release before HEAD (${head.slice(0, 8)})`);
  return found;
}

/** `node_modules` in `tree` (and in each of its packages/*) linked to the checkout's, as above. */
function linkModules(tree: string): void {
  const reelay = new Map<string, string>();
  for (const dir of readdirSync(join(tree, "packages"))) {
    const manifest = join(tree, "packages", dir, "package.json");
    if (!existsSync(manifest)) continue;
    const { name } = JSON.parse(readFileSync(manifest, "utf8")) as { name: string };
    reelay.set(name, join(tree, "packages", dir));
  }
  const mirror = (from: string, to: string) => {
    if (!existsSync(from)) return;
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from)) {
      if (entry === ".cache") continue;
      if (entry === "@reelay") {
        // Relative (../../packages/x), so they hold when the tree is renamed into place.
        mkdirSync(join(to, entry));
        for (const [name, dir] of reelay)
          symlinkSync(relative(join(to, entry), dir), join(to, name), "dir");
      } else symlinkSync(join(from, entry), join(to, entry));
    }
  };
  mirror(join(ROOT, "node_modules"), join(tree, "node_modules"));
  for (const dir of readdirSync(join(tree, "packages")))
    mirror(
      join(ROOT, "packages", dir, "node_modules"),
      join(tree, "packages", dir, "node_modules"),
    );
}

/**
 * Where `specifier` resolves from `dir` (a real path): run in a child so the answer is Node's own
 * resolution from that directory, not this process's.
 */
function resolvedFrom(dir: string, specifier: string): string {
  const script = `import { realpathSync } from "node:fs"; import { fileURLToPath } from "node:url"; process.stdout.write(realpathSync(fileURLToPath(import.meta.resolve(${JSON.stringify(specifier)}))));`;
  return execFileSync(
    process.execPath,
    ["--conditions=@reelay/source", "--input-type=module", "-e", script],
    { cwd: dir, encoding: "utf8" },
  );
}

/** Fails unless the tree's own packages are what its code imports. */
function checkLinks(tree: string): void {
  const real = realpathSync(tree);
  for (const [from, specifier] of [
    ["packages/cli", "@reelay/local"],
    ["packages/local", "@reelay/core/wiring"],
  ] as const) {
    const resolved = resolvedFrom(join(tree, from), specifier);
    if (!resolved.startsWith(`${real}/`))
      throw new Error(
        `${specifier} from the release's ${from} resolves to ${resolved}, outside ${real}`,
      );
  }
}

/**
 * The release's tree, extracted once per commit and kept under node_modules/.cache. Two test files
 * extracting at once each write their own temporary folder and rename it into place: the first
 * rename wins, the other's folder is removed.
 */
export function extractRelease(release: Release): string {
  const tree = join(CACHE, release.commit);
  if (existsSync(tree)) return tree;
  if (
    spawnSync("git", ["cat-file", "-e", `${release.commit}^{commit}`], { cwd: ROOT }).status !== 0
  )
    throw new Error(
      `commit ${release.commit} (release ${release.version}) is missing: ${shallowHint}`,
    );
  const temporary = join(CACHE, `.${release.commit}.${process.pid}.${Date.now()}`);
  mkdirSync(temporary, { recursive: true });
  try {
    execFileSync(
      "sh",
      ["-c", 'git archive "$1" | tar -x -C "$2"', "sh", release.commit, temporary],
      {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    linkModules(temporary);
    checkLinks(temporary);
    renameSync(temporary, tree);
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    // Another file's extraction got there first.
    if (existsSync(tree)) return tree;
    throw error;
  }
  return tree;
}
