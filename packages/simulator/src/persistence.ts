/**
 * Optional task persistence: the simulator is the local stack's upstream, and a real upstream does
 * not forget its tasks when reelay restarts. With a state file, every task made is appended (before
 * the create is answered, synchronously, so a SIGKILL right after cannot lose it) and read back at
 * start; status keeps following the stored timestamps. Download URLs are signed anew after a
 * restart, as a real upstream's temporary URLs would be.
 *
 * A task's account (the API key it counts against) is stored only when it is not the simulator's
 * own `apiKey`: that key is a secret that has no place in the file, and the local stack draws a
 * new one at each start while it is still the same account, so its tasks in flight keep counting
 * against the limits after a restart.
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import type { TaskRecord } from "./tasks.ts";

interface StoredTask
  extends Omit<
    TaskRecord,
    "shaCache" | "finishesAt" | "idempotencyKey" | "failReason" | "account"
  > {
  /** null (or absent, in an older file): the simulator's own `apiKey`, or "" without one. */
  account?: string | null;
  /** null for a task that never finishes (JSON has no Infinity). */
  finishesAt: number | null;
  idempotencyKey: string | null;
  failReason: string | null;
  /** The byKey entry, `<route>\n<key>`, when the create carried a key. */
  keyEntry: string | null;
}

export interface TaskJournal {
  append(task: TaskRecord, keyEntry: string | undefined): void;
  /** The file holds these tasks and no others (written aside, then renamed into place). */
  rewrite(tasks: [TaskRecord, string | undefined][]): void;
}

export function loadTasks(
  file: string,
  tasks: Map<string, TaskRecord>,
  byKey: Map<string, string>,
  ownKey: string | undefined,
): void {
  if (!existsSync(file)) return;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    let stored: StoredTask;
    try {
      stored = JSON.parse(line) as StoredTask;
    } catch {
      continue; // a line cut short by a crash mid-write: that create was never answered
    }
    const { keyEntry, ...rest } = stored;
    tasks.set(stored.id, {
      ...rest,
      account: stored.account ?? ownKey ?? "",
      finishesAt: stored.finishesAt ?? Number.POSITIVE_INFINITY,
      idempotencyKey: stored.idempotencyKey ?? undefined,
      failReason: stored.failReason ?? undefined,
      shaCache: new Map(),
    });
    if (keyEntry !== null) byKey.set(keyEntry, stored.id);
  }
}

export function taskJournal(file: string, ownKey: string | undefined): TaskJournal {
  mkdirSync(dirname(file), { recursive: true });
  const line = (task: TaskRecord, keyEntry: string | undefined): string => {
    const { shaCache: _cache, ...rest } = task;
    const stored: StoredTask = {
      ...rest,
      account: task.account === (ownKey ?? "") ? null : task.account,
      finishesAt: Number.isFinite(task.finishesAt) ? task.finishesAt : null,
      idempotencyKey: task.idempotencyKey ?? null,
      failReason: task.failReason ?? null,
      keyEntry: keyEntry ?? null,
    };
    return `${JSON.stringify(stored)}\n`;
  };
  return {
    append(task, keyEntry) {
      appendFileSync(file, line(task, keyEntry));
    },
    rewrite(tasks) {
      writeFileSync(`${file}.tmp`, tasks.map(([task, keyEntry]) => line(task, keyEntry)).join(""));
      renameSync(`${file}.tmp`, file);
    },
  };
}
