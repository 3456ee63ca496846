/**
 * Live progress of one job: on a terminal, one line rewritten in place, its clock ticking between
 * polls; anywhere else (a log, a pipe), a new line only when the status or the poll count changes,
 * so logs stay short.
 */
import { seconds } from "./format.ts";

export interface ProgressLine {
  update(status: string, polls: number): void;
  /** Ends the in-place line so later output starts on a fresh one. */
  done(): void;
}

const TICK_MS = 200;

export function progressLine(
  write: (text: string) => void,
  tty: boolean,
  startedAt: number,
  now: () => number = Date.now,
): ProgressLine {
  let current: { status: string; polls: number } | undefined;
  let ticker: NodeJS.Timeout | undefined;
  const render = () => {
    if (current === undefined) return "";
    const { status, polls } = current;
    return `${status.padEnd(11)} ${seconds(now() - startedAt).padStart(7)}  ${polls} poll${polls === 1 ? "" : "s"}`;
  };
  return {
    update(status, polls) {
      const changed = current?.status !== status || current.polls !== polls;
      current = { status, polls };
      if (tty) {
        write(`\r\x1b[K${render()}`);
        ticker ??= setInterval(() => write(`\r\x1b[K${render()}`), TICK_MS).unref();
      } else if (changed) {
        write(`${render()}\n`);
      }
    },
    done() {
      if (ticker !== undefined) {
        clearInterval(ticker);
        write("\n");
      }
      ticker = undefined;
    },
  };
}
