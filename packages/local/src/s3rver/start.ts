/**
 * s3rver on the data dir's s3 folder, in this process (run.ts) or in a child (child.ts) so storing
 * objects runs on another core; on the asked port, or on any free port when that one is taken.
 */
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { spawnService } from "../children/service.ts";
import { type SupervisedService, supervise } from "../children/supervise.ts";
import type { Logger } from "../log.ts";
import { runS3rver } from "./run.ts";
import type { S3Notifications, S3rverEventRecord } from "./types.ts";

const require = createRequire(import.meta.url);

export interface StartedS3rver {
  /** s3rver's notifications (the drops listen), from this process or from its child. */
  s3rver: S3Notifications & { close(): Promise<void> };
  port: number;
  /** The child's pid and restarts, when s3rver runs in one. */
  child?: Pick<SupervisedService<unknown>, "pid" | "restarts">;
}

type ChildReady = { port: number };

/** One s3rver child on `port`; a refusal to start (the port taken) is thrown. */
function spawnOne(script: string, args: string[], port: number, log: Logger) {
  const loader = pathToFileURL(require.resolve("tsx")).href;
  return spawnService<ChildReady>(script, [...args, String(port)], ["--import", loader], (line) =>
    log.warn(`s3rver: ${line}`),
  );
}

/**
 * s3rver in a child process (child.ts, run with tsx's loader), its notifications passed on as
 * events of the returned emitter. Ends with this process, as dynalite does; started again on its
 * port if it dies while the stack runs.
 */
async function spawnS3rver(
  directory: string,
  host: string,
  port: number,
  log: Logger,
): Promise<StartedS3rver> {
  const script = fileURLToPath(new URL("./child.ts", import.meta.url));
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
