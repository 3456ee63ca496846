/**
 * The local stack's delivery sweep: a timer that runs core's sweep about once a second, and at once
 * when an event has just been recorded. The deliveries live in dynalite, so a stack killed between
 * attempts finds them at its next start and carries on with the schedule where it stopped.
 */
import { purgeDeliveries, type DeliverySweepDeps, sweepDeliveries } from "@reelay/core/usecases";
import type { Logger } from "./log.ts";
import { wakeablePause } from "./wakeable-pause.ts";

const SWEEP_INTERVAL_MS = 1000;
/** Deliveries past their 30 days are deleted this often (and at start). */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

export interface WebhookSweeper {
  /** Sweep now (an event was just recorded). */
  wake(): void;
  /** Ends the loop after the sweep in progress, if any. */
  stop(): Promise<void>;
}

export function startWebhookSweeper(deps: DeliverySweepDeps, log: Logger): WebhookSweeper {
  let stopped = false;
  let woken = false;
  const between = wakeablePause();
  let purgedAt = 0;
  const purge = async () => {
    if (Date.now() - purgedAt < PURGE_INTERVAL_MS) return;
    purgedAt = Date.now();
    await purgeDeliveries(deps).catch((error: unknown) =>
      log.error("purging old webhook deliveries failed", error),
    );
  };
  const loop = async () => {
    while (!stopped) {
      woken = false;
      await purge();
      const result = await sweepDeliveries(deps).catch((error: unknown) => {
        log.error("a webhook sweep failed", error);
        return { more: false };
      });
      if (!result.more && !woken && !stopped) await between.pause(SWEEP_INTERVAL_MS);
    }
  };
  const running = loop();
  return {
    wake: () => {
      woken = true;
      between.wake();
    },
    stop: async () => {
      stopped = true;
      between.wake();
      await running;
    },
  };
}
