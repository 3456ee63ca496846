/**
 * The account limits a real upstream enforces: at most `maxConcurrent` tasks in flight (created and
 * not yet ended) and at most `createRate` creates per second. A create beyond either answers 429
 * with a Retry-After, makes no task and leaves its idempotency key unused, so a later retry of the
 * same create makes the task. The limits are per account, as a real upstream's are, and the
 * account is the API key the create carried (its bearer token): without `apiKey` the simulator
 * takes any token, so tests and the soak can run several accounts against one simulator.
 */
import type { IncomingMessage } from "node:http";
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

/** The account a request belongs to: its bearer token, "" when it carries none. */
export function accountOf(req: IncomingMessage): string {
  const auth = req.headers.authorization ?? "";
  return auth.startsWith("Bearer ") ? auth.slice("Bearer ".length) : auth;
}

/** When a task stops holding a place: when it ends, or for a stuck one, when it is given up. */
function endOf(ctx: SimContext, task: TaskRecord): number {
  if (Number.isFinite(task.finishesAt)) return task.finishesAt;
  return task.createdAt + STUCK_TASK_HOLDS_MS * ctx.opts.timeScale;
}

function holdsPlace(ctx: SimContext, task: TaskRecord, now: number): boolean {
  return task.createdAt <= now && now < endOf(ctx, task);
}

/** When each task of `account` in flight at `now` stops holding its place. */
function inFlightEnds(ctx: SimContext, account: string, now: number): number[] {
  const ends: number[] = [];
  for (const task of ctx.tasks.values())
    if (task.account === account && holdsPlace(ctx, task, now)) ends.push(endOf(ctx, task));
  return ends;
}

/** Tasks created and not yet ended at `now`, per account; accounts with none are left out. */
export function inFlightByApiKey(ctx: SimContext, now = ctx.opts.now()): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const task of ctx.tasks.values())
    if (holdsPlace(ctx, task, now)) counts[task.account] = (counts[task.account] ?? 0) + 1;
  return counts;
}

/** Seconds until `at` is reached from `now`, as a Retry-After: a whole number, at least 1. */
function retryAfterS(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/**
 * Whether `account` may make a new task now; undefined = yes. Records the create against the
 * account's rate when it may, so a refused create never uses up the rate.
 */
export function checkLimits(ctx: SimContext, account: string): LimitVerdict | undefined {
  const { maxConcurrent, createRate, now } = ctx.opts;
  const at = now();
  if (maxConcurrent !== undefined) {
    const ends = inFlightEnds(ctx, account, at);
    if (ends.length >= maxConcurrent) {
      return {
        code: "concurrency_limit",
        message: `At most ${maxConcurrent} tasks may be in flight per API key; retry when one ends.`,
        // The earliest end frees a place; with maxConcurrent 0 nothing ever does, so 1 s.
        retryAfterS: ends.length === 0 ? 1 : retryAfterS(Math.min(...ends), at),
      };
    }
  }
  if (createRate !== undefined) {
    const due = ctx.limits.nextCreateAt.get(account) ?? 0;
    if (at < due) {
      return {
        code: "rate_limit",
        message: `At most ${createRate} creates per second per API key.`,
        retryAfterS: retryAfterS(due, at),
      };
    }
    ctx.limits.nextCreateAt.set(account, at + 1000 / createRate);
  }
  return undefined;
}
