import { GetObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { download } from "../../../src/usecases/pipeline/download-step.ts";
import { finish } from "../../../src/usecases/pipeline/finish-step.ts";
import { poll } from "../../../src/usecases/pipeline/poll-step.ts";
import { recordFailure } from "../../../src/usecases/pipeline/record-failure-step.ts";
import { submit } from "../../../src/usecases/pipeline/submit-step.ts";
import {
  pollToEnd,
  queuedJob,
  runFlow,
  harnessPerTest,
  UPSTREAM_KEY,
  type Harness,
} from "./harness.ts";
import { caught } from "../../adapters/upstream/rejection.ts";
import { json, startScripted } from "../../adapters/upstream/http-fixture.ts";
import { UpstreamClient } from "../../../src/adapters/upstream/upstream-client.ts";
import { GenerationStatsStore } from "../../../src/adapters/dynamodb/generation-stats-table.ts";
import { generationStatsKey } from "../../../src/domain/polling/generation-key.ts";
import { AdmissionControl } from "../../../src/usecases/admission/admission-control.ts";
import { AdmissionStore } from "../../../src/adapters/dynamodb/admission-table.ts";

const VIDEO = { model: "gamma-3.1", prompt: "a paper boat in the rain" };
const MB = 1024 * 1024;

const harness = harnessPerTest();

async function objectText(h: Harness, key: string): Promise<string> {
  const answer = await h.aws.s3.send(new GetObjectCommand({ Bucket: h.aws.bucket, Key: key }));
  return (await answer.Body?.transformToString()) ?? "";
}

describe("a whole job, step by step", () => {
  it("submit -> poll loop -> download -> finish: succeeded with the simulator's bytes and sha256, a manifest, and exactly one event", async () => {
    const h = await harness({ outputBytes: 12 * MB });
    const queued = await queuedJob(h.deps, VIDEO);
    const { status } = await runFlow(h.deps, queued.id);
    expect(status).toBe("succeeded");

    const job = await h.deps.jobs.require(queued.id);
    const task = h.sim.task(job.upstreamTaskId ?? "");
    expect(job.status).toBe("succeeded");
    expect(job.outputs).toEqual([
      expect.objectContaining({
        key: `outputs/${job.id}/video.mp4`,
        bytes: task?.outputBytes,
        sha256: task?.outputSha256,
        contentType: "video/mp4",
      }),
    ]);
    expect(job.history.map((entry) => entry.status)).toEqual([
      "queued",
      "running",
      "downloading",
      "succeeded",
    ]);
    expect(job.polls).toBeGreaterThan(0);
    expect(job.attempts).toBe(1);
    expect(job.eventEmittedAt).toBeDefined();

    const events = await h.events.readAll();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      "detail-type": "Generation Succeeded",
      detail: { jobId: job.id, status: "succeeded" },
    });
    expect(events[0]?.detail.output?.sha256).toBe(task?.outputSha256);

    const manifest = JSON.parse(await objectText(h, `outputs/${job.id}/job.json`));
    expect(manifest).toMatchObject({ id: job.id, status: "succeeded" });
    // The upstream key appears in no record, event or manifest.
    expect(JSON.stringify([job, events, manifest])).not.toContain(UPSTREAM_KEY);
  });

  it("under admission, the Poll that sees the task done frees the slot once; Download and Finish do not free it again", async () => {
    const h = await harness();
    const store = new AdmissionStore(h.aws.ddb, h.aws.tableName);
    const admission = new AdmissionControl({
      store,
      jobs: h.deps.jobs,
      settings: { concurrency: 2, queueTimeoutS: 3600 },
      waker: { wake: async () => undefined },
      now: () => new Date(),
    });
    const released: string[] = [];
    const release = admission.release.bind(admission);
    admission.release = async (jobId) => {
      released.push(jobId);
      await release(jobId);
    };
    const deps = { ...h.deps, admission };
    const job = await queuedJob(deps, { ...VIDEO, duration_sec: 4 });
    await store.ensure();
    await store.acquire(job.id, { limit: 2, now: Date.now(), spacingMs: 0, lane: "api" });
    const { state, status } = await runFlow(deps, job.id);
    expect(status).toBe("succeeded");
    expect(state.slotReleased).toBe(true);
    expect(released).toEqual([job.id]);
    expect((await store.state()).held).toEqual({});
  });

  it("an image job stores every image as outputs/<jobId>/image-<n>.png", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, {
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a red kite" }],
      modalities: ["image", "text"],
      output_image_count: 2,
    });
    expect((await runFlow(h.deps, queued.id)).status).toBe("succeeded");
    const job = await h.deps.jobs.require(queued.id);
    expect(job.outputs?.map((o) => o.key)).toEqual([
      `outputs/${job.id}/image-1.png`,
      `outputs/${job.id}/image-2.png`,
    ]);
    expect(job.outputs?.every((o) => o.contentType === "image/png" && o.bytes > 0)).toBe(true);
    expect(await h.events.readAll()).toHaveLength(1);
  });

  it("an image answered at once (no task to poll) goes from submit straight to a stored image", async () => {
    const h = await harness({ syncImages: true });
    const queued = await queuedJob(h.deps, {
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a kite" }],
      modalities: ["image", "text"],
    });
    const submitted = await submit(h.deps, { jobId: queued.id });
    expect(submitted).toMatchObject({ outcome: "succeeded", waitSeconds: 0 });
    expect((await runFlow(h.deps, queued.id)).status).toBe("succeeded");
    const job = await h.deps.jobs.require(queued.id);
    expect(job.upstreamTaskId).toBeUndefined();
    expect(job.outputs?.map((o) => o.key)).toEqual([`outputs/${job.id}/image-1.png`]);
    expect(h.sim.counters().tasksCreated).toBe(1);
  });

  it("a create the upstream refuses naming a field (param) ends failed with that field as the job's error path, through Catch and RecordFailure", async () => {
    const refusing = await startScripted([
      json(400, { error: { message: "duration_sec 7 is not allowed", param: "duration_sec" } }),
    ]);
    try {
      const h = await harness(
        {},
        {
          upstream: new UpstreamClient({
            baseUrl: refusing.baseUrl,
            apiKey: "sk-test",
            sleep: async () => undefined,
          }),
        },
      );
      const queued = await queuedJob(h.deps, VIDEO);
      const error = await caught(submit(h.deps, { jobId: queued.id }));
      expect(error).toMatchObject({ code: "upstream_rejected", path: "duration_sec" });
      // The state machine's Catch hands RecordFailure {Error, Cause}: the code and path come from the job's lastError.
      await recordFailure(h.deps, {
        jobId: queued.id,
        kind: "video",
        waitSeconds: 0,
        polls: 0,
        maxPolls: 1,
        deadlineAt: new Date(Date.now() + 60_000).toISOString(),
        outcome: "running",
        error: { Error: "ReelayError", Cause: JSON.stringify({ errorMessage: error.message }) },
      });
      const job = await h.deps.jobs.require(queued.id);
      expect(job.error).toMatchObject({ code: "upstream_rejected", path: "duration_sec" });
      const [event] = await h.events.readAll();
      expect(event?.detail.error).toMatchObject({ class: "invalid_request", path: "duration_sec" });
    } finally {
      await refusing.close();
    }
  });

  it("a failing upstream task ends failed with the upstream's reason and one Generation Failed event", async () => {
    const h = await harness({
      faults: [{ fault: "task_fail", reason: "the prompt was refused by policy" }],
    });
    const queued = await queuedJob(h.deps, VIDEO);
    expect((await runFlow(h.deps, queued.id)).status).toBe("failed");
    const job = await h.deps.jobs.require(queued.id);
    expect(job.error?.code).toBe("upstream_task_failed");
    expect(job.error?.message).toContain("the prompt was refused by policy");
    const events = await h.events.readAll();
    expect(events.map((e) => e["detail-type"])).toEqual(["Generation Failed"]);
    expect(events[0]?.detail.error?.message).toContain("refused by policy");
  });

  it("a create whose answer was lost and whose task failed before the repeat: Submit says upstream_task_failed (not upstream_rejected), one upstream task, named on the record", async () => {
    // The first create makes the task and answers 503; by the repeat (same key) the task has failed.
    const h = await harness({
      generationMs: 0,
      faults: [
        { fault: "task_fail", reason: "refused by policy" },
        { fault: "server_error", on: "create", after: true, times: 1 },
      ],
    });
    const queued = await queuedJob(h.deps, VIDEO);
    const error = await caught(submit(h.deps, { jobId: queued.id }));
    expect(error).toMatchObject({
      code: "upstream_task_failed",
      message: expect.stringContaining("refused by policy"),
    });
    expect(h.sim.counters()).toMatchObject({ creates: 2, tasksCreated: 1 });
    // The task was made (and may be paid for): the record names it, as a pool's audit expects.
    const job = await h.deps.jobs.require(queued.id);
    expect(h.sim.counters().tasksByKey[job.idempotencyKey]).toBe(1);
    expect(job.upstreamTaskId).toMatch(/\S/);
    expect(h.sim.task(job.upstreamTaskId ?? "")?.failReason).toBe("refused by policy");
  });

  it("Download copies from the URL the look that saw the task done was given, without asking the task again", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    const polled = await pollToEnd(h.deps, await submit(h.deps, { jobId: queued.id }));
    expect(polled.outputUrls).toHaveLength(1);
    const taskId = (await h.deps.jobs.require(queued.id)).upstreamTaskId!;
    const asked = h.sim.counters().pollsByTask[taskId];
    await finish(h.deps, await download(h.deps, polled));
    expect(h.sim.counters().pollsByTask[taskId]).toBe(asked);
    expect((await h.deps.jobs.require(queued.id)).status).toBe("succeeded");
  });

  it("a look's URL refused as expired, or older than a minute, makes Download ask the task for a fresh one", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    const polled = await pollToEnd(h.deps, await submit(h.deps, { jobId: queued.id }));
    const taskId = (await h.deps.jobs.require(queued.id)).upstreamTaskId!;
    const asked = h.sim.counters().pollsByTask[taskId]!;
    const refused = polled.outputUrls![0]!.replace(/sig=[0-9a-f]+/, `sig=${"0".repeat(64)}`);
    await download(h.deps, { ...polled, outputUrls: [refused] });
    expect(h.sim.counters().pollsByTask[taskId]).toBe(asked + 1);
    const stale = new Date(Date.now() - 61_000).toISOString();
    await download(h.deps, { ...polled, outputUrlsSeenAt: stale });
    expect(h.sim.counters().pollsByTask[taskId]).toBe(asked + 2);
    const job = await h.deps.jobs.require(queued.id);
    expect(job.outputs).toHaveLength(1);
  });

  it("a job resumed after its upstream task succeeded (a crash mid-download) goes from Submit to its look at once, then downloads", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    const polled = await pollToEnd(h.deps, await submit(h.deps, { jobId: queued.id }));
    expect(polled.outcome).toBe("succeeded");
    await h.deps.jobs.transition(queued.id, { from: ["running"], to: "downloading" });
    // The process died here; the resumed flow starts again at Submit.
    const resumed = await submit(h.deps, { jobId: queued.id });
    expect(resumed.waitSeconds).toBe(0);
    expect((await runFlow(h.deps, queued.id)).status).toBe("succeeded");
    expect(h.sim.counters().tasksCreated).toBe(1);
  });

  it("a poll past the deadline ends the job failed with code timeout", async () => {
    const h = await harness({ faults: [{ fault: "never_finish" }] });
    const queued = await queuedJob(h.deps, VIDEO);
    const state = await submit(h.deps, { jobId: queued.id });
    const polled = await poll(h.deps, state);
    expect(polled.outcome).toBe("running");
    h.deps.now = () => new Date(Date.parse(state.deadlineAt) + 1);
    const late = await poll(h.deps, polled);
    expect(late.outcome).toBe("failed");
    expect(late.error?.code).toBe("timeout");
    await recordFailure(h.deps, late);
    expect((await h.deps.jobs.require(queued.id)).error?.code).toBe("timeout");
    expect((await h.events.readAll()).map((e) => e.detail.error?.code)).toEqual(["timeout"]);
  });

  it("a poll the upstream answers 503 is a look that learned nothing: counted, the error kept on the job, the loop goes on; past the deadline it is a timeout naming that error", async () => {
    const h = await harness({
      faults: [{ fault: "never_finish" }, { fault: "server_error", on: "poll" }],
    });
    const queued = await queuedJob(h.deps, VIDEO);
    const state = await submit(h.deps, { jobId: queued.id });
    const polled = await poll(h.deps, state);
    expect(polled).toMatchObject({ outcome: "running", polls: state.polls + 1 });
    expect((await h.deps.jobs.require(queued.id)).lastError).toMatchObject({
      code: "upstream_unavailable",
      step: "poll",
    });
    h.deps.now = () => new Date(Date.parse(state.deadlineAt) + 1);
    const late = await poll(h.deps, polled);
    expect(late.outcome).toBe("failed");
    expect(late.error).toEqual({
      code: "timeout",
      message: expect.stringContaining(
        "the last look failed: The upstream failed GET /video/tasks/",
      ),
    });
  });

  it("a poll refused for good (401) still fails the step at once, not as a look that learned nothing", async () => {
    const h = await harness({ faults: [{ fault: "never_finish" }] });
    const queued = await queuedJob(h.deps, VIDEO);
    const state = await submit(h.deps, { jobId: queued.id });
    h.deps.upstream = new UpstreamClient({
      baseUrl: h.sim.url,
      apiKey: "sk-wrong-key",
      sleep: async () => undefined,
    });
    const error = await caught(poll(h.deps, state));
    expect(error).toMatchObject({ code: "upstream_auth", retryable: false });
  });

  it("a poll after the deadline of a task that already succeeded reports succeeded, not timeout", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    const state = await submit(h.deps, { jobId: queued.id });
    const taskId = (await h.deps.jobs.require(queued.id)).upstreamTaskId ?? "";
    for (let i = 0; i < 500 && h.sim.task(taskId)?.status !== "succeeded"; i += 1)
      await new Promise((r) => setTimeout(r, 10));
    h.deps.now = () => new Date(Date.parse(state.deadlineAt) + 1);
    expect((await poll(h.deps, state)).outcome).toBe("succeeded");
  });

  it("a loop that reaches maxPolls (REELAY_JOB_TIMEOUT_S short) ends failed with code timeout", async () => {
    const h = await harness({ faults: [{ fault: "never_finish" }] }, { jobTimeoutS: 0.3 });
    const queued = await queuedJob(h.deps, VIDEO);
    const { status, state } = await runFlow(h.deps, queued.id);
    expect(status).toBe("failed");
    expect(state.maxPolls).toBe(2);
    expect((await h.deps.jobs.require(queued.id)).error?.code).toBe("timeout");
    expect((await h.events.readAll()).map((e) => e.detail.error?.code)).toEqual(["timeout"]);
  });
});

