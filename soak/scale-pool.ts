/**
 * The pool scale run: one JSONL drop of N prompts into the
 * local stack over simulated accounts (`--sim-accounts`, each its own simulator, key and cap), the
 * limits learned from 429s or set to the caps; optionally one account taken down (connections
 * refused) part of the way through and brought up again. Prints the makespan against the pool's
 * ideal, the 429s per create, each account's share, and for an outage how fast its circuit opened,
 * what the others carried meanwhile and whether its tasks in flight finished there.
 */
import type { SimAccountSpec } from "@reelay/local";
import type { Simulator } from "@reelay/simulator";
import { getJson, startTestStack, type TestStack } from "../test/e2e/support/stack.ts";
import { ApiClient } from "./client.ts";
import { accountEvidence, formatAccounts } from "./pool.ts";
import { poolChecks } from "./pool-verdict.ts";
import { runDroppedBatch } from "./scale-batch.ts";

export interface Outage {
  account: string;
  /** When it goes down, as a share of the ideal makespan after the drop. */
  at: number;
  /** How long it stays down, as a share of the ideal makespan. */
  for: number;
}

export interface PoolScaleOptions {
  accounts: SimAccountSpec[];
  jobs: number;
  taskMs: number;
  timeScale: number;
  /** REELAY's limit per account set to its cap (`concurrency`), not learned. */
  setLimits: boolean;
  down?: Outage;
  log: (line: string) => void;
}

const CIRCUIT_SAMPLE_MS = 200;
/** Targets: makespan against the ideal, and 429s per create with limits learned. */
const MAX_RATIO = 1.2;
const MAX_LEARNED_429_SHARE = 0.1;
/** "Its circuit opens within a few creates": the threshold (3) and a few more sent at once. */
const MAX_REFUSED_BEFORE_OPEN = 6;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface AccountState {
  name: string;
  circuit: string;
  circuitFailures: number;
  held: number;
  limit: number;
  limitSource: string;
}

async function admissionAccounts(stack: TestStack): Promise<AccountState[]> {
  const { status, body } = await getJson(`${stack.url}/v1/admission`, stack.apiKey);
  if (status !== 200) throw new Error(`GET /v1/admission answered ${status}`);
  return body.accounts as AccountState[];
}

interface OutageSeen {
  downAt: number;
  upAt: number;
  /** Ms from going down to the first sample with its circuit open; undefined if never seen open. */
  openedAfterMs: number | undefined;
  /** Consecutive failed creates on its circuit when first seen open (the creates it refused). */
  failuresAtOpen: number | undefined;
  /** The most consecutive failed creates seen during the outage. */
  failuresMost: number;
}

/** Takes the account down at its time, watches its circuit every 200 ms, and brings it up again. */
async function runOutage(
  stack: TestStack,
  simulator: Simulator,
  outage: Outage,
  dropAt: number,
  idealMs: number,
): Promise<OutageSeen> {
  await sleep(Math.max(0, dropAt + outage.at * idealMs - Date.now()));
  await simulator.down();
  const downAt = Date.now();
  const until = downAt + outage.for * idealMs;
  const seen: OutageSeen = {
    downAt,
    upAt: until,
    openedAfterMs: undefined,
    failuresAtOpen: undefined,
    failuresMost: 0,
  };
  while (Date.now() < until) {
    const state = (await admissionAccounts(stack)).find((a) => a.name === outage.account);
    if (state !== undefined) {
      seen.failuresMost = Math.max(seen.failuresMost, state.circuitFailures);
      if (state.circuit === "open" && seen.openedAfterMs === undefined) {
        seen.openedAfterMs = Date.now() - downAt;
        seen.failuresAtOpen = state.circuitFailures;
      }
    }
    await sleep(CIRCUIT_SAMPLE_MS);
  }
  await simulator.up();
  seen.upAt = Date.now();
  return seen;
}

