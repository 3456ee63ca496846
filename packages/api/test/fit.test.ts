import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { harness, json } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

const FIVE_ON_OS2 = { model: "os-2", prompt: "a lighthouse at dusk", duration_sec: 5 };
const MOVED = [{ path: "duration_sec", from: 5, to: 4 }];

interface Answer {
  task_id: string;
  adjustments?: unknown;
  error: { code: string; path?: string; errors?: { path: string; code: string }[] };
}

describe("fit on the contract's create route (X-Reelay-Fit)", () => {
  it("nearest turns os-2's duration_sec 5 into 4, answered and kept on the job as its adjustment", async () => {
    const h = await harness(aws);
    const response = await h.post(FIVE_ON_OS2, { "X-Reelay-Fit": "nearest" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Answer;
    expect(body.adjustments).toEqual(MOVED);

    const job = await h.jobs.get(body.task_id);
    expect(job?.adjustments).toEqual(MOVED);
    expect(job?.request).toMatchObject({ duration_sec: 4 });
    expect(h.starter.started.map((started) => started.request)).toEqual([job?.request]);
    const view = (await (await h.get(`/v1/jobs/${body.task_id}`)).json()) as Answer;
    expect(view.adjustments).toEqual(MOVED);
  });

  it("without fit the same request is 400 invalid_request at duration_sec, nothing made", async () => {
    const h = await harness(aws);
    const response = await h.post(FIVE_ON_OS2);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as Answer;
    expect(error).toMatchObject({ code: "invalid_request", path: "duration_sec" });
    expect(error.errors?.map((issue) => [issue.path, issue.code])).toEqual([
      ["duration_sec", "duration_not_allowed"],
    ]);
    expect(h.starter.started).toEqual([]);
  });

  it("a job made without fit, or with nothing to move, carries no adjustments", async () => {
    const h = await harness(aws);
    const body = (await (
      await h.post({ ...FIVE_ON_OS2, duration_sec: 8 }, { "X-Reelay-Fit": "nearest" })
    ).json()) as Answer;
    expect(body.adjustments).toBeUndefined();
    expect((await h.jobs.get(body.task_id))?.adjustments).toBeUndefined();
  });

  it("a material the model cannot take is refused even with fit", async () => {
    const h = await harness(aws);
    const frame = (frame_type: string) => ({
      type: "image_url",
      frame_type,
      image_url: { url: "https://cdn.example.com/a.png" },
    });
    const response = await h.post(
      { ...FIVE_ON_OS2, frame_images: [frame("first_frame"), frame("last_frame")] },
      { "X-Reelay-Fit": "nearest" },
    );
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as Answer;
    expect(error.errors?.map((issue) => issue.code)).toContain("last_frame_unsupported");
  });

  it("any other X-Reelay-Fit is 400 invalid_fit naming the header", async () => {
    const h = await harness(aws);
    const response = await h.post(FIVE_ON_OS2, { "X-Reelay-Fit": "closest" });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as Answer;
    expect(error).toMatchObject({ code: "invalid_fit", path: "X-Reelay-Fit" });
  });
});

describe("fit on the contract's image create (X-Reelay-Fit)", () => {
  it("an image_size the model does not offer moves to the nearest it does, kept on the job", async () => {
    const h = await harness(aws);
    const response = await h.app.request("/v1/chat/completions", {
      method: "POST",
      headers: { ...json, "X-Reelay-Fit": "nearest" },
      body: JSON.stringify({
        model: "deltaq2-image",
        messages: [{ role: "user", content: "a red kite" }],
        modalities: ["image", "text"],
        image_config: { image_size: "720p" },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Answer;
    const moved = [{ path: "image_config.image_size", from: "720p", to: "1080p" }];
    expect(body.adjustments).toEqual(moved);
    const job = await h.jobs.get(body.task_id);
    expect(job?.adjustments).toEqual(moved);
    expect(job?.request).toMatchObject({ image_config: { image_size: "1080p" } });
  });
});

describe("fit on a batch (the body's fit)", () => {
  const batch = async (h: Awaited<ReturnType<typeof harness>>, body: unknown, query = "") =>
    h.app.request(`/v1/batches${query}`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(body),
    });

  it("a dry run shows each fitted line's adjustments and the request it would send", async () => {
    const h = await harness(aws);
    const response = await batch(
      h,
      { requests: [FIVE_ON_OS2, { ...FIVE_ON_OS2, duration_sec: 8 }], fit: "nearest" },
      "?dry_run=true",
    );
    expect(response.status).toBe(200);
    const quote = (await response.json()) as Record<string, unknown>;
    expect(quote).toMatchObject({ dry_run: true, total: 2, valid: 2, rejected: [] });
    expect(quote.fitted).toEqual([
      { line: 1, adjustments: MOVED, request: expect.objectContaining({ duration_sec: 4 }) },
    ]);
    expect(await h.jobs.list({ limit: 10 })).toMatchObject({ jobs: [] });
  });

  it("its lines' jobs carry their adjustments; without fit the line is rejected as before", async () => {
    const h = await harness(aws);
    const fitted = (await (await batch(h, { requests: [FIVE_ON_OS2], fit: "nearest" })).json()) as {
      id: string;
    };
    const { jobs } = await h.jobs.list({ limit: 10 });
    expect(jobs.map((job) => [job.batchId, job.adjustments])).toEqual([[fitted.id, MOVED]]);

    const quote = (await (await batch(h, { requests: [FIVE_ON_OS2] }, "?dry_run=true")).json()) as {
      rejected: { line: number; errors: { code: string }[] }[];
      fitted?: unknown;
    };
    expect(quote.rejected).toMatchObject([{ line: 1, errors: [{ code: "duration_not_allowed" }] }]);
    expect(quote.fitted).toBeUndefined();
  });

  it("a body's fit other than nearest is 400 invalid_fit at fit", async () => {
    const h = await harness(aws);
    const response = await batch(h, { requests: [FIVE_ON_OS2], fit: true });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as Answer;
    expect(error).toMatchObject({ code: "invalid_fit", path: "fit" });
  });
});
