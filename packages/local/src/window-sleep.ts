/**
 * The Poll window's pauses on the local stack: every job in a window sleeps on one shared signal,
 * so stopping the stack cuts them all short and a shutdown never waits out a window.
 */
import { setMaxListeners } from "node:events";
import { setTimeout as pause } from "node:timers/promises";

export interface WindowSleeper {
  sleep: (ms: number) => Promise<void>;
  /** Ends every pause now (each rejects with an AbortError) and every later one at once. */
  end: () => void;
}

export function windowSleeper(): WindowSleeper {
  const ended = new AbortController();
  // One listener per sleeping job: hundreds in flight are the normal case, not a leak.
  setMaxListeners(0, ended.signal);
  return {
    sleep: (ms) => pause(ms, undefined, { signal: ended.signal }),
    end: () => ended.abort(),
  };
}
