/**
 * `npm run scale -- [--jobs 300] [--cap 20] [--task-s 20] [--concurrency N] [--time-scale 1]`:
 * The scale run. One JSONL drop of N prompts into the local stack's inbox, against the
 * bundled simulator allowing `cap` tasks in flight per API key with tasks of `task-s` seconds, the
 * admission limit learned (or REELAY_UPSTREAM_CONCURRENCY=--concurrency). Prints one line: the
 * batch's time against the cap's ideal, the 429s per create and the peak in flight. Exit 1 when a
 * job did not succeed, the upstream saw more than the cap, or 429s exceeded 10% of creates (0 when
 * configured); the time ratio is printed, not judged (the machine is shared).
 *
 * `npm run scale -- --accounts alpha:4,beta:8,gamma:12 [--jobs 480] [--set-limits] [--down beta@0.33]
 * [--down-for 0.25] [--time-scale 1]`: the pool run (scale-pool.ts), over simulated
 * accounts. Exit 1 when a job failed, the makespan passed 1.2x the pool's ideal (not judged with
 * --down), 429s passed 10% of creates (learned) or any came (--set-limits), a job made two tasks
 * or was asked about on another account, or the downed account's circuit never opened, the others
 * carried nothing meanwhile, or one of its tasks in flight did not finish there.
 */
import { parseArgs } from "node:util";
import { parseSimAccounts } from "@reelay/local";
import { startTestStack } from "../test/e2e/support/stack.ts";
import { runDroppedBatch } from "./scale-batch.ts";
import { type Outage, runPoolScale } from "./scale-pool.ts";

const { values } = parseArgs({
  options: {
    jobs: { type: "string" },
    cap: { type: "string", default: "20" },
    "task-s": { type: "string", default: "20" },
    concurrency: { type: "string" },
    "time-scale": { type: "string" },
    accounts: { type: "string" },
    "set-limits": { type: "boolean" },
    down: { type: "string" },
    "down-for": { type: "string", default: "0.25" },
  },
});
const pool = values.accounts !== undefined;
const jobs = Number(values.jobs ?? (pool ? "480" : "300"));
const cap = Number(values.cap);
const taskMs = Number(values["task-s"]) * 1000;
// Not compressed by default: reelay polls every 2-5 s whatever the simulator's time scale, so at
// 0.5 noticing each end weighs twice as much and the learned limits probe twice as often per task
// (480 jobs, one account capped 24, at 0.5: ratio 1.18 and 10.1% 429s; the pool at 1: 1.18, 3.0%).
const timeScale = Number(values["time-scale"] ?? "1");
const downFor = Number(values["down-for"]);
for (const [name, n] of Object.entries({ jobs, cap, taskMs, timeScale, downFor })) {
  if (!(n > 0)) {
    console.error(`scale: ${name} must be a positive number`);
    process.exit(2);
  }
}

/** `--down beta@0.33`: that account goes down a third of the ideal makespan after the drop. */
function outageOf(raw: string | undefined): Outage | undefined {
  if (raw === undefined) return undefined;
  const match = /^([a-z][a-z0-9-]*)@(0?\.\d+|[01](\.\d+)?)$/.exec(raw.trim());
  if (match === null) {
    console.error(`scale: --down takes NAME@SHARE (for example beta@0.33), got "${raw}"`);
    process.exit(2);
  }
  return { account: match[1] as string, at: Number(match[2]), for: downFor };
}

if (pool) {
  let accounts: ReturnType<typeof parseSimAccounts>;
  try {
    accounts = parseSimAccounts(values.accounts as string);
  } catch (error) {
    console.error(`scale: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  const down = outageOf(values.down);
  const ok = await runPoolScale({
    accounts,
    jobs,
    taskMs,
    timeScale,
    setLimits: values["set-limits"] === true,
    ...(down === undefined ? {} : { down }),
    log: (line) => console.log(line),
  });
  process.exitCode = ok ? 0 : 1;
} else {
  const env: Record<string, string> =
    values.concurrency === undefined ? {} : { REELAY_UPSTREAM_CONCURRENCY: values.concurrency };
  const stack = await startTestStack(env, { maxConcurrent: cap, generationMs: taskMs, timeScale });
  try {
    const batch = await runDroppedBatch(stack, jobs);
    const idealS = (Math.ceil(jobs / cap) * taskMs * timeScale) / 1000;
    const c = stack.simulator!.counters();
    const share = c.limited / c.creates;
    const succeeded = batch.counts.succeeded ?? 0;
    console.log(
      `scale: ${jobs} jobs (one drop), cap ${cap}, ${taskMs / 1000} s tasks x${timeScale}, limit ${values.concurrency ?? "learned"}: ` +
        `${succeeded} succeeded in ${batch.seconds.toFixed(1)} s, ideal ${idealS} s, ratio ${(batch.seconds / idealS).toFixed(2)}; ` +
        `${c.limited} 429s of ${c.creates} creates (${(100 * share).toFixed(1)}%); peak ${c.peakInFlight} in flight`,
    );
    const allowed = values.concurrency === undefined ? 0.1 : 0;
    process.exitCode = succeeded === jobs && c.peakInFlight <= cap && share <= allowed ? 0 : 1;
  } finally {
    await stack.dispose();
  }
}
