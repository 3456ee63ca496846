/**
 * Batches at scale: a batch ten times larger than what
 * the upstream allows in flight, queued behind reelay's admission control with the limit learned
 * from 429s, against the same jobs started at once on an upstream with no cap (what each job costs
 * when nothing waits) and against the same jobs started at once on the capped upstream with no
 * admission control (every job fighting for a slot with retries, as before admission existed).
 * Same interpreter, steps, clock and meters as the orchestration figure; the Dispatch function's
 * invocations and GB-s are shared out over the batch's jobs.
 */
import { synthJobFlowDefinition } from "@reelay/flow/synth-definition";
import type { BenchContext, Figure } from "../support/figure.ts";
import { runBatchPass } from "../support/orchestration/batch.ts";
import type { MixJob } from "../support/orchestration/mix.ts";
import { type JobMeasure, runPass, startEnv } from "../support/orchestration/run.ts";

/** Real seconds per virtual second, as in the orchestration figure. */
const TIME_SCALE = 0.12;
const CAP = 5;
const JOBS = 10 * CAP;
const GENERATION_MS = 20_000;

const mean = (measures: JobMeasure[], pick: (m: JobMeasure) => number): number =>
  measures.reduce((sum, m) => sum + pick(m), 0) / measures.length;

function batchJobs(): MixJob[] {
  return Array.from({ length: JOBS }, () => ({
    model: "os-2",
    durationSec: 4,
    meanMs: GENERATION_MS,
    generationMs: GENERATION_MS,
    arrivalMs: 0,
  }));
}

export async function figures(ctx: BenchContext): Promise<Figure[]> {
  const env = await startEnv(ctx.tmpDir, TIME_SCALE);
  try {
    const definition = synthJobFlowDefinition();
    const jobs = batchJobs();
    const succeeded = (measures: JobMeasure[]) =>
      measures.filter((m) => m.status === "succeeded").length;

    // Warm-up: reelay learns the model's generation time, as the orchestration figure's does.
    await runPass(env, { definition, reelay: true, jobs });
    const unqueued = await runPass(env, { definition, reelay: true, jobs });
    ctx.log(`unqueued (no cap): ${succeeded(unqueued)}/${JOBS} succeeded`);

    env.sim.setOptions({ maxConcurrent: CAP });
    env.sim.reset();
    const queued = await runBatchPass(env, { definition, jobs });
    const capped = env.sim.counters();
    ctx.log(
      `queued (cap ${CAP}, learned): ${succeeded(queued.measures)}/${JOBS} succeeded in ${(queued.elapsedMs / 1000).toFixed(0)} s virtual, ${queued.executions} executions, ${queued.dispatchInvocations} dispatch runs, ${capped.limited} 429s of ${capped.creates} creates, peak ${capped.peakInFlight} in flight`,
    );
    if (succeeded(queued.measures) !== JOBS)
      throw new Error(`queued: ${JOBS - succeeded(queued.measures)} job(s) did not succeed`);

    env.sim.reset();
    const fighting = await runPass(env, { definition, reelay: true, jobs });
    const unadmitted = env.sim.counters();
    ctx.log(
      `no admission control (cap ${CAP}): ${succeeded(fighting)}/${JOBS} succeeded, ${unadmitted.limited} 429s of ${unadmitted.creates} creates`,
    );

    const idealMs = Math.ceil(JOBS / CAP) * GENERATION_MS;
    const perJob = (x: number) => x / JOBS;
    const queuedGbS = mean(queued.measures, (m) => m.gbSeconds) + perJob(queued.dispatchGbSeconds);
    const batch = `a batch of ${JOBS} ${GENERATION_MS / 1000} s tasks, upstream cap ${CAP}, limit learned; time scale ${TIME_SCALE}`;
    return [
      {
        name: "batch 10x the cap: state transitions per job",
        value: mean(queued.measures, (m) => m.transitions),
        unit: "transitions",
        baselineName: "the same jobs with no queueing",
        baseline: mean(unqueued, (m) => m.transitions),
        target: { on: "ratio", atMost: 1.2 },
        note: `${queued.executions - JOBS} requeued executions; ${batch}`,
      },
      {
        name: "batch 10x the cap: Lambda GB-s per job",
        value: queuedGbS,
        unit: "GB-s",
        baselineName: "the same jobs with no queueing",
        baseline: mean(unqueued, (m) => m.gbSeconds),
        target: { on: "ratio", atMost: 1.2 },
        note: `dispatch ${perJob(queued.dispatchInvocations).toFixed(2)} invocations and ${perJob(queued.dispatchGbSeconds).toFixed(4)} GB-s per job included`,
      },
      {
        name: "batch time against the cap's ideal (1/goodput)",
        value: queued.elapsedMs / 1000,
        unit: "s",
        baselineName: `ceil(${JOBS}/${CAP}) x ${GENERATION_MS / 1000} s`,
        baseline: idealMs / 1000,
        target: { on: "ratio", atMost: 1 / 0.83 },
        note: `goodput ${(idealMs / queued.elapsedMs).toFixed(2)}; virtual time`,
      },
      {
        name: "upstream 429s per create, learned limit",
        value: capped.limited / capped.creates,
        unit: "429s/create",
        baselineName: "every job started at once, no admission control",
        baseline: unadmitted.limited / unadmitted.creates,
        target: { on: "value", atMost: 0.1 },
        note: `${capped.limited} of ${capped.creates} creates; without admission ${unadmitted.limited} of ${unadmitted.creates}, ${succeeded(fighting)}/${JOBS} succeeded`,
      },
    ];
  } finally {
    await env.close();
  }
}
