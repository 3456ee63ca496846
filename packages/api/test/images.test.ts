import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { solidPng } from "../../simulator/src/png.ts";
import type { ImageTaskView } from "../src/image-view.ts";
import { sizeToImageConfig } from "../src/image-edit.ts";
import { readWait } from "../src/wait.ts";
import { auth, harness, json, VALID, type Harness } from "./support/harness.ts";
import { kindedRequest, defaultCatalog, type ImageModelSpec } from "@reelay/core/domain";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

const IMAGE = {
  model: "deltaq2-image",
  messages: [{ role: "user", content: "a lighthouse at dusk" }],
  modalities: ["image", "text"],
  image_config: { aspect_ratio: "16:9" },
};
const DELTA_IMAGE = defaultCatalog.get("deltaq2-image") as ImageModelSpec;

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function chat(
  h: Harness,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return h.app.request("/v1/chat/completions", {
    method: "POST",
    headers: { ...json, ...headers },
    body: JSON.stringify(body),
  });
}

async function edit(
  h: Harness,
  fields: [string, string | Blob][],
  query = "",
  headers: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return h.app.request(`/v1/images/edits${query}`, {
    method: "POST",
    headers: { ...auth, ...headers },
    body: form,
  });
}

function png(seed: string): Blob {
  return new Blob([new Uint8Array(solidPng(seed))], { type: "image/png" });
}

async function download(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

/** Two stored images and the job succeeded, the way Download and Finish leave an image job. */
async function succeedWithImages(h: Harness, id: string): Promise<Uint8Array[]> {
  const images = [new Uint8Array(solidPng("one")), new Uint8Array(solidPng("two"))];
  const outputs = await Promise.all(
    images.map(async (bytes, i) => {
      const key = `outputs/${id}/image-${i + 1}.png`;
      await h.objects.put(key, bytes, { contentType: "image/png" });
      return {
        bucket: h.objects.bucket,
        key,
        bytes: bytes.length,
        sha256: sha256(bytes),
        contentType: "image/png",
      };
    }),
  );
  await h.jobs.transition(id, {
    from: ["queued"],
    to: "succeeded",
    set: { outputs, finishedAt: new Date().toISOString() },
  });
  return images;
}

describe("POST /v1/chat/completions (image)", () => {
  it("creates and starts an imgtsk_ job and answers the task shape with model and warnings", async () => {
    const h = await harness(aws);
    const response = await chat(h, IMAGE);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { task_id: string; [k: string]: unknown };
    expect(body.task_id).toMatch(/^imgtsk_[0-9A-Z]{26}$/);
    expect(body).toEqual({
      service_task: { task_id: body.task_id, status: "queued" },
      task_id: body.task_id,
      status: "queued",
      model: "deltaq2-image",
      requested_model: "deltaq2-image",
      warnings: [],
      // No price table here: usage only.
      estimate: {
        usage: { unit: "image", quantity: 1, tier: null, reference_images: 0 },
        cost: null,
        currency: null,
        price_version: null,
      },
    });
    expect(h.starter.started.map((job) => [job.id, job.kind])).toEqual([[body.task_id, "image"]]);
  });

  it("a video body answers 400 wrong_endpoint naming /v1/video/generations and records no job", async () => {
    const h = await harness(aws);
    const response = await chat(h, VALID);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; endpoint: string } };
    expect(body.error.code).toBe("wrong_endpoint");
    expect(body.error.endpoint).toBe("/v1/video/generations");
    expect(h.starter.started).toEqual([]);
  });

  it("an invalid image request answers 400 invalid_request with the field path", async () => {
    const h = await harness(aws);
    const response = await chat(h, { ...IMAGE, image_config: { image_size: "8K" } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; path: string } };
    expect(body.error).toMatchObject({ code: "invalid_request", path: "image_config.image_size" });
  });

  it("the same X-Idempotency-Key twice answers the same job and starts no other", async () => {
    const h = await harness(aws);
    const first = (await (await chat(h, IMAGE, { "X-Idempotency-Key": "img-1" })).json()) as {
      task_id: string;
    };
    const second = (await (await chat(h, IMAGE, { "X-Idempotency-Key": "img-1" })).json()) as {
      task_id: string;
    };
    expect(second.task_id).toBe(first.task_id);
    expect(first.task_id).toMatch(/^imgtsk_/);
    // A repeat restarts a job still queued (starters are idempotent per id), never a second job.
    expect(new Set(h.starter.started.map((job) => job.id))).toEqual(new Set([first.task_id]));
  });
});

