/**
 * The client's uploads.create over reelay's API app, dynalite and s3rver: a file above 8 MiB (or
 * any with `method: "put"`) goes by presigned PUT straight to the bucket and is completed; a
 * smaller one is one multipart POST. Either way the upload comes back ready.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { API_KEY, harness, type Harness } from "../../api/test/support/harness.ts";
import { solidPng } from "../../simulator/src/png.ts";
import { createClient, type ReelayClient } from "../src/index.ts";
import { PUT_ABOVE_BYTES } from "../src/uploads.ts";

const BASE_URL = "http://reelay.test";

let aws: LocalAws;
let h: Harness;
/** Each request the client made: method, URL and content type. */
let sent: { method: string; url: string; type: string | null }[] = [];
let client: ReelayClient;

beforeAll(async () => {
  aws = await startLocalAws();
  h = await harness(aws);
  // reelay's own routes go to the app; the presigned PUT goes to s3rver over the network.
  client = createClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    fetch: (request) => {
      sent.push({
        method: request.method,
        url: request.url,
        type: request.headers.get("content-type"),
      });
      return request.url.startsWith(BASE_URL)
        ? Promise.resolve(h.app.request(request))
        : fetch(request);
    },
  });
});
afterAll(() => aws?.stop());

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

describe("uploads.create", () => {
  it("above 8 MiB: declares the file, PUTs the bytes to the bucket (not to reelay), completes it, and resolves with the ready upload", async () => {
    const big = new Uint8Array(PUT_ABOVE_BYTES + 1024);
    big.set(solidPng("client-big"));
    sent = [];
    const upload = await client.uploads.create(big, { name: "big.png" });
    expect(upload).toMatchObject({ status: "ready", size: big.length, sha256: sha256(big) });
    expect(sent.map((r) => r.method)).toEqual(["POST", "PUT", "POST"]);
    expect(sent[0]).toMatchObject({ url: `${BASE_URL}/v1/uploads`, type: "application/json" });
    expect(sent[1]?.url.startsWith(BASE_URL)).toBe(false);
    expect(sent[1]?.type).toBe("image/png");
    expect(sent[2]?.url).toBe(`${BASE_URL}/v1/uploads/${upload.id}/complete`);
  });

  it("a small file is one multipart POST, unless asked for the PUT", async () => {
    const png = solidPng("client-small");
    sent = [];
    const posted = await client.uploads.create(png);
    expect(posted).toMatchObject({ status: "ready", sha256: sha256(png) });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.type).toMatch(/^multipart\/form-data/);
    sent = [];
    const put = await client.uploads.create(new Blob([new Uint8Array(png)]), { method: "put" });
    expect(put).toMatchObject({ status: "ready", sha256: sha256(png), content_type: "image/png" });
    expect(sent.map((r) => r.method)).toEqual(["POST", "PUT", "POST"]);
  });

  it("bytes that are no image or video reelay takes are refused with the API's invalid_upload, before any PUT", async () => {
    const text = new TextEncoder().encode("plain words, not a picture\n");
    sent = [];
    await expect(client.uploads.create(text, { method: "put" })).rejects.toMatchObject({
      code: "invalid_upload",
      status: 400,
    });
    expect(sent.map((r) => r.method)).toEqual(["POST"]);
  });
});
