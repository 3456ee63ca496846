/**
 * The pool's checks, from the job records (`upstream`, `attempts`) and each simulated
 * account's own account of the tasks it made and was asked about:
 *
 *   duplicate   a job's key made more tasks over the pool than 1 + its recorded fallbacks, or more
 *               than one on one account (a fallback never goes twice to the same account)
 *   unrecorded  a task the upstream made for a job's key that none of its attempts names (paid for,
 *               and not on the record), or a task made under no soak job's key
 *   foreign     a task polled or downloaded on an account that did not make it, or an attempt that
 *               names a task its account did not make (a job not pinned to its account)
 *   leaked      a slot reelay still holds on an account once every job ended (one finding a slot)
 */
import type { AccountEvidence } from "./pool.ts";

interface Finding {
  jobId: string;
  why: string;
}

interface AttemptRecord {
  account: string;
  task_id: string | null;
}

export interface PoolTally {
  accounts: number;
  /** Tasks created, summed over every account. */
  tasks: number;
  /** Jobs with a task on record. */
  jobs: number;
  /** Attempts before the last: failed tasks tried again on another account. */
  fallbacks: number;
}

export interface PoolFindings {
  duplicates: Finding[];
  unrecorded: Finding[];
  foreign: Finding[];
  leaked: Finding[];
  tally: PoolTally;
}

function attemptsOf(record: any): AttemptRecord[] {
  return Array.isArray(record?.attempts) ? (record.attempts as AttemptRecord[]) : [];
}

/** Tries on other accounts after a failed task: every attempt but the current (last) one. */
export function fallbacksOf(record: any): number {
  return Math.max(0, attemptsOf(record).length - 1);
}

export function poolChecks(records: Iterable<any>, accounts: AccountEvidence[]): PoolFindings {
  const found: PoolFindings = {
    duplicates: [],
    unrecorded: [],
    foreign: [],
    leaked: [],
    tally: {
      accounts: accounts.length,
      tasks: accounts.reduce((sum, a) => sum + a.tasksCreated, 0),
      jobs: 0,
      fallbacks: 0,
    },
  };
  const byName = new Map(accounts.map((a) => [a.name, a]));
  const keys = new Set<string>();
  for (const record of records) {
    const key: string = record.idempotencyKey;
    keys.add(key);
    const named = attemptsOf(record).filter((a) => a.task_id !== null);
    if (named.length > 0) found.tally.jobs++;
    found.tally.fallbacks += fallbacksOf(record);
    let made = 0;
    for (const account of accounts) {
      const here = account.tasksByKey[key] ?? 0;
      made += here;
      if (here > 1)
        found.duplicates.push({
          jobId: record.id,
          why: `${here} tasks on ${account.name} for key ${key}`,
        });
    }
    if (made > 1 + fallbacksOf(record))
      found.duplicates.push({
        jobId: record.id,
        why: `${made} tasks over the pool for key ${key}, ${fallbacksOf(record)} fallback(s) recorded`,
      });
    else if (made > named.length)
      found.unrecorded.push({
        jobId: record.id,
        why: `${made} task(s) made for key ${key}, ${named.length} on its record`,
      });
    for (const attempt of named) {
      const account = byName.get(attempt.account);
      if (account === undefined || !account.made(attempt.task_id as string))
        found.foreign.push({
          jobId: record.id,
          why: `its attempt on ${attempt.account} names ${attempt.task_id}, which ${attempt.account} did not make`,
        });
    }
  }
  for (const account of accounts) {
    const strays = Object.entries(account.tasksByKey).filter(([key]) => !keys.has(key));
    const keyed = Object.values(account.tasksByKey).reduce((sum, n) => sum + n, 0);
    if (strays.length > 0 || keyed !== account.tasksCreated)
      found.unrecorded.push({
        jobId: account.name,
        why: `${account.tasksCreated - keyed + strays.reduce((s, [, n]) => s + n, 0)} task(s) on ${account.name} under no soak job's key`,
      });
    const foreign = account.asked.filter((taskId) => !account.made(taskId));
    for (const taskId of foreign)
      found.foreign.push({
        jobId: taskId,
        why: `polled or downloaded on ${account.name}, which did not make it`,
      });
    for (let slot = 1; slot <= account.held; slot++)
      found.leaked.push({
        jobId: account.name,
        why: `slot ${slot} of ${account.held} still held on ${account.name} after every job ended`,
      });
  }
  return found;
}
