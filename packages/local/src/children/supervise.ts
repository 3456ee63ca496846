/**
 * A child service kept alive while the stack runs: one that dies (killed, crashed, out of memory)
 * is started again, on the port it had, so the SDK clients keep their endpoint. Calls made while it
 * is down meet a refused connection; the SDK's retries and the state machine's Retry ride that out,
 * so the jobs in flight go on.
 */
import { EventEmitter } from "node:events";
import { setTimeout as pause } from "node:timers/promises";
import type { Logger } from "../log.ts";
import type { ChildEnd, ChildService } from "./service.ts";

/** The first wait before starting a dead child again, doubled per failed attempt up to the cap. */
const RESTART_DELAY_MS = 100;
const RESTART_DELAY_CAP_MS = 5_000;

export interface SupervisedService<T> {
  /** What the first child printed once ready (its port): a restarted child keeps it. */
  ready: T;
  /** Every later line of whichever child is running. */
  lines: EventEmitter<{ line: [unknown] }>;
  /** The running child's pid, and how many times a dead one was started again. */
  readonly pid: number;
  readonly restarts: number;
  /** Ends the running child; a restart under way is let finish, then ended. */
  stop(): Promise<void>;
}

/**
 * Starts the child with `start(undefined)`, and after every death while not stopped calls
 * `start(first ready)` (the child listens where it did) until one is up.
 */
export async function supervise<T>(
  name: string,
  start: (previous: T | undefined) => Promise<ChildService<T>>,
  log: Logger,
  /** The exit code of a child that ended itself to be started again (a recycle), if it has one. */
  recycleExitCode?: number,
): Promise<SupervisedService<T>> {
  let current = await start(undefined);
  const { ready } = current;
  const lines = new EventEmitter<{ line: [unknown] }>();
  let stopping = false;
  let restarts = 0;
  const follow = (child: ChildService<T>) => {
    child.lines.on("line", (line) => lines.emit("line", line));
    void child.ended.then((end) => {
      if (end !== undefined && !stopping) restarting = restart(end);
    });
  };
  const restart = async (end: ChildEnd) => {
    const recycled = "code" in end && end.code === recycleExitCode;
    const how = "code" in end ? `exit code ${end.code}` : `signal ${end.signal}`;
    if (recycled) log.info(`${name} (pid ${current.pid}) recycled itself; starting the next one`);
    else log.error(`${name} (pid ${current.pid}) ended unexpectedly (${how}); starting it again`);
    // A recycled child's successor starts at once; each failed start waits 100 ms, then twice as long.
    for (
      let delay = recycled ? 0 : RESTART_DELAY_MS;
      !stopping;
      delay = Math.min(Math.max(delay * 2, RESTART_DELAY_MS), RESTART_DELAY_CAP_MS)
    ) {
      if (delay > 0) await pause(delay);
      try {
        current = await start(ready);
        restarts += 1;
        follow(current);
        log.info(`${name} is running again (pid ${current.pid})`);
        return;
      } catch (error) {
        log.error(`${name} did not start again; retrying`, error);
      }
    }
  };
  let restarting: Promise<void> = Promise.resolve();
  follow(current);
  return {
    ready,
    lines,
    get pid() {
      return current.pid;
    },
    get restarts() {
      return restarts;
    },
    stop: async () => {
      stopping = true;
      await restarting;
      await current.stop();
    },
  };
}
