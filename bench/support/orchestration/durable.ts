/**
 * The Lambda durable functions baseline: the same poller written as durable steps and waits, in
 * one function —
 *
 *   state = step(submit); while running { wait(W s); state = step(poll: one look) };
 *   step(download); step(finish)          (or step(recordFailure))
 *
 * — run by a small checkpoint-and-replay runtime as the durable execution SDK runs it: every
 * invocation starts the handler from the top, answers each operation already checkpointed from
 * the checkpoint log (the replay: the log is read back and parsed, the handler's code re-run up to
 * there), runs the first new step for real, checkpoints its result, and suspends at the next wait;
 * the wait's end invokes the function again. A wait suspends with no compute charge. The steps are
 * reelay's own (the Poll step with no window: one look per call) against the same simulator,
 * stores and virtual clock as the other passes.
 *
 * Counted per job: invocations (1 + one per wait), billed duration of each (the replay and the new
 * step, at their real length; the checkpoint calls to the service cost nothing here, which favours
 * the baseline), durable operations (every step and wait, and the execution's start) and bytes
 * checkpointed (each operation's result, plus a record of OPERATION_RECORD_BYTES).
 */
import type { FlowState } from "@reelay/core/domain";
import { download, finish, poll, recordFailure, submit } from "@reelay/core/usecases";
import type { BenchEnv } from "./run.ts";
import { createMixJob, measureJobs, passDeps, UsageMeter, type JobMeasure } from "./run.ts";
import type { MixJob } from "./mix.ts";

/** An operation's record beside its result (id, type, status, timestamps), as a guess on the low side. */
const OPERATION_RECORD_BYTES = 100;
/**
 * One function does every step, the download's streaming copy included: it gets the copy's memory,
 * 512 MB on arm64, as priced before reelay made previews. Kept so whatever memory reelay's own steps
 * need for ffmpeg: a baseline priced at more would flatter reelay's ratio.
 */
const MEMORY_MB = 512;

export interface DurableMeasure extends JobMeasure {
  operations: number;
  bytesWritten: number;
}

interface DurableUsage {
  invocations: number;
  gbSeconds: number;
  operations: number;
  bytesWritten: number;
}

class Suspended {
  constructor(readonly waitMs: number) {}
}

interface Context {
  step<T>(run: () => Promise<T>): Promise<T>;
  wait(seconds: number): Promise<void>;
}

/** One job's durable execution, invoked until its handler returns. */
async function runDurably(
  env: BenchEnv,
  handler: (ctx: Context) => Promise<void>,
  usage: DurableUsage,
): Promise<void> {
  const log: string[] = [];
  usage.operations += 1; // the execution's start
  for (;;) {
    const started = performance.now();
    const checkpoints = JSON.parse(`[${log.join(",")}]`) as unknown[];
    let cursor = 0;
    const ctx: Context = {
      async step(run) {
        if (cursor < checkpoints.length) return checkpoints[cursor++] as never;
        const result = await run();
        const text = JSON.stringify(result ?? null);
        log.push(text);
        cursor += 1;
        usage.operations += 1;
        usage.bytesWritten += Buffer.byteLength(text) + OPERATION_RECORD_BYTES;
        return result;
      },
      async wait(seconds) {
        if (cursor < checkpoints.length) {
          cursor += 1;
          return;
        }
        log.push("null");
        usage.operations += 1;
        usage.bytesWritten += OPERATION_RECORD_BYTES;
        throw new Suspended(seconds * 1000);
      },
    };
    let suspended: Suspended | undefined;
    try {
      await handler(ctx);
    } catch (error) {
      if (!(error instanceof Suspended)) throw error;
      suspended = error;
    }
    const billedMs = Math.max(1, Math.ceil(performance.now() - started));
    usage.invocations += 1;
    usage.gbSeconds += (billedMs / 1000) * (MEMORY_MB / 1024);
    if (suspended === undefined) return;
    await env.clock.sleep(suspended.waitMs);
  }
}

/** Runs every job of the mix (each at its arrival time) as a durable poller with a `waitS` wait. */
export async function runDurablePass(
  env: BenchEnv,
  jobs: readonly MixJob[],
  waitS: number,
): Promise<DurableMeasure[]> {
  const { clock } = env;
  const deps = passDeps(env, false);
  const meter = new UsageMeter();
  const usages = new Map<string, DurableUsage>();
  const passStart = clock.nowMs();
  const ids: string[] = [];
  const executions: Promise<void>[] = [];
  for (const [index, mixJob] of jobs.entries()) {
    const due = passStart + mixJob.arrivalMs - clock.nowMs();
    if (due > 0) await clock.sleep(due);
    const job = await createMixJob(env, mixJob, index);
    ids.push(job.id);
    const handler = async (ctx: Context) => {
      let state: FlowState = await ctx.step(() => submit(deps, { jobId: job.id }));
      while (state.outcome === "running") {
        await ctx.wait(waitS);
        const looked: FlowState = state;
        state = await ctx.step(() => poll(deps, looked));
      }
      const ended: FlowState = state;
      if (ended.outcome === "succeeded") {
        const downloaded = await ctx.step(() => download(deps, ended));
        await ctx.step(() => finish(deps, downloaded));
      } else await ctx.step(() => recordFailure(deps, ended));
    };
    const usage = { invocations: 0, gbSeconds: 0, operations: 0, bytesWritten: 0 };
    usages.set(job.id, usage);
    executions.push(runDurably(env, handler, usage).catch(() => undefined));
  }
  await Promise.all(executions);
  for (const [jobId, usage] of usages)
    Object.assign(meter.of(jobId), { invocations: usage.invocations, gbSeconds: usage.gbSeconds });
  const measures = await measureJobs(env, ids, meter);
  return measures.map((m) => {
    const { operations, bytesWritten } = usages.get(m.jobId) as DurableUsage;
    return { ...m, operations, bytesWritten };
  });
}
