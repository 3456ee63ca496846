/**
 * The flow of a job that reuses (Job.reusedFrom), step by step against dynalite, s3rver and the
 * simulator over HTTP: it makes no upstream task, waits while its source runs, copies the source's
 * objects into its own outputs/<id>/ and ends with its own event; a source whose objects are gone
 * ends it reuse_source_ended.
 */
import { describe, expect, it } from "vitest";
import { createJob } from "../../../src/usecases/jobs/create-job.ts";
import { download } from "../../../src/usecases/pipeline/download-step.ts";
import { recordFailure } from "../../../src/usecases/pipeline/record-failure-step.ts";
import { submit } from "../../../src/usecases/pipeline/submit-step.ts";
import type { PipelineDeps } from "../../../src/usecases/pipeline/pipeline-deps.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { harnessPerTest, pollToEnd, queuedJob, runFlow } from "../pipeline/harness.ts";
import { caught } from "../../adapters/upstream/rejection.ts";

const VIDEO = { model: "gamma-3.1", prompt: "a paper boat in the rain" };
const harness = harnessPerTest();

async function reusing(deps: PipelineDeps, sourceId: string) {
  const validation = validate(VIDEO);
  const source = await deps.jobs.require(sourceId);
  return (
    await createJob(deps.jobs, {
      validation,
      source: { type: "api" },
      reuse: {
        id: sourceId,
        ...(source.estimate === undefined ? {} : { estimate: source.estimate }),
      },
    })
  ).job;
}

describe("a job that reuses another's output", () => {
  it("waits while its source runs, then copies its output into its own outputs/<id>/ and ends succeeded with its own event, charged false, no upstream task", async () => {
    const h = await harness();
    const source = await queuedJob(h.deps, VIDEO);
    const job = await reusing(h.deps, source.id);

    const started = await submit(h.deps, { jobId: job.id });
    const waiting = await pollToEnd({ ...h.deps }, { ...started, maxPolls: started.polls + 1 });
    expect(waiting.outcome).toBe("running");

    expect((await runFlow(h.deps, source.id)).status).toBe("succeeded");
    expect((await runFlow(h.deps, job.id)).status).toBe("succeeded");
    expect(h.sim.counters().tasksCreated).toBe(1);

    const [done, original] = await Promise.all([
      h.deps.jobs.require(job.id),
      h.deps.jobs.require(source.id),
    ]);
    expect(done).toMatchObject({ status: "succeeded", reusedFrom: source.id, attempts: 0 });
    expect(done.upstreamTaskId).toBeUndefined();
    expect(done.outputs?.[0]).toMatchObject({
      key: `outputs/${job.id}/video.mp4`,
      sha256: original.outputs?.[0]?.sha256,
      bytes: original.outputs?.[0]?.bytes,
    });
    expect(await h.deps.objects.head(`outputs/${job.id}/video.mp4`)).toBeDefined();
    expect(await h.deps.objects.head(`outputs/${job.id}/job.json`)).toBeDefined();
    const events = (await h.events.readAll()).filter((e) => e.detail.jobId === job.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.detail).toMatchObject({ charged: false, cost: 0, reused_from: source.id });
  });

  it("whose source's objects are gone (retention) ends failed reuse_source_ended at once, charged false", async () => {
    const h = await harness();
    const source = await queuedJob(h.deps, VIDEO);
    expect((await runFlow(h.deps, source.id)).status).toBe("succeeded");
    await h.deps.objects.delete(`outputs/${source.id}/video.mp4`);
    const job = await reusing(h.deps, source.id);

    const state = await pollToEnd(h.deps, await submit(h.deps, { jobId: job.id }));
    expect(state.outcome).toBe("succeeded");
    const error = await caught(download(h.deps, state));
    expect(error).toMatchObject({ code: "reuse_source_ended", retryable: false });
    await recordFailure(h.deps, { ...state, error });
    expect(await h.deps.jobs.require(job.id)).toMatchObject({
      status: "failed",
      error: { code: "reuse_source_ended" },
    });
    expect(h.sim.counters().tasksCreated).toBe(1);
  });
});
