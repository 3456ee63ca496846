import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { auth, created, harness, succeed } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

interface View {
  id: string;
  status: string;
  error: { code: string; message: string; status?: string; path?: string } | null;
  history: { status: string; at: string; note?: string }[];
}

async function withStopper() {
  const stopped: string[] = [];
  const h = await harness(aws, { stopper: { stop: async (id) => void stopped.push(id) } });
  const cancel = (id: string) =>
    h.app.request(`/v1/jobs/${id}/cancel`, { method: "POST", headers: auth });
  return { ...h, stopped, cancel };
}

describe("POST /v1/jobs/{id}/cancel", () => {
  it("a queued job answers 200 with the cancelled job, stops its execution once and emits one Generation Cancelled", async () => {
    const h = await withStopper();
    const id = await created(h);
    const response = await h.cancel(id);
    expect(response.status).toBe(200);
    const view = (await response.json()) as View;
    expect(view).toMatchObject({ id, status: "cancelled", error: { code: "cancelled" } });
    expect(view.history.map((entry) => entry.status)).toEqual(["queued", "cancelled"]);
    expect(h.stopped).toEqual([id]);
    expect(h.sink.emitted.map((event) => [event["detail-type"], event.detail.jobId])).toEqual([
      ["Generation Cancelled", id],
    ]);
    expect((await h.jobs.require(id)).status).toBe("cancelled");
  });

  it("a running or downloading job can be cancelled too", async () => {
    const h = await withStopper();
    for (const status of ["running", "downloading"] as const) {
      const id = await created(h);
      await h.jobs.transition(id, { from: ["queued"], to: "running" });
      if (status === "downloading")
        await h.jobs.transition(id, { from: ["running"], to: "downloading" });
      expect((await h.cancel(id)).status).toBe(200);
      expect((await h.jobs.require(id)).status).toBe("cancelled");
    }
    expect(h.sink.emitted).toHaveLength(2);
  });

  it("a terminal job is 409 job_not_cancellable naming its status, with no event and no stop", async () => {
    const h = await withStopper();
    const done = await created(h);
    await succeed(h, done, new Uint8Array([1, 2, 3]));
    const cancelled = await created(h);
    await h.cancel(cancelled);
    const emittedBefore = h.sink.emitted.length;

    for (const [id, status] of [
      [done, "succeeded"],
      [cancelled, "cancelled"],
    ] as const) {
      const response = await h.cancel(id);
      expect(response.status).toBe(409);
      const { error } = (await response.json()) as {
        error: { code: string; message: string; status: string };
      };
      expect(error.code).toBe("job_not_cancellable");
      expect(error.status).toBe(status);
      expect(error.message).toContain(status);
    }
    expect((await h.jobs.require(done)).status).toBe("succeeded");
    expect(h.sink.emitted).toHaveLength(emittedBefore);
    expect(h.stopped).toEqual([cancelled]);
  });

  it("an unknown job is 404 job_not_found and stops nothing", async () => {
    const h = await withStopper();
    const response = await h.cancel("vidtsk_01J0000000000000000000000Z");
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      "job_not_found",
    );
    expect(h.stopped).toEqual([]);
  });

  it("cancel needs the API key: 401 without it, and the job stays queued", async () => {
    const h = await withStopper();
    const id = await created(h);
    const response = await h.app.request(`/v1/jobs/${id}/cancel`, { method: "POST" });
    expect(response.status).toBe(401);
    expect((await h.jobs.require(id)).status).toBe("queued");
  });

  it("without a stopper the job is still cancelled (its execution ends at its next step)", async () => {
    const h = await harness(aws);
    const id = await created(h);
    const response = await h.app.request(`/v1/jobs/${id}/cancel`, {
      method: "POST",
      headers: auth,
    });
    expect(response.status).toBe(200);
    expect((await h.jobs.require(id)).status).toBe("cancelled");
  });
});
