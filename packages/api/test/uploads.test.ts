/**
 * POST /v1/uploads and GET /v1/uploads/{id} over dynalite and s3rver, and upload:// references in
 * a create: each refusal is a 400 naming the field (or a 404 for another project's upload on its
 * own route) with nothing stored or recorded.
 */
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "@reelay/core/domain";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { solidPng } from "../../simulator/src/png.ts";
import { call, newKey } from "./support/full-app.ts";
import { API_KEY, harness, type Harness } from "./support/harness.ts";
import { firstFrame, MP4 } from "./support/uploads.ts";

const DAY_MS = 86_400_000;

let aws: LocalAws;
let h: Harness;

beforeAll(async () => {
  aws = await startLocalAws();
  h = await harness(aws);
});
afterAll(() => aws?.stop());

async function upload(key: string, bytes: Uint8Array, name: string, type = "image/png") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const response = await h.app.request("/v1/uploads", {
    method: "POST",
    headers: { Authorization: `Bearer ${key}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function storedUploads(): Promise<string[]> {
  const page = await aws.s3.send(
    new ListObjectsV2Command({ Bucket: aws.bucket, Prefix: "uploads/upl_" }),
  );
  return (page.Contents ?? []).map((object) => object.Key ?? "");
}

async function jobCount(key = API_KEY): Promise<number> {
  return ((await call(h, "GET", "/v1/jobs?limit=100", key)).body.data as unknown[]).length;
}

/** POST /v1/video/generations with `url` as the first frame, as `key`. */
function createWithFrame(key: string, url: string) {
  return call(h, "POST", "/v1/video/generations", key, firstFrame(url));
}

describe("POST /v1/uploads", () => {
  it("stores a PNG and answers its upload:// reference, sha256, the type read from its bytes, its size and an expiry 7 days on; the project's keys read it back", async () => {
    const writer = await newKey(h, { project: "uploaders", scopes: ["read", "write"] });
    const reader = await newKey(h, { project: "uploaders", scopes: ["read"] });
    const png = solidPng("upload-ok");
    // The claimed type is ignored: the bytes say PNG.
    const made = await upload(writer.key, png, "photo.bin", "application/octet-stream");
    expect(made.status).toBe(201);
    const { id } = made.body;
    expect(id).toMatch(/^upl_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(made.body).toMatchObject({
      url: `upload://${id}`,
      content_type: "image/png",
      size: png.length,
      sha256: (await import("node:crypto")).createHash("sha256").update(png).digest("hex"),
    });
    expect(Date.parse(made.body.expires_at) - Date.parse(made.body.created_at)).toBe(7 * DAY_MS);
    expect(await storedUploads()).toContain(`uploads/${id}`);
    const read = await call(h, "GET", `/v1/uploads/${id}`, reader.key);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(made.body);
  });

  it("refuses a text file named .png with 400 invalid_upload at `file`, and stores nothing", async () => {
    const before = await storedUploads();
    const made = await upload(API_KEY, new TextEncoder().encode("not an image at all\n"), "x.png");
    expect(made.status).toBe(400);
    expect(made.body.error).toMatchObject({ code: "invalid_upload", path: "file" });
    expect(await storedUploads()).toEqual(before);
  });

  it("refuses an image over the size limit with 400 upload_too_large at `file`, and stores nothing", async () => {
    const before = await storedUploads();
    const big = new Uint8Array(MAX_UPLOAD_BYTES.image + 1);
    big.set(solidPng("big"));
    const made = await upload(API_KEY, big, "big.png");
    expect(made.status).toBe(400);
    expect(made.body.error).toMatchObject({ code: "upload_too_large", path: "file" });
    expect(await storedUploads()).toEqual(before);
  });

  it("stores an MP4 as video/mp4", async () => {
    const made = await upload(API_KEY, MP4, "clip.mp4", "video/mp4");
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ content_type: "video/mp4", size: MP4.length });
  });
});

describe("upload:// references in a create", () => {
  it("a first frame given as an upload makes the job, which records the upload:// reference", async () => {
    const made = await upload(API_KEY, solidPng("frame"), "frame.png");
    const created = await createWithFrame(API_KEY, made.body.url);
    expect(created.status).toBe(200);
    const job = await h.jobs.require(created.body.task_id);
    expect(JSON.stringify(job.request)).toContain(made.body.url);
    expect(JSON.stringify(job.request)).not.toContain("X-Amz-Signature");
  });

  it("an unknown upload is 400 invalid_request naming the field with unknown_upload, and no job is recorded", async () => {
    const jobs = await jobCount();
    const started = h.starter.started.length;
    const unknown = "upload://upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS";
    const created = await createWithFrame(API_KEY, unknown);
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({
      code: "invalid_request",
      path: "frame_images[0].image_url.url",
    });
    expect(created.body.error.errors[0]).toMatchObject({ code: "unknown_upload" });
    expect(await jobCount()).toBe(jobs);
    expect(h.starter.started).toHaveLength(started);
  });

  it("another project's upload is 404 upload_not_found on its route, and a create naming it is refused as unknown with nothing recorded", async () => {
    const owner = await newKey(h, { project: "owners", scopes: ["read", "write"] });
    const stranger = await newKey(h, { project: "strangers", scopes: ["read", "write"] });
    const made = await upload(owner.key, solidPng("theirs"), "theirs.png");
    const seen = await call(h, "GET", `/v1/uploads/${made.body.id}`, stranger.key);
    expect(seen.status).toBe(404);
    expect(seen.body.error.code).toBe("upload_not_found");
    const unknown = await call(h, "GET", "/v1/uploads/upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS", owner.key);
    expect(unknown.body.error).toEqual({ ...seen.body.error, message: unknown.body.error.message });

    const created = await createWithFrame(stranger.key, made.body.url);
    expect(created.status).toBe(400);
    expect(created.body.error.errors[0]).toMatchObject({
      code: "unknown_upload",
      path: "frame_images[0].image_url.url",
    });
    expect(await jobCount(stranger.key)).toBe(0);
  });

  it("a batch line naming another project's upload is a rejected line with unknown_upload at the field; the line naming its own upload makes a job", async () => {
    const owner = await newKey(h, { project: "batch-owners", scopes: ["read", "write"] });
    const stranger = await newKey(h, { project: "batch-strangers", scopes: ["read", "write"] });
    const theirs = await upload(owner.key, solidPng("batch-theirs"), "theirs.png");
    const mine = await upload(stranger.key, solidPng("batch-mine"), "mine.png");
    const made = await call(h, "POST", "/v1/batches", stranger.key, {
      requests: [firstFrame(theirs.body.url), firstFrame(mine.body.url)],
    });
    expect(made.status).toBe(200);
    expect(made.body.total).toBe(2);
    const results = await h.app.request(`/v1/batches/${made.body.id}/results`, {
      headers: { Authorization: `Bearer ${stranger.key}` },
    });
    const lines = (await results.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, any>);
    expect(lines[0]).toMatchObject({ line: 1, status: "rejected", job_id: null });
    expect(JSON.stringify(lines[0]?.error)).toContain("unknown_upload");
    expect(lines[1]?.job_id).toMatch(/^vidtsk_/);
  });

  it("a video upload given as a first frame is upload_kind_mismatch at that field", async () => {
    const made = await upload(API_KEY, MP4, "clip.mp4", "video/mp4");
    const created = await createWithFrame(API_KEY, made.body.url);
    expect(created.status).toBe(400);
    expect(created.body.error.errors[0]).toMatchObject({
      code: "upload_kind_mismatch",
      path: "frame_images[0].image_url.url",
    });
  });
});
