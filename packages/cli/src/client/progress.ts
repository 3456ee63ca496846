/**
 * Live progress of one job: on a terminal, one line rewritten in place; anywhere else (a log, a
 * pipe), a new line only when the status or the poll count changes, so logs stay short.
 */
import { seconds } from "./format.ts";

export interface ProgressLine {
  update(status: string, elapsedMs: number, polls: number): void;
  /** Ends the in-place line so later output starts on a fresh one. */
  done(): void;
}

export function progressLine(write: (text: string) => void, tty: boolean): ProgressLine {
  let last = "";
  let open = false;
  return {
    update(status, elapsedMs, polls) {
      const text = `${status.padEnd(11)} ${seconds(elapsedMs).padStart(7)}  ${polls} poll${polls === 1 ? "" : "s"}`;
      if (tty) {
        write(`\r\x1b[K${text}`);
        open = true;
        return;
      }
      const key = `${status} ${polls}`;
      if (key !== last) write(`${text}\n`);
      last = key;
    },
    done() {
      if (open) write("\n");
      open = false;
    },
  };
}
