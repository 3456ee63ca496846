/**
 * A clock that moves only when the test moves it, for the local stack's `clock` option: a pause
 * taken on it ends when the test has moved the clock past its end. The test moves it only while
 * every job it waits on is paused (`whenAllPaused`), so what a job sees (how many looks, at which
 * times) depends on the order of events on this clock, not on how busy the machine is.
 */
import { setTimeout as pause } from "node:timers/promises";

interface Pending {
  at: number;
  end: () => void;
}

export class SteppedClock {
  #nowMs: number;
  readonly #pending = new Set<Pending>();
  /** Moves each time a pause starts or ends, so a reading can tell whether anything moved meanwhile. */
  #changes = 0;

  constructor(startMs: number) {
    this.#nowMs = startMs;
  }

  readonly nowMs = (): number => this.#nowMs;
  readonly now = (): Date => new Date(this.#nowMs);

  /** Ends when the clock passes now + ms, or rejects with `signal`'s reason once it is aborted. */
  readonly sleep = (ms: number, signal: AbortSignal): Promise<void> => {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const settle = (done: () => void) => {
        this.#pending.delete(pending);
        this.#changes += 1;
        signal.removeEventListener("abort", onAbort);
        done();
      };
      const pending: Pending = { at: this.#nowMs + ms, end: () => settle(resolve) };
      const onAbort = () => settle(() => reject(signal.reason));
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.add(pending);
      this.#changes += 1;
    });
  };

  /** Moves to the earliest pause's end and ends every pause due then; false when none is pending. */
  #step(): boolean {
    if (this.#pending.size === 0) return false;
    this.#nowMs = Math.min(...[...this.#pending].map((p) => p.at));
    for (const pending of [...this.#pending]) if (pending.at <= this.#nowMs) pending.end();
    return true;
  }

  /**
   * Runs until `done` answers a value: whenever the `busy` jobs (those not yet ended) are all
   * paused on this clock, and nothing started or ended a pause while that was read, the clock moves
   * to the next pause's end. Otherwise it looks again after a few real milliseconds. The timeout
   * only stops a run that went wrong: a loaded machine makes each step slower, not different.
   */
  async runUntil<T>(
    what: string,
    probe: () => Promise<{ busy: number; done?: T }>,
    timeoutMs = 240_000,
  ): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const before = this.#changes;
      const paused = this.#pending.size;
      const { busy, done } = await probe();
      if (done !== undefined) return done;
      if (Date.now() > until)
        throw new Error(`timed out waiting for ${what} (${busy} busy, ${paused} paused)`);
      const settled = busy === paused && before === this.#changes;
      if (!(settled && this.#step())) await pause(5);
    }
  }
}
