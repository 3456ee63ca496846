/**
 * The soak over a pool of simulated accounts (`--accounts 3` or `--accounts alpha:4,beta:8`): one
 * simulator per account, each with its own key, cap and `<name>_` task ids, run in the soak's own
 * process so their counters span every life of the stack that is killed and started again, as a
 * real upstream outlives a crash of reelay. The stack reaches them through REELAY_UPSTREAMS.
 */
import { type SimAccountSpec, parseSimAccounts, startSimulatedAccounts } from "@reelay/local";
import type { FaultRule, Simulator, SimulatorCounters } from "@reelay/simulator";
import { MixError } from "./faults.ts";

/** Names for `--accounts N`, in order. */
const NAMES = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];
/** What `--accounts N` shares out when no --capacity is given. */
export const DEFAULT_POOL_CAPACITY = 12;

/**
 * `--accounts`: a count N (caps 1 : 2 : ... : N of `capacity`, each at least 1, so the accounts
 * differ as real ones do and sum to about `capacity`) or `name:cap,...` as `reelay up --sim-accounts`.
 */
export function parseAccounts(raw: string, capacity = DEFAULT_POOL_CAPACITY): SimAccountSpec[] {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) {
    try {
      return parseSimAccounts(text);
    } catch (error) {
      throw new MixError(
        `--accounts: ${error instanceof Error ? error.message : String(error)}`.replace(
          "--accounts: --sim-accounts ",
          "--accounts ",
        ),
      );
    }
  }
  const n = Number(text);
  if (n < 1 || n > NAMES.length)
    throw new MixError(`--accounts takes 1 to ${NAMES.length} accounts, got ${text}.`);
  const shares = (n * (n + 1)) / 2;
  return NAMES.slice(0, n).map((name, i) => ({
    name,
    cap: Math.max(1, Math.round((capacity * (i + 1)) / shares)),
  }));
}

export function formatAccounts(specs: SimAccountSpec[]): string {
  return specs.map((s) => `${s.name}:${s.cap}`).join(", ");
}

export interface SoakPool {
  specs: SimAccountSpec[];
  /** REELAY_UPSTREAMS for the stack: every account's URL and key. */
  upstreams: string;
  simulators: Record<string, Simulator>;
  /** The simulator whose task this is (by its `<name>_` prefix); undefined for no account's. */
  owner(taskId: string): Simulator | undefined;
  /** Every account's counters added up (maps merged by key). */
  counters(): SimulatorCounters;
  close(): Promise<void>;
}

/** Starts one simulator per account under the soak's fault rules; state files under `dataDir`. */
export async function startSoakPool(
  specs: SimAccountSpec[],
  opts: { dataDir: string; faults: FaultRule[] },
): Promise<SoakPool> {
  const started = await startSimulatedAccounts(specs, {
    dataDir: opts.dataDir,
    generationMs: 2_000,
    timeScale: 1,
  });
  for (const simulator of Object.values(started.simulators)) simulator.setFaults(opts.faults);
  const upstreams = JSON.stringify(
    started.accounts.map(({ name, url, apiKey }) => ({ name, url, api_key: apiKey })),
  );
  return {
    specs,
    upstreams,
    simulators: started.simulators,
    owner: (taskId) =>
      Object.entries(started.simulators).find(([name]) => taskId.startsWith(`${name}_`))?.[1],
    counters: () => sumCounters(Object.values(started.simulators).map((s) => s.counters())),
    close: started.close,
  };
}

function addInto(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
}

/** Counters of several accounts as one: counts added, maps merged by key, peaks added (an upper bound). */
function sumCounters(list: SimulatorCounters[]): SimulatorCounters {
  const total = structuredClone(list[0]) as SimulatorCounters;
  for (const c of list.slice(1)) {
    for (const key of [
      "requests",
      "creates",
      "tasksCreated",
      "polls",
      "downloads",
      "limited",
      "peakInFlight",
      "inFlight",
    ] as const)
      total[key] += c[key];
    for (const key of [
      "createsByKey",
      "tasksByKey",
      "pollsByTask",
      "downloadsByTask",
      "faultsInjected",
      "limitedByApiKey",
      "peakInFlightByApiKey",
      "inFlightByApiKey",
    ] as const)
      addInto(total[key], c[key]);
  }
  return total;
}

/** What each account saw, for the pool's checks (verify.ts). */
export interface AccountEvidence {
  name: string;
  cap: number;
  tasksCreated: number;
  /** Tasks this account made, by idempotency key. */
  tasksByKey: Record<string, number>;
  /** Every task id this account was polled or downloaded for. */
  asked: string[];
  /** Whether this account made the task. */
  made(taskId: string): boolean;
  /** Slots reelay still holds on this account (GET /v1/admission `accounts[].held`). */
  held: number;
  peakInFlight: number;
  limited: number;
  creates: number;
}

export function accountEvidence(
  pool: Pick<SoakPool, "specs" | "simulators">,
  heldByAccount: Record<string, number>,
): AccountEvidence[] {
  return pool.specs.map(({ name, cap }) => {
    const simulator = pool.simulators[name] as Simulator;
    const c = simulator.counters();
    return {
      name,
      cap,
      tasksCreated: c.tasksCreated,
      tasksByKey: c.tasksByKey,
      asked: [...new Set([...Object.keys(c.pollsByTask), ...Object.keys(c.downloadsByTask)])],
      made: (taskId) => taskId.startsWith(`${name}_`) && simulator.task(taskId) !== undefined,
      held: heldByAccount[name] ?? 0,
      peakInFlight: c.peakInFlight,
      limited: c.limited,
      creates: c.creates,
    };
  });
}
