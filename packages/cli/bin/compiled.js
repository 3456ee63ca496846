// The CLI compiled once into plain JavaScript, kept until a source changes. tsx compiles the
// TypeScript on the fly, but its loader hooks run for every module a process loads: a `reelay up`
// cost about 4 CPU-s to start under tsx, 2.4 of them in the hooks. esbuild (tsx's own compiler)
// bundles the repository's packages into one module in node_modules/.cache/reelay/cli/<key>/;
// every package from npm stays an import, loaded by Node from node_modules as before. The key is
// every source file's path, size and modification time, so an edit compiles again at the next
// start. Each command is a chunk of its own, loaded when it runs. Each module's import.meta.url stays its source file's, so what the code finds beside
// itself (the dynalite child, the dashboard's assets, the simulator's clip) is found as before.
// Whatever goes wrong here, the caller runs the sources under tsx instead.
import { createHash } from "node:crypto";
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PACKAGES = join(ROOT, "packages");
const CACHE = join(ROOT, "node_modules", ".cache", "reelay", "cli");
const ENTRY = join(PACKAGES, "cli", "src", "main.ts");

/** Every file under `dir`, skipping node_modules, as "path size mtime" lines. */
function listing(dir, lines) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "test") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listing(path, lines);
    else if (entry.isFile()) {
      const { size, mtimeMs } = statSync(path);
      lines.push(`${path} ${size} ${mtimeMs}`);
    }
  }
  return lines;
}

function sourcesKey() {
  const hash = createHash("sha256").update(`${process.version}\n`);
  for (const line of listing(PACKAGES, []).sort()) hash.update(`${line}\n`);
  return hash.digest("hex").slice(0, 20);
}

/** Bare imports of packages from npm stay imports; the repository's own (@reelay/*) are bundled. */
const externalPackages = {
  name: "external-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@reelay/") ? undefined : { path: args.path, external: true },
    );
  },
};

/** Each source keeps its own import.meta.url (and dirname, filename) in the bundle. */
const ownMetaUrl = {
  name: "own-import-meta",
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, (args) => {
      if (args.path.includes(`${join("/", "node_modules", "/")}`)) return undefined;
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta")) return undefined;
      const own = {
        url: pathToFileURL(args.path).href,
        dirname: join(args.path, ".."),
        filename: args.path,
      };
      // Not where the name is quoted (a define's key, say): code only.
      const contents = text.replace(
        /(?<!["'])\bimport\.meta\.(url|dirname|filename)\b/g,
        (_, name) => JSON.stringify(own[name]),
      );
      return { contents, loader: args.path.endsWith("ts") ? "ts" : "js" };
    });
  },
};

/** The compiled CLI's entry (its module exports `main`), compiling it first when no copy is current. */
export async function compiledCli() {
  const key = sourcesKey();
  const dir = join(CACHE, key);
  const entry = join(dir, "main.mjs");
  if (!existsSync(entry)) {
    await compile(key, dir, entry);
    removeStale(key);
  }
  keepFresh(dir);
  return pathToFileURL(entry).href;
}

/** How often a running process marks its copy as in use (far less than the day after which a copy is stale). */
const FRESH_EVERY_MS = 3_600_000;

/** Marks the copy in use now and every FRESH_EVERY_MS while this process runs. */
function keepFresh(dir) {
  const touch = () => {
    try {
      const now = new Date();
      utimesSync(dir, now, now);
    } catch {
      // Removed meanwhile (a copy a day stale): the chunks already loaded go on working.
    }
  };
  touch();
  setInterval(touch, FRESH_EVERY_MS).unref();
}

async function compile(key, dir, entry) {
  const { build } = await import("esbuild");
  const partial = join(CACHE, `.${key}.${process.pid}`);
  await build({
    entryPoints: { main: ENTRY },
    bundle: true,
    // Each command (main.ts imports it when it runs) in a chunk of its own, with the npm packages it
    // imports: bundled as one module, every start loaded every package any command uses (the AWS
    // SDK, the MCP SDK, the state machine interpreter), about 0.9 CPU-s before `reelay --help`.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    platform: "node",
    format: "esm",
    target: "node20",
    outdir: partial,
    conditions: ["@reelay/source"],
    plugins: [externalPackages, ownMetaUrl],
    logLevel: "silent",
  });
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another process compiled the same sources first: its copy is as good.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(entry)) throw error;
  }
}

/**
 * Copies for sources as they were a day ago are of no more use: a process running one may still
 * load a chunk of it (the API builds its OpenAPI document at the first request), so each keeps its
 * copy's time fresh while it runs (keepFresh).
 */
function removeStale(key) {
  const dayAgo = Date.now() - 86_400_000;
  for (const old of readdirSync(CACHE)) {
    const path = join(CACHE, old);
    if (old !== key && statSync(path).mtimeMs < dayAgo)
      rmSync(path, { recursive: true, force: true });
  }
}
