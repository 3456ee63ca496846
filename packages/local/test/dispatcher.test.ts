/**
 * The local dispatcher on real dynalite: a slot freed while nobody waits costs no dispatch run (the
 * last run found the queue empty and nothing was queued since), and a job queued after that is
 * still admitted at once. Runs are counted at the table: each reads the admission item once.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AdmissionControl, NO_BATCHES, NO_BUDGETS, noMetrics } from "@reelay/core/usecases";
import { AdmissionStore, BatchStore, JsonlFileSink, ObjectStore } from "@reelay/core/adapters";
import { LocalDispatcher } from "../src/dispatcher.ts";
import { silentLogger } from "../src/log.ts";
import { queuedJob, standinsPerTest } from "./fixtures/jobs.ts";

const standinsFor = standinsPerTest("dispatcher");

describe("the local dispatcher", () => {
  it("skips the run a freed slot would make when nobody waits, and still admits a job queued later", async () => {
    const { standins, jobs, dataDir } = await standinsFor();
    const reads: string[] = [];
    const counting = {
      send: (command: { constructor: { name: string }; input: { Key?: { pk?: string } } }) => {
        if (command.constructor.name === "GetCommand" && command.input.Key?.pk === "admission")
          reads.push("admission");
        return standins.ddb.send(command as never);
      },
    } as unknown as typeof standins.ddb;
    const dispatcher = new LocalDispatcher(silentLogger);
    const now = () => new Date();
    const admission = new AdmissionControl({
      store: new AdmissionStore(counting, standins.tableName),
      jobs,
      settings: { concurrency: 4, queueTimeoutS: 3600 },
      waker: dispatcher,
      now,
    });
    const started: string[] = [];
    const events = new JsonlFileSink(join(dataDir, "events.jsonl"));
    dispatcher.attach(
      {
        admission,
        jobs,
        starter: { start: async (job) => void started.push(job.id) },
        events,
        now,
        batches: NO_BATCHES,
        budgets: NO_BUDGETS,
        metrics: noMetrics,
        completion: {
          batches: new BatchStore(standins.ddb, standins.tableName),
          jobs,
          objects: new ObjectStore(standins.s3, standins.bucket),
          events,
          now,
        },
      },
      60_000,
    );
    const settle = async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await dispatcher.idle();
    };
    try {
      const first = await queuedJob(jobs, "a paper boat");
      await admission.enqueue(first);
      await settle();
      expect(started).toEqual([first.id]);

      // Its task ended: the slot comes free with nobody waiting, and no run is made for it.
      reads.length = 0;
      await admission.release(first.id);
      await settle();
      expect(reads).toEqual([]);

      const second = await queuedJob(jobs, "a lighthouse");
      await admission.enqueue(second);
      await settle();
      expect(started).toEqual([first.id, second.id]);
      expect(reads).toEqual(["admission"]);
    } finally {
      await dispatcher.stop();
    }
  });
});
