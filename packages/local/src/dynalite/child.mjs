// dynalite on the data dir in its own process, so the database's work runs on the second core and
// not on the stack's event loop. Usage: node child.mjs <dir> <host> [port]. Prints {"port": N}
// once listening (on `port`, else on any free one: a child started again takes its old port), or
// {"error": {code, message}} when it cannot listen. Ends with its parent: the stdin pipe closes
// when the parent exits or is killed, and the database is then closed before this process exits.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const dynalite = require("dynalite");
const { Level } = createRequire(require.resolve("dynalite"))("level");
const [dir, host, port] = process.argv.slice(2);

const LOCK_WAIT_MS = 10_000;
const LOCK_STEP_MS = 50;
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
process.stdin.on("end", () => {
  setTimeout(() => process.exit(0), CLOSE_WAIT_MS).unref();
  if (server === undefined) process.exit(0);
  server.close(() => process.exit(0));
});
process.stdin.resume();

await lockFree();
server = dynalite({ path: dir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
// A port taken meanwhile (a restart on the old one): a refusal to start, not a crash.
server.once("error", ({ code, message }) => {
  process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
  process.exit(1);
});
server.listen(Number(port ?? 0), host, () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
