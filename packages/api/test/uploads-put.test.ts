/**
 * POST /v1/uploads with a JSON body (a presigned PUT) and POST /v1/uploads/{id}/complete over
 * dynalite and s3rver: the bytes go straight to s3rver with fetch, and only a complete that finds
 * them to be what was declared makes a usable upload. Each refusal is a 400 naming the field, with
 * the staged bytes gone and nothing usable.
 */
import { createHash } from "node:crypto";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "@reelay/core/domain";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { solidPng } from "../../simulator/src/png.ts";
import { call, type Json, newKey } from "./support/full-app.ts";
import { API_KEY, harness, type Harness } from "./support/harness.ts";
import { firstFrame, MP4 } from "./support/uploads.ts";

let aws: LocalAws;
let h: Harness;

beforeAll(async () => {
  aws = await startLocalAws();
  h = await harness(aws);
});
afterAll(() => aws?.stop());

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function declare(key: string, body: Json) {
  return call(h, "POST", "/v1/uploads", key, body);
}

/** PUTs `bytes` to the presigned URL with the headers the create answered. */
async function putBytes(made: Json, bytes: Uint8Array): Promise<number> {
  const response = await fetch(made.put.url, {
    method: made.put.method,
    headers: made.put.headers,
    body: new Uint8Array(bytes),
  });
  await response.arrayBuffer();
  return response.status;
}

function complete(key: string, id: string) {
  return call(h, "POST", `/v1/uploads/${id}/complete`, key);
}

/** The bucket's keys of this upload: the upload itself, its marker and its staged bytes. */
async function keysOf(id: string): Promise<string[]> {
  const page = await aws.s3.send(
    new ListObjectsV2Command({ Bucket: aws.bucket, Prefix: `uploads/${id}` }),
  );
  return (page.Contents ?? []).map((object) => object.Key ?? "").sort();
}