describe("GET /v1/image/tasks/{taskId}", () => {
  it("a queued job answers its status without images or data", async () => {
    const h = await harness(aws);
    const { task_id } = (await (await chat(h, IMAGE)).json()) as { task_id: string };
    const body = (await (await h.get(`/v1/image/tasks/${task_id}`)).json()) as ImageTaskView;
    expect(body).toEqual({
      service_task: { task_id, status: "queued" },
      task_id,
      status: "queued",
      model: "deltaq2-image",
      error: null,
    });
  });

  it("a succeeded job lists every stored image with a presigned URL that downloads exactly its bytes and sha256", async () => {
    const h = await harness(aws);
    const { task_id } = (await (await chat(h, IMAGE)).json()) as { task_id: string };
    const stored = await succeedWithImages(h, task_id);
    const body = (await (await h.get(`/v1/image/tasks/${task_id}`)).json()) as ImageTaskView;
    expect(body.status).toBe("succeeded");
    expect(body.images?.map((image) => [image.bytes, image.sha256, image.content_type])).toEqual(
      stored.map((bytes) => [bytes.length, sha256(bytes), "image/png"]),
    );
    expect(body.data).toEqual(body.images?.map((image) => ({ url: image.url })));
    for (const [i, image] of (body.images ?? []).entries())
      expect(sha256(await download(image.url))).toBe(sha256(stored[i]!));
  });

  it("answers 404 for a video job's id and for an unknown id", async () => {
    const h = await harness(aws);
    const video = (await (await h.post(VALID)).json()) as { task_id: string };
    expect((await h.get(`/v1/image/tasks/${video.task_id}`)).status).toBe(404);
    expect((await h.get("/v1/image/tasks/imgtsk_01JAAAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
  });
});

describe("POST /v1/images/edits", () => {
  it("stores each upload under uploads/<jobId>/ and passes presigned reference_images; n and size mapped", async () => {
    const h = await harness(aws);
    const a = png("a");
    const b = png("b");
    const response = await edit(h, [
      ["image[]", a],
      ["image[]", b],
      ["prompt", "make the sky purple"],
      ["n", "2"],
      ["size", "1536x1024"],
    ]);
    expect(response.status).toBe(200);
    const { task_id } = (await response.json()) as { task_id: string };
    const job = await h.jobs.require(task_id);
    expect(job).toMatchObject({ kind: "image", model: "deltaq2-image", mode: "edit" });
    const typed = kindedRequest(job.request);
    if (typed.kind !== "image_edit") throw new Error(`an image edit was recorded as ${typed.kind}`);
    const { request } = typed;
    expect(request.messages).toEqual([{ role: "user", content: "make the sky purple" }]);
    expect(request.output_image_count).toBe(2);
    expect(request.image_config.aspect_ratio).toBe("3:2");
    expect(request.image_config.image_size).toBe("1080p");
    const refs = request.image_config.reference_images;
    expect(refs.map((ref) => ref.type)).toEqual(["url", "url"]);
    expect(refs.map((ref) => new URL(ref.url).pathname)).toEqual([
      expect.stringMatching(new RegExp(`/uploads/${task_id}/ref-1-[0-9a-f]{16}\\.png$`)),
      expect.stringMatching(new RegExp(`/uploads/${task_id}/ref-2-[0-9a-f]{16}\\.png$`)),
    ]);
    expect(sha256(await download(refs[0]!.url))).toBe(
      sha256(new Uint8Array(await a.arrayBuffer())),
    );
    expect(sha256(await download(refs[1]!.url))).toBe(
      sha256(new Uint8Array(await b.arrayBuffer())),
    );
    expect(h.starter.started.map((started) => started.id)).toEqual([task_id]);
  });

  it("response_format=b64_json answers 400 unsupported_response_format and records no job", async () => {
    const h = await harness(aws);
    const response = await edit(h, [
      ["image", png("a")],
      ["prompt", "x"],
      ["response_format", "b64_json"],
    ]);
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: { code: string; path: string; message: string };
    };
    expect(body.error).toMatchObject({
      code: "unsupported_response_format",
      path: "response_format",
    });
    expect(body.error.message).toContain("response_format=url");
    expect(h.starter.started).toEqual([]);
  });

  it("with X-Reelay-Reuse, an edit of the same image bytes follows the first (each stored under its own job, the fingerprint the same); other bytes make their own", async () => {
    const h = await harness(aws);
    const reuse = { "X-Reelay-Reuse": "1h" };
    const fields = (image: Blob): [string, string | Blob][] => [
      ["image", image],
      ["prompt", "make it snow"],
    ];
    const ids: string[] = [];
    for (const seed of ["same", "same", "other"]) {
      const response = await edit(h, fields(png(seed)), "", reuse);
      expect(response.status).toBe(200);
      ids.push(((await response.json()) as { task_id: string }).task_id);
    }
    const [first, second, other] = await Promise.all(ids.map((id) => h.jobs.require(id)));
    expect(first?.reusedFrom).toBeUndefined();
    expect(second).toMatchObject({ reusedFrom: first?.id, fingerprint: first?.fingerprint });
    expect(other?.reusedFrom).toBeUndefined();
    expect(other?.fingerprint).not.toBe(first?.fingerprint);
  });

  it("a JSON body answers 400 invalid_content_type naming multipart/form-data", async () => {
    const h = await harness(aws);
    const response = await h.app.request("/v1/images/edits", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ prompt: "x" }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_content_type");
    expect(body.error.message).toContain("multipart/form-data");
  });

  it("refuses 8 images, a file that is not an image, and a missing prompt with 400", async () => {
    const h = await harness(aws);
    const eight = Array.from({ length: 8 }, (_, i): [string, Blob] => ["image[]", png(String(i))]);
    const tooMany = await edit(h, [...eight, ["prompt", "x"]]);
    expect(tooMany.status).toBe(400);
    const notImage = await edit(h, [
      ["image", new Blob(["hello"], { type: "image/png" })],
      ["prompt", "x"],
    ]);
    expect(((await notImage.json()) as { error: { code: string } }).error.code).toBe(
      "invalid_image",
    );
    const noPrompt = await edit(h, [["image", png("a")]]);
    expect(((await noPrompt.json()) as { error: { path: string } }).error.path).toBe("prompt");
    expect(h.starter.started).toEqual([]);
  });

  it("the same X-Idempotency-Key with the same images answers the same job; with another image 409 idempotency_conflict", async () => {
    const h = await harness(aws);
    const key = { "X-Idempotency-Key": "edit-1" };
    const first = (await (
      await edit(
        h,
        [
          ["image", png("a")],
          ["prompt", "x"],
        ],
        "",
        key,
      )
    ).json()) as { task_id: string };
    const again = await edit(
      h,
      [
        ["image", png("a")],
        ["prompt", "x"],
      ],
      "",
      key,
    );
    expect(again.status).toBe(200);
    expect(((await again.json()) as { task_id: string }).task_id).toBe(first.task_id);
    const other = await edit(
      h,
      [
        ["image", png("b")],
        ["prompt", "x"],
      ],
      "",
      key,
    );
    expect(other.status).toBe(409);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe(
      "idempotency_conflict",
    );
  });

  it("with ?wait=1 on a job that does not finish in time answers 202 with the task shape", async () => {
    const h = await harness(aws);
    const response = await edit(
      h,
      [
        ["image", png("a")],
        ["prompt", "x"],
      ],
      "?wait=1",
    );
    expect(response.status).toBe(202);
    const body = (await response.json()) as { task_id: string; status: string };
    expect(body.status).toBe("queued");
    expect(body.task_id).toMatch(/^imgtsk_/);
  });

  it("with Prefer: wait=5 on a job that succeeds meanwhile answers OpenAI's {created, data:[{url}]}", async () => {
    const h = await harness(aws);
    // The stand-in starter finishes the job the way the pipeline would, a moment after the start.
    const finished = new Promise<Uint8Array[]>((resolve) => {
      h.starter.start = async (job) => {
        setTimeout(() => void succeedWithImages(h, job.id).then(resolve), 300);
      };
    });
    const response = await edit(
      h,
      [
        ["image", png("a")],
        ["prompt", "x"],
      ],
      "",
      { Prefer: "respond-async, wait=5" },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { created: number; data: { url: string }[] };
    const stored = await finished;
    expect(Number.isInteger(body.created)).toBe(true);
    expect(body.data).toHaveLength(2);
    expect(sha256(await download(body.data[1]!.url))).toBe(sha256(stored[1]!));
  });
});

describe("edit helpers", () => {
  it("readWait takes ?wait or Prefer: wait=, caps both at 60 (or the deployment's lower maxWaitS) and ignores a Prefer without wait", () => {
    expect(readWait("30", undefined)).toBe(30);
    expect(readWait("600", undefined)).toBe(60);
    expect(readWait(undefined, "respond-async, wait=12")).toBe(12);
    expect(readWait(undefined, "wait=999")).toBe(60);
    expect(readWait(undefined, "respond-async")).toBeUndefined();
    expect(readWait(undefined, undefined)).toBeUndefined();
    expect(readWait("30", undefined, 20)).toBe(20);
    expect(readWait(undefined, "wait=25", 20)).toBe(20);
    expect(() => readWait("soon", undefined)).toThrow(/whole number/);
  });

  it("sizeToImageConfig maps WIDTHxHEIGHT or a tier name (2K) to the model's closest ratio and the covering image_size tier", () => {
    expect(sizeToImageConfig("1024x1024", DELTA_IMAGE)).toEqual({
      aspect_ratio: "1:1",
      image_size: "1080p",
    });
    expect(sizeToImageConfig("1024x1536", DELTA_IMAGE)).toEqual({
      aspect_ratio: "2:3",
      image_size: "1080p",
    });
    expect(sizeToImageConfig("3840x2160", DELTA_IMAGE)).toEqual({
      aspect_ratio: "16:9",
      image_size: "4K",
    });
    expect(sizeToImageConfig("2048x1152", DELTA_IMAGE)).toEqual({
      aspect_ratio: "16:9",
      image_size: "2K",
    });
    expect(sizeToImageConfig("auto", DELTA_IMAGE)).toEqual({ aspect_ratio: "auto" });
    expect(sizeToImageConfig("2k", DELTA_IMAGE)).toEqual({ image_size: "2K" });
    expect(sizeToImageConfig("1000x500", undefined)).toEqual({ aspect_ratio: "2:1" });
    expect(() => sizeToImageConfig("big", DELTA_IMAGE)).toThrow(/WIDTHxHEIGHT/);
  });
});
