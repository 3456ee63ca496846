import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildJob } from "@reelay/core/usecases";
import { validate } from "@reelay/core/domain";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import type { JobView, TaskView } from "../src/index.ts";
import { created, fail, harness, succeed } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

const VIDEO = new TextEncoder().encode("not really an mp4, but bytes all the same");
const FIXED_NOW = new Date("2030-01-02T03:04:05.000Z");

describe("GET /v1/video/tasks/{taskId}", () => {
  it("a queued job answers its status and no video_url, output or error", async () => {
    const h = await harness(aws);
    const id = await created(h);
    const response = await h.get(`/v1/video/tasks/${id}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as TaskView;
    expect(body).toEqual({
      service_task: { task_id: id, status: "queued" },
      task_id: id,
      status: "queued",
      error: null,
    });
  });

  it("a succeeded job answers a presigned video_url that downloads the stored bytes, with size, sha256 and expiry", async () => {
    const h = await harness(aws, { now: () => FIXED_NOW, presignTtlS: 600 });
    const id = await created(h);
    await succeed(h, id, VIDEO);
    const body = (await (await h.get(`/v1/video/tasks/${id}`)).json()) as TaskView;
    expect(body.status).toBe("succeeded");
    expect(body.service_task.status).toBe("succeeded");
    expect(body.video_url).toBeDefined();
    expect(body.service_task.output?.video_url).toBe(body.video_url);
    expect(body.output).toEqual({
      url: body.video_url,
      bytes: VIDEO.length,
      sha256: createHash("sha256").update(VIDEO).digest("hex"),
      content_type: "video/mp4",
      expires_at: "2030-01-02T03:14:05.000Z",
    });
    expect(body.error).toBeNull();
    const download = await fetch(body.video_url ?? "");
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(VIDEO);
  });

  it("a failed job answers status failed and error {code, message}, and no video_url", async () => {
    const h = await harness(aws);
    const id = await created(h);
    await fail(h, id, { code: "timeout", message: "No result before the deadline." });
    const body = (await (await h.get(`/v1/video/tasks/${id}`)).json()) as TaskView;
    expect(body).toEqual({
      service_task: { task_id: id, status: "failed" },
      task_id: id,
      status: "failed",
      error: { code: "timeout", message: "No result before the deadline." },
    });
  });

  it("an unknown id, a malformed id and an image job's id are all 404 job_not_found", async () => {
    const h = await harness(aws);
    const image = buildJob({
      validation: validate({
        model: "deltaq2-image",
        messages: [{ role: "user", content: "a cat" }],
        modalities: ["image"],
      }),
      source: { type: "api" },
    });
    expect(image.kind).toBe("image");
    await h.jobs.create(image);
    for (const id of ["vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV", "nonsense", image.id]) {
      const response = await h.get(`/v1/video/tasks/${id}`);
      expect(response.status, id).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        "job_not_found",
      );
    }
  });
});

describe("GET /v1/jobs and /v1/jobs/{id}", () => {
  it("GET /v1/jobs/{id} is the record with history, presigned outputs, error and timings", async () => {
    const h = await harness(aws);
    const id = await created(h);
    await succeed(h, id, VIDEO);
    const view = (await (await h.get(`/v1/jobs/${id}`)).json()) as JobView;
    expect(view).toMatchObject({
      id,
      kind: "video",
      status: "succeeded",
      model: "gamma-3.1",
      error: null,
      upstreamTaskId: null,
    });
    expect(view.history.map((entry) => entry.status)).toEqual(["queued", "succeeded"]);
    expect(view.outputs).toHaveLength(1);
    expect(view.outputs[0]?.bytes).toBe(VIDEO.length);
    const download = await fetch(view.outputs[0]?.url ?? "");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(VIDEO);
    expect(view.timings.createdAt).toBe(view.history[0]?.at);
    expect(view.timings.totalMs).toBeGreaterThanOrEqual(0);
    expect(view).not.toHaveProperty("lastError");
  });

  it("a presigned material URL in the request is shown without its signature", async () => {
    const h = await harness(aws);
    const signed =
      "https://bucket.s3.amazonaws.com/inbox/first.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA&X-Amz-Security-Token=secret-token&X-Amz-Signature=abc";
    const validation = validate({
      model: "gamma-3.1",
      prompt: "a boat",
      frame_images: [{ type: "image_url", frame_type: "first_frame", image_url: { url: signed } }],
    });
    expect(validation.valid).toBe(true);
    const job = buildJob({
      validation,
      source: { type: "drop", bucket: "b", key: "inbox/a.json" },
    });
    await h.jobs.create(job);
    const text = await (await h.get(`/v1/jobs/${job.id}`)).text();
    expect(text).toContain("https://bucket.s3.amazonaws.com/inbox/first.png");
    expect(text).not.toContain("secret-token");
    expect(text).not.toContain("X-Amz-Signature");
  });

  it("an unknown job id is 404 job_not_found", async () => {
    const h = await harness(aws);
    const response = await h.get("/v1/jobs/vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV");
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      "job_not_found",
    );
  });

  it("lists newest first in pages of `limit`, following next_cursor to the end, filtered by status", async () => {
    // A clock a second apart per job, so creation order is unambiguous even within one millisecond.
    let tick = 0;
    const h = await harness(aws, { now: () => new Date(Date.UTC(2030, 0, 1) + 1000 * tick++) });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1)
      ids.push(await created(h, { model: "gamma-3.1", prompt: `boat ${i}`, duration_sec: 8 }));
    await fail(h, ids[1] ?? "");
    await fail(h, ids[3] ?? "");

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string =
        cursor === null ? "?limit=2" : `?limit=2&cursor=${encodeURIComponent(cursor)}`;
      const page = (await (await h.get(`/v1/jobs${query}`)).json()) as {
        data: JobView[];
        next_cursor: string | null;
      };
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((job) => job.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const failed = (await (await h.get("/v1/jobs?status=failed")).json()) as {
      data: JobView[];
      next_cursor: string | null;
    };
    expect(failed.data.map((job) => job.id)).toEqual([ids[3], ids[1]]);
    expect(failed.next_cursor).toBeNull();
  });

  it("a bad limit, status or cursor is 400 with the query field as path", async () => {
    const h = await harness(aws);
    const forged = Buffer.from(JSON.stringify(["x", "y"])).toString("base64url");
    for (const [query, path] of [
      ["limit=0", "limit"],
      ["limit=abc", "limit"],
      ["limit=101", "limit"],
      ["status=done", "status"],
      ["cursor=%%%", "cursor"],
      [`cursor=${forged}`, "cursor"],
    ] as const) {
      const response = await h.get(`/v1/jobs?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: { path?: string } }).error.path, query).toBe(
        path,
      );
    }
  });
});
