/**
 * Virtual time for a time-scaled run: one virtual second passes in `scale` real seconds. The
 * simulator, the job store, the pipeline steps and the interpreter's Waits (waitScale = scale) all
 * read this clock, so a 6-minute generation and its polling are measured in virtual seconds
 * consistently while the bench takes a fraction of that. Real work (requests, the interpreter)
 * takes virtual time too, stretched by 1/scale: a busy machine makes every flow look slower.
 */
import { setTimeout as pause } from "node:timers/promises";

export class VirtualClock {
  readonly scale: number;
  readonly #realAt = performance.now();
  readonly #virtualAt = Date.now();

  constructor(scale: number) {
    if (!(scale > 0)) throw new Error(`The time scale must be positive, got ${scale}.`);
    this.scale = scale;
  }

  /** Virtual epoch milliseconds. */
  readonly nowMs = (): number => this.#virtualAt + (performance.now() - this.#realAt) / this.scale;

  readonly now = (): Date => new Date(this.nowMs());

  /** Waits `ms` virtual milliseconds. */
  readonly sleep = (ms: number): Promise<void> => pause(Math.max(0, ms) * this.scale);
}
