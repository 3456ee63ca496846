/**
 * dynalite on the data dir's dynamodb folder, in a child process (child.mjs) so the database's work
 * runs on another core than the flows, the API and s3rver; started with the jobs table ACTIVE and
 * its indexes put right (index-repair.ts), and started afresh when a crash left the table stuck.
 */
import { mkdir, rename } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { localDynamoClient } from "../aws-clients.ts";
import { spawnService } from "../children/service.ts";
import { type SupervisedService, supervise } from "../children/supervise.ts";
import { type Logger, silentLogger } from "../log.ts";
import { repairIndexes } from "./index-repair.ts";
import { ensureTable, TableStuckError } from "./table.ts";

export interface Dynamo {
  ddb: DynamoDBDocumentClient;
  endpoint: string;
  /** The child's pid and restarts (a dead child is started again on its port). */
  child: Pick<SupervisedService<unknown>, "pid" | "restarts">;
  /** Ends the child (it closes its database first) and waits for it. */
  stop(): Promise<void>;
}

/**
 * V8 grows its young generation up to 16 MB a semi-space under a steady stream of requests, most of
 * the child's RSS above its idle figure (56 -> 110 MB within 400 jobs); dynalite's garbage per
 * request is short-lived and small, so a small young generation costs little time.
 */
const DYNALITE_NODE_ARGS = ["--max-semi-space-size=1", "--expose-gc"];
/**
 * glibc's malloc as dynalite's memory use needs it: leveldb works on libuv's threads, each given an
 * arena of its own by default, and a freed large buffer raises the threshold under which buffers
 * come from the heap, which then keeps what it once held. One arena, buffers from 32 KiB mapped and
 * unmapped each time, the heap's free top given back from 64 KiB. With these and leveldb's caches at
 * a quarter (child.mjs), the child kept 1.49x its fresh RSS after a full GC after 4,000 jobs (1.77x
 * before). What is left grows with the jobs: glibc's main heap (2 MB fresh, 24 MB after 4,000 jobs),
 * not V8's heap and not leveldb's mapped files. So the child also recycles itself: when what it
 * keeps after a full GC passes 1.4x its fresh figure, it closes at a quiet moment (no request under
 * way, none in the last 250 ms; checked every 10 s), like at a
 * stop, and exits with RECYCLE_EXIT_CODE; the supervisor starts the next one at once on the same
 * port, and the stack's DynamoDB client rides out the refused connections meanwhile (aws-clients.ts).
 */
const DYNALITE_ENV = {
  MALLOC_ARENA_MAX: "1",
  MALLOC_MMAP_THRESHOLD_: "32768",
  MALLOC_TRIM_THRESHOLD_: "65536",
};
/** The recycle (above): the bound on what the child keeps against its fresh figure, how often it is checked. */
const RECYCLE = { above: 1.4, checkMs: 10_000 };
/** What child.mjs exits with when it recycles itself. */
const RECYCLE_EXIT_CODE = 75;

/**
 * dynalite on its data folder in a child process (child.mjs), started again on its port if it dies
 * or recycles itself. The child ends when its stdin closes: at stop, and when this process exits or
 * is killed.
 */
export async function spawnDynalite(
  dynamoDir: string,
  host: string,
  log: Logger = silentLogger,
  /** The recycle's bound and how often it is checked (tests make both small). */
  recycle: { above: number; checkMs: number } = RECYCLE,
): Promise<
  { port: number; clean: boolean } & Pick<SupervisedService<unknown>, "pid" | "restarts" | "stop">
> {
  const script = fileURLToPath(new URL("./child.mjs", import.meta.url));
  const child = await supervise<{ port: number; clean?: boolean }>(
    "dynalite",
    (previous) =>
      spawnService(
        script,
        [dynamoDir, host, ...(previous ? [String(previous.port)] : [])],
        DYNALITE_NODE_ARGS,
        (line) => log.warn(`dynalite: ${line}`),
        {
          ...DYNALITE_ENV,
          RECYCLE_ABOVE: String(recycle.above),
          RECYCLE_CHECK_MS: String(recycle.checkMs),
          RECYCLE_EXIT_CODE: String(RECYCLE_EXIT_CODE),
        },
      ),
    log,
    RECYCLE_EXIT_CODE,
  );
  return Object.assign(child, { port: child.ready.port, clean: child.ready.clean === true });
}

/** dynalite on its data folder with the jobs table ACTIVE. */
async function startDynamo(
  dynamoDir: string,
  host: string,
  tableName: string,
  log: Logger,
): Promise<Dynamo> {
  const dynalite = await spawnDynalite(dynamoDir, host, log);
  const endpoint = `http://${host}:${dynalite.port}`;
  const ddb = localDynamoClient(endpoint);
  const stop = async () => {
    ddb.destroy();
    await dynalite.stop();
  };
  try {
    await ensureTable(ddb, tableName);
    // Reading every item and entry takes seconds once the table holds many jobs; after a clean
    // close no entry can be out of line, so only a start after a crash pays for it.
    if (!dynalite.clean) await repairIndexes(ddb, tableName);
  } catch (error) {
    await stop();
    throw error;
  }
  return { ddb, endpoint, child: dynalite, stop };
}

/**
 * A table stuck CREATING holds no items (dynalite refuses writes to it), but dynalite cannot finish
 * or delete it: its folder is set aside, kept for inspection, and the database starts afresh.
 */
export async function startDynamoRecovering(
  dynamoDir: string,
  host: string,
  tableName: string,
  log: Logger = silentLogger,
): Promise<Dynamo> {
  try {
    return await startDynamo(dynamoDir, host, tableName, log);
  } catch (error) {
    if (!(error instanceof TableStuckError)) throw error;
    await rename(dynamoDir, `${dynamoDir}.stuck-${Date.now()}`);
    await mkdir(dynamoDir, { recursive: true });
    return startDynamo(dynamoDir, host, tableName, log);
  }
}
