import { describe, expect, it } from "vitest";
import { DIALECTS } from "../src/index.ts";
import { createVideo, fakeClock, pollJson, pollUntil, sim } from "./helpers.ts";

/** Where each dialect puts the status and the URL, written out independently of the simulator's code. */
const READ: Record<string, (b: any) => { status: string | undefined; url: string | undefined }> = {
  standard: (b) => ({ status: b.service_task?.status, url: b.service_task?.output?.video_url }),
  flat: (b) => ({ status: b.status, url: b.video_url }),
  nested_output: (b) => ({ status: b.service_task?.status, url: b.data?.outputs?.[0]?.url }),
  url_only: (b) => ({ status: b.status, url: b.result?.videos?.[0]?.url }),
  string_error: (b) => ({ status: b.status, url: b.output }),
};

const STATUSES: Record<string, [queued: string, running: string, done: string, failed: string]> = {
  standard: ["queued", "running", "succeeded", "failed"],
  flat: ["PENDING", "PROCESSING", "SUCCESS", "FAILED"],
  nested_output: ["in_progress", "in_progress", "completed", "error"],
  url_only: ["processing", "processing", "processing", "cancelled"],
  string_error: ["Running", "Running", "Completed", "Error"],
};

describe("task lifecycle", () => {
  for (const dialect of DIALECTS) {
    it(`${dialect}: a real-time task with generationMs 200 ends with a downloadable video URL`, async () => {
      const s = await sim({ dialect, generationMs: 200 });
      const id = await createVideo(s);
      expect(id).toMatch(/^vidtsk_[0-9a-f]+$/);
      const body = await pollUntil(
        () => pollJson(s, id),
        (b) => READ[dialect]!(b).url !== undefined,
      );
      const { status, url } = READ[dialect]!(body);
      expect(status).toBe(STATUSES[dialect]![2]);
      const video = await fetch(url!);
      expect(video.status).toBe(200);
      expect(video.headers.get("content-type")).toBe("video/mp4");
    });

    it(`${dialect}: queued, running, succeeded follow the clock and queueMs/generationMs scaled by timeScale`, async () => {
      const clock = fakeClock();
      const s = await sim({
        dialect,
        queueMs: 1000,
        generationMs: 4000,
        timeScale: 0.5,
        now: clock.now,
      });
      const id = await createVideo(s);
      const [queued, running, done] = STATUSES[dialect]!;
      expect(READ[dialect]!(await pollJson(s, id))).toEqual({ status: queued, url: undefined });
      clock.advance(600); // past 1000 * 0.5
      expect(READ[dialect]!(await pollJson(s, id))).toEqual({ status: running, url: undefined });
      expect(s.task(id)?.status).toBe("running");
      clock.advance(1800); // 2400 ms total, short of (1000 + 4000) * 0.5
      expect(READ[dialect]!(await pollJson(s, id)).url).toBeUndefined();
      clock.advance(100);
      const end = READ[dialect]!(await pollJson(s, id));
      expect(end.status).toBe(done);
      expect(end.url).toBe(s.task(id)?.outputUrls[0]);
    });

    it(`${dialect}: a task_fail task ends in the dialect's failure shape with a readable reason`, async () => {
      const clock = fakeClock();
      const s = await sim({ dialect, now: clock.now });
      const id = await createVideo(s, "a cat [[sim:task_fail]]");
      clock.advance(1_000_000);
      const body = (await pollJson(s, id)) as any;
      expect(READ[dialect]!(body).status).toBe(STATUSES[dialect]![3]);
      const reason =
        body.service_task?.error?.message ??
        body.fail_reason ??
        body.error?.message ??
        body.message ??
        body.error;
      expect(reason).toBe("Content moderation rejected the prompt");
      expect(s.task(id)?.outputUrls).toEqual([]);
    });
  }

  it("standard dialect failure carries service_task.error with code and message", async () => {
    const clock = fakeClock();
    const s = await sim({
      now: clock.now,
      faults: [{ fault: "task_fail", reason: "No credits left" }],
    });
    const id = await createVideo(s);
    clock.advance(1_000_000);
    expect(await pollJson(s, id)).toMatchObject({
      service_task: {
        status: "failed",
        error: { code: "generation_failed", message: "No credits left" },
      },
      status: "failed",
    });
  });

  it("a never_finish task is still running long after its generation time", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now });
    const id = await createVideo(s, "x [[sim:never_finish]]");
    clock.advance(10 ** 10);
    expect(await pollJson(s, id)).toMatchObject({ status: "running" });
  });

  it("[[sim:generation_ms=...]] and [[sim:dialect=...]] override the server settings for that task only", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now, generationMs: 100_000 });
    const quick = await createVideo(s, "x [[sim:generation_ms=500]] [[sim:dialect=flat]]");
    const slow = await createVideo(s, "y");
    clock.advance(600);
    expect(await pollJson(s, quick)).toMatchObject({ status: "SUCCESS" });
    expect(await pollJson(s, slow)).toMatchObject({ service_task: { status: "running" } });
  });

  it("setDialect changes the dialect of tasks created afterwards", async () => {
    const s = await sim();
    s.setDialect("string_error");
    const id = await createVideo(s);
    expect(await pollJson(s, id)).toEqual({ task_id: id, status: "Running" });
  });
});
