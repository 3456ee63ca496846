/**
 * s3rver on the data dir's s3 folder, in this process (run.ts) or in a child (child.ts) so storing
 * objects runs on another core; on the asked port, or on any free port when that one is taken.
 */
import { createHash } from "node:crypto";
import { EventEmitter } from "node:events";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import { spawnService } from "../children/service.ts";
import { type SupervisedService, supervise } from "../children/supervise.ts";
import type { Logger } from "../log.ts";
import { runS3rver } from "./run.ts";
import type { S3Notifications, S3rverEventRecord } from "./types.ts";

export interface StartedS3rver {
  /** s3rver's notifications (the drops listen), from this process or from its child. */
  s3rver: S3Notifications & { close(): Promise<void> };
  port: number;
  /** The child's pid and restarts, when s3rver runs in one. */
  child?: Pick<SupervisedService<unknown>, "pid" | "restarts">;
}

type ChildReady = { port: number };

const CHILD_SOURCE = fileURLToPath(new URL("./child.ts", import.meta.url));
let childScript: string | undefined;

/**
 * child.ts and the few files it imports as one plain ES module (esbuild, tsx's own compiler), so
 * the child runs on plain `node`: started with tsx's loader, it cost twice the CPU of s3rver's own
 * start (1.1 against 0.5 CPU-s), each stack start and each restart. Written once per content to
 * the temp dir; `import.meta.url` keeps child.ts's, so its createRequire finds s3rver as before.
 */
function bundledChild(): string {
  if (childScript !== undefined) return childScript;
  const [output] = buildSync({
    entryPoints: [CHILD_SOURCE],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    write: false,
    define: { "import.meta.url": JSON.stringify(pathToFileURL(CHILD_SOURCE).href) },
  }).outputFiles;
  if (output === undefined) throw new Error("esbuild wrote no s3rver child.");
  const digest = createHash("sha256").update(output.contents).digest("hex").slice(0, 16);
  const script = join(tmpdir(), `reelay-s3rver-child-${digest}.mjs`);
  if (!existsSync(script)) {
    const partial = `${script}.${process.pid}.tmp`;
    writeFileSync(partial, output.contents);
    renameSync(partial, script);
  }
  childScript = script;
  return script;
}

/** One s3rver child on `port`; a refusal to start (the port taken) is thrown. */
function spawnOne(script: string, args: string[], port: number, log: Logger) {
  return spawnService<ChildReady>(script, [...args, String(port)], [], (line) =>
    log.warn(`s3rver: ${line}`),
  );
}

/**
 * s3rver in a child process (child.ts, bundled to plain JS), its notifications passed on as
 * events of the returned emitter. Ends with this process, as dynalite does; started again on its
 * port if it dies while the stack runs.
 */
async function spawnS3rver(
  directory: string,
  host: string,
  port: number,
  log: Logger,
): Promise<StartedS3rver> {
  const script = bundledChild();
  const service = await supervise<ChildReady>(
    "s3rver",
    (previous) => spawnOne(script, [directory, host], previous?.port ?? port, log),
    log,
  );
  const notifications = new EventEmitter();
  service.lines.on("line", (line) => {
    const { event } = line as { event?: { Records: S3rverEventRecord[] } };
    if (event !== undefined) notifications.emit("event", event);
  });
  return {
    port: service.ready.port,
    s3rver: { on: (name, listener) => void notifications.on(name, listener), close: service.stop },
    child: service,
  };
}

async function startOn(
  directory: string,
  host: string,
  port: number,
  child: { log: Logger } | undefined,
): Promise<StartedS3rver> {
  if (child !== undefined) return spawnS3rver(directory, host, port, child.log);
  const { s3rver, address } = await runS3rver(directory, host, port);
  return { s3rver, port: address.port };
}

/**
 * s3rver on `port` (0 or none: any free port); a taken `port` falls back to any free port. `child`:
 * in a child process, whose deaths and restarts go to its log.
 */
export async function startS3rver(
  directory: string,
  host: string,
  port: number | undefined,
  child: { log: Logger } | undefined,
): Promise<StartedS3rver> {
  try {
    return await startOn(directory, host, port ?? 0, child);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || !port) throw error;
    // The usual port is taken (another stack?): any port works, healthz names the one in use.
    return startOn(directory, host, 0, child);
  }
}
