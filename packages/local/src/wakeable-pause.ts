/**
 * The pause between two passes of a periodic loop (the webhook sweep, housekeeping), which wake()
 * ends at once: a stop, or new work that should not wait for the next pass. A wake while no pause
 * is under way does nothing.
 */
export interface WakeablePause {
  pause(ms: number): Promise<void>;
  wake(): void;
}

export function wakeablePause(): WakeablePause {
  let wakeUp: (() => void) | undefined;
  return {
    pause: (ms) =>
      new Promise<void>((resolve) => {
        const end = () => {
          clearTimeout(timer);
          wakeUp = undefined;
          resolve();
        };
        const timer = setTimeout(end, ms);
        wakeUp = end;
      }),
    wake: () => wakeUp?.(),
  };
}
