// dynalite on the data dir in its own process, so the database's work runs on the second core and
// not on the stack's event loop. Usage: node child.mjs <dir> <host> [port]. Prints {"port": N,
// "clean": bool} once listening (on `port`, else on any free one: a child started again takes its
// old port), or {"error": {code, message}} when it cannot listen. Ends with its parent: the stdin
// pipe closes when the parent exits or is killed, and the database is then closed before this
// process exits (SIGINT and SIGTERM are left to the parent). `clean` says the last child on this folder closed its database after every write
// it took was done, and nothing opened the folder since: no write can have stopped between an
// item's index entries and the item. The closing child leaves `<dir>.clean` holding the folder's
// files, sizes and times; the next one compares them (any open since changes them) and removes it.
// Past RECYCLE_ABOVE times its fresh RSS, the child closes the same way at a quiet moment and exits
// with RECYCLE_EXIT_CODE, and the supervisor starts the next one at once (start.ts says why).
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { closeIteratorsOnReturn } from "./close-iterators.mjs";

const require = createRequire(import.meta.url);
const dynalite = require("dynalite");
const fromDynalite = createRequire(require.resolve("dynalite"));
const { Level } = fromDynalite("level");
const { AbstractIterator } = createRequire(
  createRequire(fromDynalite.resolve("level")).resolve("classic-level"),
)("abstract-level");

closeIteratorsOnReturn(AbstractIterator);
const [dir, host, port] = process.argv.slice(2);
const cleanMarker = `${dir}.clean`;

/** The database folder's files as they are now: any open of the database changes them. */
function folderState() {
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const { size, mtimeMs } = statSync(join(dir, name));
      return `${name} ${size} ${mtimeMs}`;
    })
    .join("\n");
}

/** Whether the last close left the folder as it is now; the marker is removed either way. */
function closedCleanly() {
  let marker;
  try {
    marker = readFileSync(cleanMarker, "utf8");
  } catch {
    return false;
  }
  rmSync(cleanMarker, { force: true });
  return marker === folderState();
}

const LOCK_WAIT_MS = 10_000;
/**
 * How often the whole key range is compacted. A job's record is rewritten at every step, each time
 * with its index entry, and leveldb keeps the old versions in lower levels until a compaction
 * reaches them: the files on disk were several times the live data. A pass over the jobs table of
 * 20,000 jobs takes about a second of this process's time.
 */
const COMPACT_EVERY_MS = 5 * 60_000;
const LOCK_STEP_MS = 50;
/** leveldb's caches, a quarter of its defaults (8 MiB of blocks, 4 MiB write buffer): see start.ts. */
const LEVELDB_OPTIONS = { cacheSize: 2 * 1024 * 1024, writeBufferSize: 1024 * 1024 };
/**
 * The recycle, as start.ts sets it: past RECYCLE_ABOVE times its fresh RSS (both read after a full
 * GC, the fresh one once listening), checked every RECYCLE_CHECK_MS, the child ends itself at a
 * quiet moment with RECYCLE_EXIT_CODE. A fresh figure read later, under load, was high enough that
 * a successor never recycled (1.70x its first child's after 20,000 jobs). Unset: no recycle.
 */
const RECYCLE_ABOVE = Number(process.env.RECYCLE_ABOVE);
const RECYCLE_CHECK_MS = Number(process.env.RECYCLE_CHECK_MS);
const RECYCLE_EXIT_CODE = Number(process.env.RECYCLE_EXIT_CODE);
/** Quiet: no request under way, and none began in this long. */
const QUIET_MS = 250;
/** Past this, the database is left as it is: leveldb's log makes a cut-off close as safe as a kill. */
const CLOSE_WAIT_MS = 5_000;

/** A previous child killed with its parent may hold leveldb's lock for a moment longer: wait for it. */
async function lockFree() {
  for (let waited = 0; ; waited += LOCK_STEP_MS) {
    const db = new Level(dir);
    try {
      await db.open();
      await db.close();
      return;
    } catch (error) {
      if (waited >= LOCK_WAIT_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, LOCK_STEP_MS));
    }
  }
}

let server;
/** Stops taking requests, lets those under way finish, leaves the clean marker and exits with `code`. */
function closeAndExit(code) {
  setTimeout(() => process.exit(code), CLOSE_WAIT_MS).unref();
  if (server === undefined) process.exit(code);
  server.close((error) => {
    try {
      if (!error) writeFileSync(cleanMarker, folderState());
    } catch {
      // No marker: the next start repairs, as after a crash.
    }
    process.exit(code);
  });
}
process.stdin.on("end", () => closeAndExit(0));
process.stdin.resume();
// Ctrl-C in a terminal (or a kill of the stack's process group) signals this child too: the
// stack stops it in its turn, closing the database, so the signal is the parent's alone to act on.
// Dying of it here left the database unclosed and the stack starting a new child as it stopped.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => undefined);

const clean = closedCleanly();
await lockFree();
// dynalite opens its database itself: this keeps a handle on it, for the compactions.
let database;
const openDatabase = Level.prototype._open;
Level.prototype._open = function keepHandle(options, ...rest) {
  database = this;
  return openDatabase.call(this, { ...options, ...LEVELDB_OPTIONS }, ...rest);
};
setInterval(() => {
  // Keys are "<sublevel>~...": every one sorts between these two.
  database?.compactRange(" ", "~").catch(() => undefined);
}, COMPACT_EVERY_MS).unref();
server = dynalite({ path: dir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
// A port taken meanwhile (a restart on the old one): a refusal to start, not a crash.
server.once("error", ({ code, message }) => {
  process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
  process.exit(1);
});
/**
 * What this process keeps, read after a full GC (the child runs with --expose-gc) so that garbage
 * V8 has not collected yet never makes a recycle: fresh once listening, then at quiet moments.
 */
function keptRss() {
  globalThis.gc?.();
  return process.memoryUsage.rss();
}
let freshRss;
server.listen(Number(port ?? 0), host, () => {
  freshRss = keptRss();
  process.stdout.write(`${JSON.stringify({ port: server.address().port, clean })}\n`);
});

let underWay = 0;
let lastBegan = 0;
server.on("request", (_request, response) => {
  underWay += 1;
  lastBegan = Date.now();
  response.once("close", () => {
    underWay -= 1;
  });
});
if (RECYCLE_ABOVE > 0 && RECYCLE_CHECK_MS > 0 && Number.isInteger(RECYCLE_EXIT_CODE)) {
  setInterval(() => {
    if (freshRss === undefined || underWay > 0 || Date.now() - lastBegan < QUIET_MS) return;
    if (keptRss() > RECYCLE_ABOVE * freshRss) closeAndExit(RECYCLE_EXIT_CODE);
  }, RECYCLE_CHECK_MS).unref();
}
