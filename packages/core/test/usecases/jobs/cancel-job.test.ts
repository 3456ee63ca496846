import { describe, expect, it } from "vitest";
import { cancelJob, type CancelDeps } from "../../../src/usecases/jobs/cancel-job.ts";
import { download } from "../../../src/usecases/pipeline/download-step.ts";
import { finish } from "../../../src/usecases/pipeline/finish-step.ts";
import { poll } from "../../../src/usecases/pipeline/poll-step.ts";
import { recordFailure } from "../../../src/usecases/pipeline/record-failure-step.ts";
import { submit } from "../../../src/usecases/pipeline/submit-step.ts";
import { pollToEnd, queuedJob, harnessPerTest, type Harness } from "../pipeline/harness.ts";
import { UNWATCHED } from "../../support/unwatched.ts";
import { caught } from "../../adapters/upstream/rejection.ts";

const VIDEO = { model: "gamma-3.1", prompt: "a paper boat in the rain" };

const harness = harnessPerTest();

function cancelDeps(h: Harness, stopped: string[] = []): CancelDeps {
  return {
    jobs: h.deps.jobs,
    events: h.events,
    now: h.deps.now,
    stopper: { stop: async (id) => void stopped.push(id) },
    ...UNWATCHED,
  };
}

describe("cancelJob", () => {
  it("a running job becomes cancelled with a history entry, one Generation Cancelled event, and its execution is stopped", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    await submit(h.deps, { jobId: queued.id });
    const stopped: string[] = [];

    const job = await cancelJob(cancelDeps(h, stopped), queued.id);

    expect(job.status).toBe("cancelled");
    expect(job.error).toEqual({ code: "cancelled", message: "Cancelled by request." });
    expect(job.history.map((entry) => entry.status)).toEqual(["queued", "running", "cancelled"]);
    expect(job.eventEmittedAt).toBeDefined();
    expect(stopped).toEqual([queued.id]);
    const events = await h.events.readAll();
    expect(events.map((e) => [e["detail-type"], e.detail.jobId])).toEqual([
      ["Generation Cancelled", queued.id],
    ]);
  });

  it("steps that run after the cancel (poll, download, finish, recordFailure) leave the job cancelled and emit nothing more", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    // The upstream finished: the next steps would download and succeed, were it not cancelled.
    const done = await pollToEnd(h.deps, await submit(h.deps, { jobId: queued.id }));
    expect(done.outcome).toBe("succeeded");
    await cancelJob(cancelDeps(h), queued.id);

    const late = await poll(h.deps, done);
    expect(late.outcome).toBe("failed");
    expect(late.error?.code).toBe("cancelled");
    await caught(download(h.deps, done));
    await caught(finish(h.deps, done));
    await recordFailure(h.deps, late);

    const job = await h.deps.jobs.require(queued.id);
    expect(job.status).toBe("cancelled");
    expect(job.outputs ?? []).toEqual([]);
    expect(job.history.map((entry) => entry.status)).toEqual(["queued", "running", "cancelled"]);
    expect((await h.events.readAll()).map((e) => e["detail-type"])).toEqual([
      "Generation Cancelled",
    ]);
  });

  it("a terminal job is job_not_cancellable (409) naming its status; an unknown id is job_not_found (404)", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    await cancelJob(cancelDeps(h), queued.id);

    const again = await caught(cancelJob(cancelDeps(h), queued.id));
    expect(again).toMatchObject({
      code: "job_not_cancellable",
      status: 409,
      details: { status: "cancelled" },
    });
    expect(again.message).toContain("cancelled");
    const unknown = await caught(cancelJob(cancelDeps(h), "vidtsk_01J0000000000000000000000Z"));
    expect(unknown).toMatchObject({ code: "job_not_found", status: 404 });
    expect(await h.events.readAll()).toHaveLength(1);
  });

  it("two concurrent cancels of one job: one wins, the other is job_not_cancellable, and one event is emitted", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    const results = await Promise.allSettled([
      cancelJob(cancelDeps(h), queued.id),
      cancelJob(cancelDeps(h), queued.id),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect((rejected as PromiseRejectedResult).reason).toMatchObject({
      code: "job_not_cancellable",
    });
    expect(await h.events.readAll()).toHaveLength(1);
  });
});
