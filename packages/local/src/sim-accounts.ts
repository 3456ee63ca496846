/**
 * A simulated upstream pool (`reelay up --sim-accounts alpha:4,beta:8`): one simulator per account,
 * each with its own URL, API key, cap and task ids, so routing across accounts, one account down
 * or one failing a model can be run on one machine and in tests.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { ReelayError, shownInput } from "@reelay/core/domain";
import { startSimulator, type Simulator } from "@reelay/simulator";

export interface SimAccountSpec {
  name: string;
  /** Tasks in flight at once on this account (the simulator's maxConcurrent). */
  cap: number;
}

export interface SimulatedAccount {
  name: string;
  /** Base URL ending in /v1. */
  url: string;
  apiKey: string;
}

export interface SimulatedAccounts {
  accounts: SimulatedAccount[];
  simulators: Record<string, Simulator>;
  close(): Promise<void>;
}

const FLAG = "--sim-accounts";
const EXAMPLE = "for example alpha:4,beta:8";
const NAME = /^[a-z][a-z0-9-]{0,31}$/;

function invalid(message: string): ReelayError {
  return new ReelayError("invalid_config", `${FLAG} ${message}`, { path: FLAG });
}

function parseOne(part: string): SimAccountSpec {
  const [name = "", cap, ...rest] = part.split(":");
  if (cap === undefined || rest.length > 0)
    throw invalid(`entry ${shownInput(part)} is not name:cap (${EXAMPLE}).`);
  if (!NAME.test(name))
    throw invalid(
      `name ${shownInput(name)} must start with a lowercase letter and have at most 32 of a-z, 0-9 and "-".`,
    );
  const value = Number(cap);
  if (!/^\d+$/.test(cap) || !Number.isSafeInteger(value) || value <= 0)
    throw invalid(`cap of "${name}" must be a positive whole number, got ${shownInput(cap)}.`);
  return { name, cap: value };
}

/**
 * "alpha:4,beta:8" -> the accounts in that order. A bad value throws `invalid_config` (path
 * `--sim-accounts`) with a one-line message naming the part at fault.
 */
export function parseSimAccounts(text: string): SimAccountSpec[] {
  if (text.trim() === "") throw invalid(`needs at least one name:cap (${EXAMPLE}).`);
  const specs: SimAccountSpec[] = [];
  for (const part of text.split(",").map((p) => p.trim())) {
    if (part === "") throw invalid(`has an empty entry in ${shownInput(text)} (${EXAMPLE}).`);
    const spec = parseOne(part);
    if (specs.some((s) => s.name === spec.name))
      throw invalid(`names "${spec.name}" twice; each account needs its own name.`);
    specs.push(spec);
  }
  return specs;
}

/**
 * Starts one simulator per spec: its own random API key, `maxConcurrent` = cap, task ids
 * `<name>_...`, and its own state file under the data dir, so each account remembers its tasks
 * across restarts as a real one would. If one fails to start, those started are closed again.
 */
export async function startSimulatedAccounts(
  specs: SimAccountSpec[],
  opts: { dataDir: string; generationMs: number; timeScale: number; createRate?: number },
): Promise<SimulatedAccounts> {
  const started = await Promise.allSettled(
    specs.map(async (spec) => {
      const apiKey = randomBytes(18).toString("base64url");
      const simulator = await startSimulator({
        apiKey,
        maxConcurrent: spec.cap,
        taskIdPrefix: `${spec.name}_`,
        generationMs: opts.generationMs,
        timeScale: opts.timeScale,
        ...(opts.createRate === undefined ? {} : { createRate: opts.createRate }),
        stateFile: join(opts.dataDir, "simulator", `${spec.name}.jsonl`),
      });
      return { account: { name: spec.name, url: simulator.url, apiKey }, simulator };
    }),
  );
  const running = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const close = async (): Promise<void> => {
    await Promise.all(running.map(({ simulator }) => simulator.close()));
  };
  const failed = started.find((s) => s.status === "rejected");
  if (failed !== undefined) {
    await close();
    throw failed.reason;
  }
  return {
    accounts: running.map(({ account }) => account),
    simulators: Object.fromEntries(
      running.map(({ account, simulator }) => [account.name, simulator]),
    ),
    close,
  };
}