describe("POST /v1/uploads with JSON: a presigned PUT", () => {
  it("answers a pending upload and its PUT; the bytes PUT and completed make the upload, which GET shows ready with their sha256, and only the upload's object is left", async () => {
    const png = solidPng("put-ok");
    const made = await declare(API_KEY, {
      content_type: "image/png",
      size: png.length,
      sha256: sha256(png),
      name: "photo.png",
    });
    expect(made.status).toBe(201);
    const { id } = made.body;
    expect(made.body).toMatchObject({
      url: `upload://${id}`,
      status: "pending",
      content_type: "image/png",
      size: png.length,
      put: { method: "PUT", headers: { "content-type": "image/png" } },
    });
    expect(new URL(made.body.put.url).searchParams.get("X-Amz-Signature")).toBeTruthy();
    const putFor = Date.parse(made.body.put.expires_at) - Date.parse(made.body.created_at);
    expect(putFor).toBe(15 * 60 * 1000);
    expect((await call(h, "GET", `/v1/uploads/${id}`, API_KEY)).body.status).toBe("pending");

    expect(await putBytes(made.body, png)).toBe(200);
    const done = await complete(API_KEY, id);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id, status: "ready", sha256: sha256(png), size: png.length });
    const read = await call(h, "GET", `/v1/uploads/${id}`, API_KEY);
    expect(read.body).toEqual(done.body);
    expect(await keysOf(id)).toEqual([`uploads/${id}`]);
  });

  it("the PUT signs in the declared length and type, and the sha256 when given (s3rver does not check SigV4; S3 does)", async () => {
    const png = solidPng("put-signed");
    const plain = await declare(API_KEY, { content_type: "image/png", size: png.length });
    const signed = (made: Json) => new URL(made.put.url).searchParams.get("X-Amz-SignedHeaders");
    expect(signed(plain.body)).toBe("content-length;content-type;host");
    const summed = await declare(API_KEY, {
      content_type: "image/png",
      size: png.length,
      sha256: sha256(png),
    });
    expect(signed(summed.body)).toBe("content-length;content-type;host;x-amz-checksum-sha256");
    expect(summed.body.put.headers).toEqual({
      "content-type": "image/png",
      "x-amz-checksum-sha256": Buffer.from(sha256(png), "hex").toString("base64"),
    });
  });

  it("completing twice answers the same upload", async () => {
    const made = await declare(API_KEY, { content_type: "video/mp4", size: MP4.length });
    expect(await putBytes(made.body, MP4)).toBe(200);
    const first = await complete(API_KEY, made.body.id);
    const second = await complete(API_KEY, made.body.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ content_type: "video/mp4", sha256: sha256(MP4) });
    expect(second).toEqual(first);
  });

  it("two completes at once both answer the same upload", async () => {
    const png = solidPng("put-race");
    const made = await declare(API_KEY, { content_type: "image/png", size: png.length });
    await putBytes(made.body, png);
    const [a, b] = await Promise.all([
      complete(API_KEY, made.body.id),
      complete(API_KEY, made.body.id),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body).toEqual(a.body);
    expect(await keysOf(made.body.id)).toEqual([`uploads/${made.body.id}`]);
  });

  it("text bytes declared image/png are 400 invalid_upload at `file` at complete: nothing usable, the staged bytes gone", async () => {
    const text = new TextEncoder().encode("not an image at all\n");
    const made = await declare(API_KEY, { content_type: "image/png", size: text.length });
    expect(await putBytes(made.body, text)).toBe(200);
    const done = await complete(API_KEY, made.body.id);
    expect(done.status).toBe(400);
    expect(done.body.error).toMatchObject({ code: "invalid_upload", path: "file" });
    expect(await keysOf(made.body.id)).toEqual([]);
    expect((await call(h, "GET", `/v1/uploads/${made.body.id}`, API_KEY)).status).toBe(404);
  });

  it("bytes of another length than declared are 400 invalid_upload at `file` at complete, and nothing is left", async () => {
    const png = solidPng("put-longer");
    const made = await declare(API_KEY, { content_type: "image/png", size: png.length });
    // S3 refuses a body of another length than the signed one; s3rver takes it, and complete checks.
    await putBytes(made.body, new Uint8Array([...png, 0, 0]));
    const done = await complete(API_KEY, made.body.id);
    expect(done.status).toBe(400);
    expect(done.body.error).toMatchObject({ code: "invalid_upload", path: "file" });
    expect(await keysOf(made.body.id)).toEqual([]);
  });

  it("a sha256 the bytes do not have is 400 invalid_upload at `sha256`, and nothing is left", async () => {
    const png = solidPng("put-wrong-sum");
    const made = await declare(API_KEY, {
      content_type: "image/png",
      size: png.length,
      sha256: sha256(new TextEncoder().encode("other bytes")),
    });
    // s3rver does not check the signed checksum itself; S3 refuses the PUT, and complete checks anyway.
    await putBytes(made.body, png);
    const done = await complete(API_KEY, made.body.id);
    expect(done.status).toBe(400);
    expect(done.body.error).toMatchObject({ code: "invalid_upload", path: "sha256" });
    expect(await keysOf(made.body.id)).toEqual([]);
  });

  it("a declared size over the limit is 400 upload_too_large at `size`, and nothing is made", async () => {
    const made = await declare(API_KEY, {
      content_type: "image/png",
      size: MAX_UPLOAD_BYTES.image + 1,
    });
    expect(made.status).toBe(400);
    expect(made.body.error).toMatchObject({ code: "upload_too_large", path: "size" });
  });

  it("a JSON body over 16 KiB is 413 payload_too_large", async () => {
    const made = await declare(API_KEY, {
      content_type: "image/png",
      size: 10,
      name: "x".repeat(20_000),
    });
    expect(made.status).toBe(413);
    expect(made.body.error.code).toBe("payload_too_large");
  });

  it("a content type that is not a taken image or video is 400 invalid_upload at `content_type`", async () => {
    const made = await declare(API_KEY, { content_type: "text/plain", size: 10 });
    expect(made.status).toBe(400);
    expect(made.body.error).toMatchObject({ code: "invalid_upload", path: "content_type" });
  });

  it("complete before the bytes were PUT is 409 upload_pending, and the upload stays pending", async () => {
    const made = await declare(API_KEY, { content_type: "image/png", size: 100 });
    const done = await complete(API_KEY, made.body.id);
    expect(done.status).toBe(409);
    expect(done.body.error.code).toBe("upload_pending");
    expect((await call(h, "GET", `/v1/uploads/${made.body.id}`, API_KEY)).body.status).toBe(
      "pending",
    );
  });

  it("another project's complete is 404 upload_not_found, as an unknown id's is", async () => {
    const owner = await newKey(h, { project: "put-owners", scopes: ["read", "write"] });
    const stranger = await newKey(h, { project: "put-strangers", scopes: ["read", "write"] });
    const png = solidPng("put-theirs");
    const made = await declare(owner.key, { content_type: "image/png", size: png.length });
    await putBytes(made.body, png);
    const theirs = await complete(stranger.key, made.body.id);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe("upload_not_found");
    const unknown = await complete(owner.key, "upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS");
    expect(unknown.status).toBe(404);
    expect((await complete(owner.key, made.body.id)).status).toBe(200);
  });

  it("a complete of what is no upload's id (7,000 characters, a ../) is 404 upload_not_found, never a 5xx", async () => {
    const { key } = await newKey(h, { project: "put-owners", scopes: ["read", "write"] });
    for (const id of ["x".repeat(7000), "..%2F..%2Fjobs", "upl_not-a-ulid"]) {
      const answer = await complete(key, id);
      expect(answer.status, id.slice(0, 20)).toBe(404);
      expect(answer.body.error.code).toBe("upload_not_found");
    }
  });

  it("a create naming a pending upload is 400 invalid_request with upload_pending at the field, and no job is recorded", async () => {
    const png = solidPng("put-pending-frame");
    const made = await declare(API_KEY, { content_type: "image/png", size: png.length });
    await putBytes(made.body, png);
    const started = h.starter.started.length;
    const created = await call(
      h,
      "POST",
      "/v1/video/generations",
      API_KEY,
      firstFrame(made.body.url),
    );
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({
      code: "invalid_request",
      path: "frame_images[0].image_url.url",
    });
    expect(created.body.error.errors[0]).toMatchObject({ code: "upload_pending" });
    expect(h.starter.started).toHaveLength(started);
  });
});
