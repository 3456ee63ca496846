/**
 * Completing a batch against dynalite and s3rver: the dispatcher (due batches) and the sweep
 * (stale ones) may complete the same batch at the same moment, and a completer may crash after
 * finishing a batch and before announcing it; either way the batch is announced exactly once.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchIdFrom, createBatch } from "../../../src/usecases/batches/create-batch.ts";
import {
  completeDueBatches,
  completeStaleBatches,
} from "../../../src/usecases/batches/batch-progress.ts";
import { UNWATCHED } from "../../support/unwatched.ts";
import { BatchStore } from "../../../src/adapters/dynamodb/batch-table.ts";
import { JsonlFileSink } from "../../../src/adapters/events/jsonl-events.ts";
import { isBatchEvent } from "../../../src/domain/events/types.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import { ObjectStore } from "../../../src/adapters/s3/object-store.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { type LocalAws, startLocalAws } from "../../support/local-aws.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(async () => {
  await aws.stop();
});

async function endedBatch(name: string, clock: { at: number }) {
  const batches = new BatchStore(aws.ddb, aws.tableName);
  const jobs = new JobStore(aws.ddb, aws.tableName);
  const events = new JsonlFileSink(join(aws.dir, `${name}.jsonl`));
  const now = () => new Date(clock.at);
  const deps = { batches, jobs, objects: new ObjectStore(aws.s3, aws.bucket), events, now };
  const source = { type: "api" as const, apiKeyId: name };
  const lines = [1, 2, 3].map((line) => ({
    line,
    source,
    validation: validate({ model: "os-2", prompt: `${name} ${line}`, duration_sec: 4 }),
  }));
  const admission = {
    entryOf: () => ({}) as never,
    store: { enqueue: async () => undefined } as never,
    wake: async () => undefined,
  };
  const { batch } = await createBatch(
    {
      batches,
      admission,
      now,
      submit: { jobs, events, now, ...UNWATCHED },
    },
    { id: batchIdFrom([name]), source, lines },
  );
  for (const line of await batches.lines(batch)) {
    await jobs.transition(line.jobId!, { from: ["queued"], to: "cancelled", note: "test" });
    await batches.jobEnded(batch.id, now().toISOString());
  }
  await batches.markDue(batch.id);
  const announced = async () =>
    (await events.readEvents()).filter(
      (event) => isBatchEvent(event) && event.detail.batchId === batch.id,
    );
  return { deps, batch, announced };
}

describe("batch completion", () => {
  it("the dispatcher and the sweep completing the same batch at once announce it once", async () => {
    const clock = { at: Date.parse("2026-11-24T10:00:00Z") };
    const { deps, batch, announced } = await endedBatch("racing", clock);
    await Promise.all([
      completeDueBatches(deps),
      completeStaleBatches(deps, 0),
      completeStaleBatches(deps, 0),
    ]);
    expect(await announced()).toHaveLength(1);
    expect((await deps.batches.require(batch.id)).announcedAt).toBeDefined();
  });

  it("a claim written but whose answer was lost is still its claimer's when retried; another completer's claim is refused", async () => {
    const clock = { at: Date.parse("2026-11-24T12:00:00Z") };
    const { deps, batch } = await endedBatch("retried", clock);
    const claim = `${new Date(clock.at).toISOString()}#A`;
    const stale = new Date(clock.at - 60_000).toISOString();
    expect(await deps.batches.claimAnnouncement(batch.id, claim, stale)).toBe(true);
    // The SDK's retry of the same write meets its own claim.
    expect(await deps.batches.claimAnnouncement(batch.id, claim, stale)).toBe(true);
    expect(
      await deps.batches.claimAnnouncement(
        batch.id,
        `${new Date(clock.at).toISOString()}#B`,
        stale,
      ),
    ).toBe(false);
  });

  it("a completer that crashed after claiming the announcement is taken over a minute later, once", async () => {
    const clock = { at: Date.parse("2026-11-24T11:00:00Z") };
    const { deps, batch, announced } = await endedBatch("crashed", clock);
    // The crashed completer's claim: it finished nothing and announced nothing.
    expect(
      await deps.batches.claimAnnouncement(batch.id, new Date(clock.at).toISOString(), "0"),
    ).toBe(true);
    await completeStaleBatches(deps, 0);
    expect(await announced()).toHaveLength(0);
    clock.at += 61_000;
    await Promise.all([completeStaleBatches(deps, 0), completeStaleBatches(deps, 0)]);
    expect(await announced()).toHaveLength(1);
  });
});
