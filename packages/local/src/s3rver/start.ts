/**
 * s3rver on the data dir's s3 folder, in this process (run.ts) or in a child (child.ts) so storing
 * objects runs on another core; on the asked port, or on any free port when that one is taken.
 */
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { spawnService } from "../children/service.ts";
import { runS3rver } from "./run.ts";
import type { S3Notifications, S3rverEventRecord } from "./types.ts";

const require = createRequire(import.meta.url);

export interface StartedS3rver {
  /** s3rver's notifications (the drops listen), from this process or from its child. */
  s3rver: S3Notifications & { close(): Promise<void> };
  port: number;
}

/** A child's refusal to start, with the code it gave (EADDRINUSE: the port is taken). */
function childError(error: { code?: string; message?: string }): NodeJS.ErrnoException {
  return Object.assign(
    new Error(error.message ?? "s3rver did not start"),
    error.code === undefined ? {} : { code: error.code },
  );
}

/**
 * s3rver in a child process (child.ts, run with tsx's loader), its notifications passed on as
 * events of the returned emitter. Ends with this process, as dynalite does.
 */
async function spawnS3rver(directory: string, host: string, port: number): Promise<StartedS3rver> {
  const script = fileURLToPath(new URL("./child.ts", import.meta.url));
  const loader = pathToFileURL(require.resolve("tsx")).href;
  const service = await spawnService<{
    port?: number;
    error?: { code?: string; message?: string };
  }>(script, [directory, host, String(port)], ["--import", loader]);
  if (service.ready.port === undefined) {
    await service.stop();
    throw childError(service.ready.error ?? {});
  }
  const notifications = new EventEmitter();
  service.lines.on("line", (line) => {
    const { event } = line as { event?: { Records: S3rverEventRecord[] } };
    if (event !== undefined) notifications.emit("event", event);
  });
  return {
    port: service.ready.port,
    s3rver: { on: (name, listener) => void notifications.on(name, listener), close: service.stop },
  };
}

async function startOn(
  directory: string,
  host: string,
  port: number,
  inChild: boolean,
): Promise<StartedS3rver> {
  if (inChild) return spawnS3rver(directory, host, port);
  const { s3rver, address } = await runS3rver(directory, host, port);
  return { s3rver, port: address.port };
}

/** s3rver on `port` (0 or none: any free port); a taken `port` falls back to any free port. */
export async function startS3rver(
  directory: string,
  host: string,
  port: number | undefined,
  inChild: boolean,
): Promise<StartedS3rver> {
  try {
    return await startOn(directory, host, port ?? 0, inChild);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || !port) throw error;
    // The usual port is taken (another stack?): any port works, healthz names the one in use.
    return startOn(directory, host, 0, inChild);
  }
}
