/**
 * s3rver on the data dir in its own process, so storing objects (hashing, file writes, its HTTP
 * parsing) runs on another core than the flows and the API. start.ts runs it bundled to plain JS:
 * node child.mjs <dir> <host> <port>. Prints {"port": N} once listening, or {"error": {code,
 * message}} and exits 1; then one {"event": ...} line per s3rver notification (the stack's drops
 * listen to them). Ends with its parent: the stdin pipe closes when the parent exits or is killed;
 * SIGINT and SIGTERM are left to the parent.
 */
import { runS3rver } from "./run.ts";

const [dir, host, port] = process.argv.slice(2);
/** Past this, the process exits without waiting for s3rver's close (its writes are durable on their own). */
const CLOSE_WAIT_MS = 5_000;

const line = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

let close: (() => Promise<void>) | undefined;
process.stdin.on("end", () => {
  setTimeout(() => process.exit(0), CLOSE_WAIT_MS).unref();
  if (close === undefined) process.exit(0);
  else void close().finally(() => process.exit(0));
});
process.stdin.resume();
// A signal to the stack's whole process group (Ctrl-C) is the parent's to act on: it stops this
// child in its turn (dynalite's child.mjs says why).
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => undefined);

const refuse = (error: unknown) => {
  const { code, message } = error as NodeJS.ErrnoException;
  line({ error: { code, message } });
  process.exit(1);
};
// s3rver leaves its server's listen error (EADDRINUSE) as an unhandled 'error' event: until ready,
// that is a refusal to start like any other, so the stack can choose another port.
process.once("uncaughtException", refuse);

try {
  const { s3rver, address } = await runS3rver(dir ?? ".", host ?? "127.0.0.1", Number(port ?? 0));
  close = () => s3rver.close();
  s3rver.on("event", (event) => line({ event }));
  process.off("uncaughtException", refuse);
  line({ port: address.port });
} catch (error) {
  refuse(error);
}
