/**
 * Multipart uploads into the local stack's s3rver (with its parts written in place, see
 * s3rver/in-place-multipart.ts), spoken to with the real SDK: whatever the parts' sizes and order,
 * the stored object is exactly the listed parts in order, with S3's multipart ETag; wrong or
 * missing parts are InvalidPart; nothing is left in the uploads folder.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  UploadPartCommand,
  type CompletedPart,
} from "@aws-sdk/client-s3";
import { ObjectStore, PART_SIZE } from "@reelay/core/adapters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandins, type Standins } from "../src/aws-standins.ts";

let dataDir: string;
let standins: Standins;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "reelay-multipart-"));
  standins = await startStandins({ dataDir, s3Port: 0 });
});
afterAll(async () => {
  await standins.close();
  await rm(dataDir, { recursive: true, force: true });
});

const md5 = (bytes: Buffer) => createHash("md5").update(bytes).digest();
/** S3's ETag for a multipart object: md5 of the parts' md5s, then "-N". */
const multipartEtag = (parts: Buffer[]) =>
  `"${createHash("md5")
    .update(Buffer.concat(parts.map(md5)))
    .digest("hex")}-${parts.length}"`;

async function stored(key: string): Promise<{ bytes: Buffer; etag: string | undefined }> {
  const answer = await standins.s3.send(
    new GetObjectCommand({ Bucket: standins.bucket, Key: key }),
  );
  const bytes = Buffer.from(await answer.Body!.transformToByteArray());
  const head = await standins.s3.send(new HeadObjectCommand({ Bucket: standins.bucket, Key: key }));
  return { bytes, etag: head.ETag };
}

async function openUploadFolders(): Promise<string[]> {
  return readdir(join(dataDir, "s3", standins.bucket, "._S3rver_uploads")).catch(() => []);
}

/** Uploads `parts` (number, bytes) in the order given, then completes with `listed` (default: all, with their ETags). */
async function multipart(
  key: string,
  parts: [number, Buffer][],
  listed?: (etags: Map<number, string>) => CompletedPart[],
): Promise<void> {
  const target = { Bucket: standins.bucket, Key: key };
  const { UploadId } = await standins.s3.send(
    new CreateMultipartUploadCommand({ ...target, ContentType: "application/octet-stream" }),
  );
  const etags = new Map<number, string>();
  for (const [n, bytes] of parts) {
    const answer = await standins.s3.send(
      new UploadPartCommand({ ...target, UploadId, PartNumber: n, Body: bytes }),
    );
    etags.set(n, answer.ETag ?? "");
  }
  const list =
    listed?.(etags) ??
    [...etags].sort(([a], [b]) => a - b).map(([PartNumber, ETag]) => ({ PartNumber, ETag }));
  await standins.s3.send(
    new CompleteMultipartUploadCommand({ ...target, UploadId, MultipartUpload: { Parts: list } }),
  );
}

describe("multipart uploads into the local s3rver", () => {
  it("a streamed 20 MiB upload (8 MiB parts, the last smaller) reads back byte for byte with S3's multipart ETag, no upload folder left", async () => {
    const body = randomBytes(20 * 1024 * 1024 + 123);
    const store = new ObjectStore(standins.s3, standins.bucket);
    const result = await store.uploadStream(
      "big/one.bin",
      Readable.from([body.subarray(0, 5_000_000), body.subarray(5_000_000)]),
      {
        contentType: "application/octet-stream",
        expectedBytes: body.length,
      },
    );
    expect(result.sha256).toBe(createHash("sha256").update(body).digest("hex"));
    const { bytes, etag } = await stored("big/one.bin");
    expect(bytes.equals(body)).toBe(true);
    const part = PART_SIZE;
    const parts = [0, 1, 2].map((i) => body.subarray(i * part, (i + 1) * part));
    expect(parts[2]?.length).toBe(4 * 1024 * 1024 + 123);
    expect(etag).toBe(multipartEtag(parts));
    expect(await openUploadFolders()).toEqual([]);
  });

  it("parts sent out of order, the last one first, still make the object in number order", async () => {
    const parts = [randomBytes(4096), randomBytes(4096), randomBytes(4096), randomBytes(1000)];
    await multipart("order/a.bin", [
      [4, parts[3]!],
      [2, parts[1]!],
      [1, parts[0]!],
      [3, parts[2]!],
    ]);
    const { bytes, etag } = await stored("order/a.bin");
    expect(bytes.equals(Buffer.concat(parts))).toBe(true);
    expect(etag).toBe(multipartEtag(parts));
  });

  it("parts of different sizes and numbers with gaps are joined in number order", async () => {
    const parts = [randomBytes(3000), randomBytes(5000), randomBytes(100), randomBytes(7000)];
    await multipart("sizes/b.bin", [
      [1, parts[0]!],
      [3, parts[1]!],
      [7, parts[2]!],
      [8, parts[3]!],
    ]);
    expect((await stored("sizes/b.bin")).bytes.equals(Buffer.concat(parts))).toBe(true);
  });

  it("a part sent again replaces the earlier one, also when its size changed; only the listed parts are stored", async () => {
    const first = randomBytes(4096);
    const again = randomBytes(2000);
    const extra = randomBytes(4096);
    await multipart(
      "again/c.bin",
      [
        [1, first],
        [2, randomBytes(4096)],
        [2, again],
        [3, extra],
      ],
      (etags) => [
        { PartNumber: 1, ETag: etags.get(1) },
        { PartNumber: 2, ETag: etags.get(2) },
      ],
    );
    expect((await stored("again/c.bin")).bytes.equals(Buffer.concat([first, again]))).toBe(true);
  });

  it("a listed part with a wrong ETag, or never uploaded, is InvalidPart (400) and stores nothing", async () => {
    const wrongEtag = multipart("bad/d.bin", [[1, randomBytes(1024)]], () => [
      { PartNumber: 1, ETag: '"0123456789abcdef0123456789abcdef"' },
    ]);
    await expect(wrongEtag).rejects.toMatchObject({
      name: "InvalidPart",
      $metadata: { httpStatusCode: 400 },
    });
    const missing = multipart("bad/e.bin", [[1, randomBytes(1024)]], (etags) => [
      { PartNumber: 1, ETag: etags.get(1) },
      { PartNumber: 2, ETag: etags.get(1) },
    ]);
    await expect(missing).rejects.toMatchObject({
      name: "InvalidPart",
      $metadata: { httpStatusCode: 400 },
    });
    await expect(
      standins.s3.send(new HeadObjectCommand({ Bucket: standins.bucket, Key: "bad/d.bin" })),
    ).rejects.toMatchObject({ name: "NotFound" });
  });
});
