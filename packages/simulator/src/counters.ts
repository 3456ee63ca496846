import type { MaterialFetch, SimulatorCounters } from "./types.ts";

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

function sum(counts: Record<string, number>): number {
  let total = 0;
  for (const n of Object.values(counts)) total += n;
  return total;
}

/** What happened so far, so tests can assert on side effects (e.g. one paid task per idempotency key). */
export class Counters {
  private c = Counters.empty();

  private static empty(): Omit<
    SimulatorCounters,
    "faultsInjected" | "inFlight" | "inFlightByApiKey"
  > {
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
      limitedByApiKey: {},
      peakInFlight: 0,
      peakInFlightByApiKey: {},
      materialFetches: [],
    };
  }

  /** A create refused by the account limits of `apiKey`. */
  limited(apiKey: string): void {
    this.c.limited++;
    bump(this.c.limitedByApiKey, apiKey);
  }

  /** Tasks in flight per API key right after a create: the peaks can only rise at a create. */
  inFlight(byApiKey: Record<string, number>): void {
    const peaks = this.c.peakInFlightByApiKey;
    for (const [apiKey, count] of Object.entries(byApiKey))
      peaks[apiKey] = Math.max(peaks[apiKey] ?? 0, count);
    this.c.peakInFlight = Math.max(this.c.peakInFlight, sum(byApiKey));
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

  /** A material URL a task's create named, fetched (status null: no answer). */
  materialFetched(fetch: MaterialFetch): void {
    this.c.materialFetches.push(fetch);
  }

  snapshot(
    faultsInjected: Record<string, number>,
    inFlightByApiKey: Record<string, number>,
  ): SimulatorCounters {
    const inFlight = sum(inFlightByApiKey);
    return structuredClone({ ...this.c, faultsInjected, inFlight, inFlightByApiKey });
  }

  clear(): void {
    this.c = Counters.empty();
  }
}
