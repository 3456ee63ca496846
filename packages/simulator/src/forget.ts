/**
 * A real upstream keeps a finished task's answer for a while, not for good. The simulator, the local
 * stack's upstream for months on end, forgets a task once it ended `forgetAfterMs` ago (24 hours
 * unless set): out of memory, out of the idempotency keys, and out of the state file, which is
 * written again without it. A reelay job polls its task within minutes of its end, so only a job
 * left unfinished for a day (a stack stopped that long) meets a forgotten task, as it would meet an
 * expired one upstream.
 */
import type { SimContext } from "./context.ts";

export const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;
/** A create looks for tasks to forget at most this often: the look reads every task. */
const FORGET_EVERY_MS = 60_000;

/** Forgets every task that ended before now minus `forgetAfterMs`; returns how many. */
export function forgetEnded(ctx: SimContext): number {
  const now = ctx.opts.now();
  ctx.forgottenAt = now;
  const horizon = now - ctx.opts.forgetAfterMs;
  let forgotten = 0;
  for (const [id, task] of ctx.tasks) {
    if (task.finishesAt >= horizon) continue;
    ctx.tasks.delete(id);
    forgotten++;
  }
  if (forgotten === 0) return 0;
  const keyOf = new Map<string, string>();
  for (const [entry, id] of ctx.byKey) {
    if (ctx.tasks.has(id)) keyOf.set(id, entry);
    else ctx.byKey.delete(entry);
  }
  ctx.journal?.rewrite([...ctx.tasks.values()].map((task) => [task, keyOf.get(task.id)]));
  return forgotten;
}

/** forgetEnded, unless it ran within the last minute (of the simulator's clock). */
export function forgetEndedNow(ctx: SimContext): void {
  if (ctx.forgottenAt !== undefined && ctx.opts.now() - ctx.forgottenAt < FORGET_EVERY_MS) return;
  forgetEnded(ctx);
}
