// dynalite (in memory) in its own process, so the database's work runs on the second core and not
// in the event loop that times the flows. Prints {"port": N} once listening; ends with its parent.
import { createRequire } from "node:module";

const dynalite = createRequire(import.meta.url)("dynalite");
const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
