/**
 * The data dir belongs to one running stack at a time: `reelay.lock` in it names that stack's pid
 * and, once it serves, its URL. A second stack on the same dir would otherwise fail deep inside
 * dynalite's child on leveldb's lock; this finds the holder first and names it. A lock whose process
 * is gone (a crash, a SIGKILL) is stale and taken over.
 */
import { constants } from "node:fs";
import { access, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ReelayError } from "@reelay/core/domain";

const LOCK_FILE = "reelay.lock";

const ELSEWHERE = "choose another data dir with --data-dir or REELAY_DATA_DIR";

interface Holder {
  pid: number;
  url?: string;
}

export interface DataDirLock {
  /** Writes the stack's URL into the lock, for the message a second start prints. */
  announce(url: string): Promise<void>;
  /** Removes the lock, if it is still this process's. */
  release(): Promise<void>;
}

function unusable(dataDir: string, error: unknown): ReelayError {
  const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
  return new ReelayError(
    "data_dir_unusable",
    `The data dir ${dataDir} cannot be used (${code}); make it a folder this user may read and write, or ${ELSEWHERE}.`,
    { path: "REELAY_DATA_DIR", cause: error },
  );
}

/** Whether a process with this pid runs (EPERM: it does, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function holderOf(path: string): Promise<Holder | undefined> {
  try {
    const holder = JSON.parse(await readFile(path, "utf8")) as Partial<Holder>;
    return Number.isInteger(holder.pid) && running(holder.pid as number)
      ? (holder as Holder)
      : undefined;
  } catch {
    return undefined; // Gone meanwhile, or half-written by a process that died: stale either way.
  }
}

async function lockOnce(path: string): Promise<"taken" | "held"> {
  try {
    await writeFile(path, `${JSON.stringify({ pid: process.pid })}\n`, { flag: "wx" });
    return "taken";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return "held";
  }
}

/** Makes the data dir if needed and takes its lock, or says who holds it or why it cannot be used. */
export async function claimDataDir(dataDir: string): Promise<DataDirLock> {
  const path = join(dataDir, LOCK_FILE);
  try {
    await mkdir(dataDir, { recursive: true });
    await access(dataDir, constants.R_OK | constants.W_OK | constants.X_OK);
    // Twice at most: the second after removing a stale lock.
    for (let attempt = 0; (await lockOnce(path)) === "held"; attempt++) {
      const holder = await holderOf(path);
      if (holder !== undefined || attempt > 0) throw inUse(dataDir, holder);
      await rm(path, { force: true });
    }
  } catch (error) {
    throw error instanceof ReelayError ? error : unusable(dataDir, error);
  }
  const ours = async () => (await holderOf(path))?.pid === process.pid;
  return {
    announce: (url) => writeFile(path, `${JSON.stringify({ pid: process.pid, url })}\n`),
    release: async () => {
      if (await ours()) await rm(path, { force: true });
    },
  };
}

function inUse(dataDir: string, holder: Holder | undefined): ReelayError {
  const who =
    holder === undefined
      ? "another reelay stack starting at the same time"
      : `the reelay stack at ${holder.url ?? "(still starting)"} (pid ${holder.pid})`;
  return new ReelayError(
    "data_dir_in_use",
    `The data dir ${dataDir} is in use by ${who}; stop that stack first, or ${ELSEWHERE}.`,
    { path: "REELAY_DATA_DIR" },
  );
}