/** Slots held per account once the batch is done, after the releases have had a moment. */
async function heldAtEnd(stack: TestStack): Promise<Record<string, number>> {
  let accounts: AccountState[] = [];
  for (let tries = 0; tries < 5; tries++) {
    accounts = await admissionAccounts(stack);
    if (accounts.every((a) => a.held === 0)) break;
    await sleep(1_000);
  }
  return Object.fromEntries(accounts.map((a) => [a.name, a.held]));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs the batch and prints its figures; resolves true when every target was met. */
export async function runPoolScale(o: PoolScaleOptions): Promise<boolean> {
  const sumCaps = o.accounts.reduce((sum, a) => sum + a.cap, 0);
  const idealMs = Math.ceil(o.jobs / sumCaps) * o.taskMs * o.timeScale;
  const downSim = o.down?.account;
  if (downSim !== undefined && !o.accounts.some((a) => a.name === downSim))
    throw new Error(`--down names ${downSim}, which is not one of ${formatAccounts(o.accounts)}`);
  const stack = await startTestStack(
    {},
    {
      accounts: o.accounts,
      setLimits: o.setLimits,
      generationMs: o.taskMs,
      timeScale: o.timeScale,
    },
  );
  try {
    const simulators = stack.simulators as Record<string, Simulator>;
    const dropAt = Date.now();
    const outage =
      o.down === undefined
        ? undefined
        : runOutage(stack, simulators[o.down.account] as Simulator, o.down, dropAt, idealMs);
    const batch = await runDroppedBatch(stack, o.jobs);
    const seen = await outage;
    const jobs = await new ApiClient(stack.url, stack.apiKey).listJobs();
    const evidence = accountEvidence({ specs: o.accounts, simulators }, await heldAtEnd(stack));
    const pool = poolChecks(jobs, evidence);
    const states = await admissionAccounts(stack);

    const creates = evidence.reduce((sum, a) => sum + a.creates, 0);
    const limited = evidence.reduce((sum, a) => sum + a.limited, 0);
    const share = creates === 0 ? 0 : limited / creates;
    const ratio = (batch.seconds * 1000) / idealMs;
    const succeeded = batch.counts.succeeded ?? 0;
    const failed = o.jobs - succeeded;
    const limits = o.setLimits ? "limits set to the caps" : "limits learned";
    o.log(
      `scale: ${o.jobs} jobs (one drop) over ${formatAccounts(o.accounts)} (pool cap ${sumCaps}), ${o.taskMs / 1000} s tasks x${o.timeScale}, ${limits}` +
        `${o.down === undefined ? "" : `, ${o.down.account} down at ${o.down.at} of the ideal for ${o.down.for} of it`}: ` +
        `${succeeded} succeeded, ${failed} failed in ${batch.seconds.toFixed(1)} s, ideal ${seconds(idealMs)} (ceil(${o.jobs}/${sumCaps}) x ${(o.taskMs * o.timeScale) / 1000} s), ratio ${ratio.toFixed(2)}; ` +
        `${limited} 429s of ${creates} creates (${(100 * share).toFixed(1)}%); ` +
        `${pool.tally.tasks} tasks ${pool.tally.tasks === pool.tally.jobs + pool.tally.fallbacks ? "=" : "!="} ${pool.tally.jobs} jobs + ${pool.tally.fallbacks} fallbacks, ` +
        `${pool.duplicates.length} duplicate, ${pool.unrecorded.length} unrecorded, ${pool.foreign.length} foreign polls, ${pool.leaked.length} slots held at the end`,
    );
    let peakOver = false;
    for (const a of evidence) {
      const state = states.find((s) => s.name === a.name);
      if (a.peakInFlight > a.cap) peakOver = true;
      o.log(
        `scale:   ${a.name} (cap ${a.cap}): ${a.tasksCreated} tasks (${((100 * a.tasksCreated) / Math.max(1, pool.tally.tasks)).toFixed(0)}%), ${a.creates} creates, ${a.limited} 429s, peak ${a.peakInFlight} in flight, limit ${state?.limit ?? "?"} (${state?.limitSource ?? "?"})`,
      );
    }
    for (const f of [...pool.duplicates, ...pool.unrecorded, ...pool.foreign, ...pool.leaked].slice(
      0,
      20,
    ))
      o.log(`scale: finding: ${f.jobId}: ${f.why}`);

    let outageOk = true;
    if (o.down !== undefined && seen !== undefined) {
      const down = o.down.account;
      const sim = simulators[down] as Simulator;
      // In flight from reelay's side: made on the down account before it went down, its end not yet seen.
      const inFlight = jobs.filter((job) => {
        const task = job.upstream?.account === down ? sim.task(job.upstream.task_id) : undefined;
        const doneAt = Date.parse(job.timings?.upstreamDoneAt ?? "") || Number.POSITIVE_INFINITY;
        return task !== undefined && task.createdAt < seen.downAt && doneAt > seen.downAt;
      });
      const finishedThere = inFlight.filter(
        (job) =>
          job.status === "succeeded" &&
          job.attempts.length === 1 &&
          Date.parse(job.timings?.upstreamDoneAt ?? "") >= seen.upAt,
      );
      const carried = jobs.filter((job) => {
        const account = job.upstream?.account;
        const task =
          account === undefined || account === down
            ? undefined
            : simulators[account]?.task(job.upstream.task_id);
        return task !== undefined && task.createdAt >= seen.downAt && task.createdAt < seen.upAt;
      }).length;
      o.log(
        `scale: ${down} down ${seconds(seen.downAt - dropAt)} after the drop for ${seconds(seen.upAt - seen.downAt)} (connections refused): ` +
          (seen.failuresMost === 0
            ? "no create went there while it was down (its slots all held by its tasks in flight), so its circuit stayed closed; "
            : seen.openedAfterMs === undefined
              ? `its circuit was never seen open (${seen.failuresMost} consecutive failed creates at most); `
              : `its circuit opened ${seconds(seen.openedAfterMs)} after, on ${seen.failuresAtOpen} refused creates (${seen.failuresMost} consecutive at most during the outage); `) +
          `the others made ${carried} tasks meanwhile; ${inFlight.length} of its tasks were in flight: ${finishedThere.length} finished there once it was back` +
          ` (${inFlight.length - finishedThere.length} otherwise: ${inFlight
            .filter((job) => !finishedThere.includes(job))
            .slice(0, 5)
            .map((job) => `${job.id} ${job.status}`)
            .join(", ")})`,
      );
      // A create refused there must open its circuit within a few (no create sent there is fine).
      const circuitOk =
        seen.failuresMost === 0 ||
        (seen.failuresAtOpen !== undefined && seen.failuresAtOpen <= MAX_REFUSED_BEFORE_OPEN);
      outageOk = circuitOk && finishedThere.length === inFlight.length && carried > 0;
    }

    const shareOk = o.setLimits ? limited === 0 : share <= MAX_LEARNED_429_SHARE;
    const ratioOk = o.down !== undefined || ratio <= MAX_RATIO;
    const clean =
      pool.duplicates.length + pool.unrecorded.length + pool.foreign.length + pool.leaked.length ===
      0;
    const ok = failed === 0 && shareOk && ratioOk && clean && !peakOver && outageOk;
    if (!ok)
      o.log(
        `scale: MISSED: ${[
          failed === 0 ? "" : `${failed} failed`,
          shareOk
            ? ""
            : `429s ${(100 * share).toFixed(1)}% (target ${o.setLimits ? "0" : `<= ${100 * MAX_LEARNED_429_SHARE}%`})`,
          ratioOk ? "" : `ratio ${ratio.toFixed(2)} > ${MAX_RATIO}`,
          clean ? "" : "duplicate, unrecorded or foreign tasks, or slots held",
          peakOver ? "an account saw more in flight than its cap" : "",
          outageOk ? "" : "the outage's circuit, carry-over or in-flight tasks",
        ]
          .filter(Boolean)
          .join("; ")}`,
      );
    return ok;
  } finally {
    await stack.dispose();
  }
}
