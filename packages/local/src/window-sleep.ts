/**
 * The Poll window's pauses on the local stack: every job in a window sleeps on one shared signal,
 * so stopping the stack cuts them all short and a shutdown never waits out a window.
 */
import { setMaxListeners } from "node:events";
import { setTimeout as pause } from "node:timers/promises";

/** A pause that `signal` ends early by rejecting with an AbortError, as node:timers/promises' does. */
export type Pause = (ms: number, signal: AbortSignal) => Promise<void>;

const realPause: Pause = (ms, signal) => pause(ms, undefined, { signal });

export interface WindowSleeper {
  sleep: (ms: number) => Promise<void>;
  /** Ends every pause now (each rejects with an AbortError) and every later one at once. */
  end: () => void;
}

/** `wait` takes each pause: real time unless a test passes a shorter one or its own clock's. */
export function windowSleeper(wait: Pause = realPause): WindowSleeper {
  const ended = new AbortController();
  // One listener per sleeping job: hundreds in flight are the normal case, not a leak.
  setMaxListeners(0, ended.signal);
  return {
    sleep: (ms) => wait(ms, ended.signal),
    end: () => ended.abort(),
  };
}