describe("repeats and late steps", () => {
  it("submit called twice makes one upstream task and the second call sends no create", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    const first = await submit(h.deps, { jobId: queued.id });
    const second = await submit(h.deps, { jobId: queued.id });
    expect(h.sim.counters().creates).toBe(1);
    expect(h.sim.counters().tasksCreated).toBe(1);
    expect(second.deadlineAt).toBe(first.deadlineAt);
    const job = await h.deps.jobs.require(queued.id);
    expect(job.status).toBe("running");
    expect(job.attempts).toBe(1);
  });

  it("a submit retried after a crash that created the task but recorded nothing reuses the task (same idempotency key)", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    const lost = await h.deps.upstream.createVideo(queued.request, {
      idempotencyKey: queued.idempotencyKey,
    });
    await submit(h.deps, { jobId: queued.id });
    expect(h.sim.counters().tasksCreated).toBe(1);
    expect((await h.deps.jobs.require(queued.id)).upstreamTaskId).toBe(lost.taskId);
  });

  it("finish called twice emits one event", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    let state = await pollToEnd(h.deps, await submit(h.deps, { jobId: queued.id }));
    state = await download(h.deps, state);
    await finish(h.deps, state);
    await finish(h.deps, state);
    expect(await h.events.readAll()).toHaveLength(1);
  });

  it("a finish retried after a crash between the terminal write and the emit emits once, then never again", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    let state = await pollToEnd(h.deps, await submit(h.deps, { jobId: queued.id }));
    state = await download(h.deps, state);
    // The crashed attempt got as far as the write.
    await h.deps.jobs.transition(queued.id, {
      from: ["downloading"],
      to: "succeeded",
      set: { finishedAt: new Date().toISOString() },
    });
    await finish(h.deps, state);
    await finish(h.deps, state);
    await recordFailure(h.deps, state);
    expect((await h.events.readAll()).map((e) => e["detail-type"])).toEqual([
      "Generation Succeeded",
    ]);
    expect((await h.deps.jobs.require(queued.id)).status).toBe("succeeded");
  });

  it("a late RecordFailure cannot move a succeeded job and emits nothing more", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    const { state } = await runFlow(h.deps, queued.id);
    const late = await recordFailure(h.deps, {
      ...state,
      error: { Error: "States.Timeout", Cause: "" },
    });
    expect(late.status).toBe("succeeded");
    expect((await h.deps.jobs.require(queued.id)).status).toBe("succeeded");
    expect(await h.events.readAll()).toHaveLength(1);
  });

  it("a job cancelled mid-flight: poll stops the loop, RecordFailure keeps it cancelled and emits Generation Cancelled once", async () => {
    const h = await harness({ faults: [{ fault: "never_finish" }] });
    const queued = await queuedJob(h.deps, VIDEO);
    const state = await submit(h.deps, { jobId: queued.id });
    await h.deps.jobs.transition(queued.id, {
      from: ["running"],
      to: "cancelled",
      set: { finishedAt: new Date().toISOString() },
    });
    const polled = await poll(h.deps, state);
    expect(polled.outcome).toBe("failed");
    expect(polled.error?.code).toBe("cancelled");
    expect((await recordFailure(h.deps, polled)).status).toBe("cancelled");
    await recordFailure(h.deps, polled);
    expect((await h.events.readAll()).map((e) => e["detail-type"])).toEqual([
      "Generation Cancelled",
    ]);
  });

  it("a cancel between steps is seen by the next one, whose opening write is refused: Submit creates no task, Download stores nothing, Finish does not succeed", async () => {
    const h = await harness();
    const cancel = (id: string) =>
      h.deps.jobs.transition(id, {
        from: ["queued", "running", "downloading"],
        to: "cancelled",
        set: { finishedAt: new Date().toISOString() },
      });

    const beforeSubmit = await queuedJob(h.deps, VIDEO);
    await cancel(beforeSubmit.id);
    const submitted = await submit(h.deps, { jobId: beforeSubmit.id });
    expect(submitted).toMatchObject({ outcome: "failed", error: { code: "cancelled" } });
    expect(h.sim.counters().creates).toBe(0);
    expect((await h.deps.jobs.require(beforeSubmit.id)).attempts).toBe(0);

    const beforeDownload = await queuedJob(h.deps, VIDEO);
    const polled = await pollToEnd(h.deps, await submit(h.deps, { jobId: beforeDownload.id }));
    expect(polled.outcome).toBe("succeeded");
    await cancel(beforeDownload.id);
    expect((await caught(download(h.deps, polled))).code).toBe("job_conflict");
    const notDownloaded = await h.deps.jobs.require(beforeDownload.id);
    expect(notDownloaded.status).toBe("cancelled");
    expect(notDownloaded.outputs).toBeUndefined();

    const beforeFinish = await queuedJob(h.deps, VIDEO);
    const downloaded = await download(
      h.deps,
      await pollToEnd(h.deps, await submit(h.deps, { jobId: beforeFinish.id })),
    );
    await cancel(beforeFinish.id);
    expect((await caught(finish(h.deps, downloaded))).code).toBe("job_conflict");
    expect((await h.deps.jobs.require(beforeFinish.id)).status).toBe("cancelled");
    expect(await h.events.readAll()).toEqual([]);
  });

  it("a task seen done is recorded with the look's count, and a repeated Poll of a done task files no second generation sample", async () => {
    const h = await harness();
    const stats = new GenerationStatsStore(h.aws.ddb, h.aws.tableName);
    h.deps.generationStats = stats;
    const queued = await queuedJob(h.deps, VIDEO);
    const polled = await pollToEnd(h.deps, await submit(h.deps, { jobId: queued.id }));
    expect(polled.outcome).toBe("succeeded");
    const seen = await h.deps.jobs.require(queued.id);
    expect(seen.upstreamDoneAt).toBeDefined();
    expect(seen.polls).toBe(polled.polls);
    // Poll again, as a resumed flow would: counted, still succeeded, no second sample.
    expect((await poll(h.deps, polled)).outcome).toBe("succeeded");
    expect((await h.deps.jobs.require(queued.id)).polls).toBe(polled.polls + 1);
    expect((await stats.history(generationStatsKey(queued)))?.samples).toBe(1);
  });

  it("download of an expired output throws the permanent output_unavailable; RecordFailure (as Catch delivers it) names that code", async () => {
    const h = await harness({ urlTtlMs: 1 });
    const queued = await queuedJob(h.deps, VIDEO);
    const state = await pollToEnd(h.deps, await submit(h.deps, { jobId: queued.id }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const error = await caught(download(h.deps, state));
    expect(error.name).toBe("ReelayError");
    expect(error.code).toBe("output_unavailable");
    const cause = JSON.stringify({ errorType: error.name, errorMessage: error.message });
    await recordFailure(h.deps, { ...state, error: { Error: error.name, Cause: cause } });
    const job = await h.deps.jobs.require(queued.id);
    expect(job.status).toBe("failed");
    expect(job.error?.code).toBe("output_unavailable");
    expect(job.outputs).toBeUndefined();
  });

  it("a download that fails transiently throws ReelayTransientError, and the retry stores the output", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    const state = await pollToEnd(h.deps, await submit(h.deps, { jobId: queued.id }));
    h.sim.setFaults([{ fault: "truncate", times: 1 }]);
    const error = await caught(download(h.deps, state));
    expect(error.name).toBe("ReelayTransientError");
    expect((await h.deps.jobs.require(queued.id)).lastError).toMatchObject({
      code: "download_truncated",
      step: "download",
    });
    await download(h.deps, state);
    expect((await finish(h.deps, state)).status).toBe("succeeded");
    expect((await h.deps.jobs.require(queued.id)).outputs?.[0]?.sha256).toBe(
      h.sim.task((await h.deps.jobs.require(queued.id)).upstreamTaskId ?? "")?.outputSha256,
    );
  });

  it("finish refuses a job with no stored output (a partial copy is never marked succeeded)", async () => {
    const h = await harness();
    const queued = await queuedJob(h.deps, VIDEO);
    const state = await submit(h.deps, { jobId: queued.id });
    const error = await caught(finish(h.deps, state));
    expect(error.code).toBe("output_missing");
    expect((await h.deps.jobs.require(queued.id)).status).toBe("running");
  });
});
