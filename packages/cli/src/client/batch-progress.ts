/**
 * A batch's progress while `reelay batch --wait` follows it: on a terminal, cli-progress's bar
 * (done of total, what ended how, the rate and the ETA); anywhere else (a log, a pipe), one line each
 * time the counts change.
 */
import cliProgress from "cli-progress";
import type { BatchView } from "./api.ts";

export interface BatchProgress {
  update(batch: BatchView): void;
  stop(): void;
}

function ended(batch: BatchView): number {
  const { succeeded = 0, failed = 0, cancelled = 0, rejected = 0 } = batch.counts;
  return succeeded + failed + cancelled + rejected;
}

function summary(batch: BatchView, startedAt: number, now: number): Record<string, string> {
  const doneJobs = ended(batch) - (batch.counts.rejected ?? 0);
  const rate = doneJobs / Math.max(1, (now - startedAt) / 1000);
  return {
    ok: String(batch.counts.succeeded ?? 0),
    failed: String((batch.counts.failed ?? 0) + (batch.counts.cancelled ?? 0)),
    waiting: String(batch.counts.queued ?? 0),
    rate: rate.toFixed(2),
    eta: batch.eta_seconds === null ? "-" : `${batch.eta_seconds}s`,
  };
}

export function batchProgress(
  write: (text: string) => void,
  tty: boolean,
  now: () => number = Date.now,
): BatchProgress {
  const startedAt = now();
  if (tty) {
    const bar = new cliProgress.SingleBar(
      {
        format:
          "{bar} {value}/{total} | {ok} ok, {failed} failed, {waiting} waiting | {rate} jobs/s | ETA {eta}",
        stream: process.stderr,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(batch) {
        if (!started) bar.start(batch.total, 0, summary(batch, startedAt, now()));
        started = true;
        bar.update(ended(batch), summary(batch, startedAt, now()));
      },
      stop: () => bar.stop(),
    };
  }
  let last = "";
  return {
    update(batch) {
      const s = summary(batch, startedAt, now());
      const line = `${batch.id}: ${ended(batch)}/${batch.total} done, ${s.ok} ok, ${s.failed} failed, ${s.waiting} waiting, ${s.rate} jobs/s, ETA ${s.eta}`;
      // The rate and ETA move on their own; a line is worth writing when the counts do.
      const key = JSON.stringify(batch.counts);
      if (key !== last) write(`${line}\n`);
      last = key;
    },
    stop: () => undefined,
  };
}
