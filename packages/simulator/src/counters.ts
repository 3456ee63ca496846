import type { SimulatorCounters } from "./types.ts";

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** What happened so far, so tests can assert on side effects (e.g. one paid task per idempotency key). */
export class Counters {
  private c = Counters.empty();

  private static empty(): Omit<SimulatorCounters, "faultsInjected" | "inFlight"> {
    return {
      requests: 0,
      creates: 0,
      tasksCreated: 0,
      createsByKey: {},
      tasksByKey: {},
      polls: 0,
      pollsByTask: {},
      downloads: 0,
      downloadsByTask: {},
      limited: 0,
      peakInFlight: 0,
    };
  }

  /** A create refused by the account limits. */
  limited(): void {
    this.c.limited++;
  }

  /** Tasks in flight right after a create. */
  inFlight(count: number): void {
    this.c.peakInFlight = Math.max(this.c.peakInFlight, count);
  }

  request(): void {
    this.c.requests++;
  }

  create(key: string | undefined): void {
    this.c.creates++;
    if (key !== undefined) bump(this.c.createsByKey, key);
  }

  taskCreated(key: string | undefined): void {
    this.c.tasksCreated++;
    if (key !== undefined) bump(this.c.tasksByKey, key);
  }

  poll(taskId: string): void {
    this.c.polls++;
    bump(this.c.pollsByTask, taskId);
  }

  download(taskId: string): void {
    this.c.downloads++;
    bump(this.c.downloadsByTask, taskId);
  }

  snapshot(faultsInjected: Record<string, number>, inFlight: number): SimulatorCounters {
    return structuredClone({ ...this.c, faultsInjected, inFlight });
  }

  clear(): void {
    this.c = Counters.empty();
  }
}
