/**
 * The account limits a real upstream enforces: at most `maxConcurrent` tasks in flight (created and
 * not yet ended) and at most `createRate` creates per second. A create beyond either answers 429
 * with a Retry-After, makes no task and leaves its idempotency key unused, so a later retry of the
 * same create makes the task. The simulator has one account (its API key), so the limits are its.
 */
import type { SimContext } from "./context.ts";
import type { TaskRecord } from "./tasks.ts";

export interface LimitVerdict {
  code: "concurrency_limit" | "rate_limit";
  message: string;
  retryAfterS: number;
}

/**
 * A task that never finishes (the never_finish fault) stops holding a place after this long, as an
 * upstream that gives up on a stuck task would; otherwise a few of them would shrink the account
 * for good. Scaled by the time scale like generation.
 */
const STUCK_TASK_HOLDS_MS = 60_000;

function inFlight(ctx: SimContext, now: number): TaskRecord[] {
  const stuckFor = STUCK_TASK_HOLDS_MS * ctx.opts.timeScale;
  const live: TaskRecord[] = [];
  for (const task of ctx.tasks.values()) {
    const ends = Number.isFinite(task.finishesAt) ? task.finishesAt : task.createdAt + stuckFor;
    if (task.createdAt <= now && now < ends) live.push(task);
  }
  return live;
}

/** Tasks created and not yet ended, now. */
export function tasksInFlight(ctx: SimContext): number {
  return inFlight(ctx, ctx.opts.now()).length;
}

/** Whether a new task may be made now; undefined = yes. Records the create against the rate when it may. */
export function checkLimits(ctx: SimContext): LimitVerdict | undefined {
  const { maxConcurrent, createRate, now } = ctx.opts;
  const at = now();
  if (maxConcurrent !== undefined) {
    const live = inFlight(ctx, at);
    if (live.length >= maxConcurrent) {
      const nextEnd = Math.min(...live.map((task) => task.finishesAt));
      return {
        code: "concurrency_limit",
        message: `At most ${maxConcurrent} tasks may be in flight; retry when one ends.`,
        retryAfterS: Number.isFinite(nextEnd) ? Math.max(1, Math.ceil((nextEnd - at) / 1000)) : 1,
      };
    }
  }
  if (createRate !== undefined) {
    const due = ctx.limits.nextCreateAt;
    if (at < due) {
      return {
        code: "rate_limit",
        message: `At most ${createRate} creates per second.`,
        retryAfterS: Math.max(1, Math.ceil((due - at) / 1000)),
      };
    }
    ctx.limits.nextCreateAt = Math.max(at, due) + 1000 / createRate;
  }
  return undefined;
}
