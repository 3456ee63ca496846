/**
 * s3rver's writes are made atomic (s3rver/durable-writes.ts): a PutObject that dies midway, as one
 * does when `reelay up` is SIGKILLed, must leave the key as it was, and the bucket must still list
 * and answer HeadBucket (a half-written object or an empty metadata file would make every listing
 * fail with 500, and the stack could not start again). The cut is made by the client here: it is the same
 * half-written state on s3rver's side.
 */
import { request } from "node:http";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { afterEach, expect, it } from "vitest";
import { startStandins, type Standins } from "../src/aws-standins.ts";

let standins: Standins | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await standins?.close();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  standins = undefined;
  dataDir = undefined;
});

/** PUTs `key` announcing `total` bytes, sends `sent` of them, then drops the connection. */
async function cutPut(
  endpoint: string,
  bucket: string,
  key: string,
  total: number,
  sent: number,
): Promise<void> {
  await new Promise<void>((resolve) => {
    const req = request(`${endpoint}/${bucket}/${key}`, {
      method: "PUT",
      headers: { "content-length": total, "content-type": "video/mp4" },
    });
    req.on("error", () => resolve());
    req.write(Buffer.alloc(sent, 7), () => {
      // Give s3rver time to start writing what it received, then vanish.
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
}

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String);
}

it("a PutObject cut off midway leaves no object under a new key, no stray file, and the bucket still lists", async () => {
  dataDir = await mkdtemp(join(tmpdir(), "reelay-durable-"));
  standins = await startStandins({ dataDir, s3Port: 0 });
  const { s3, bucket } = standins;
  await cutPut(standins.s3Endpoint, bucket, "outputs/a/video.mp4", 1_000_000, 400_000);

  await expect(
    s3.send(new HeadObjectCommand({ Bucket: bucket, Key: "outputs/a/video.mp4" })),
  ).rejects.toMatchObject({ name: "NotFound" });
  expect((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).toEqual([]);
  await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  expect(
    (await filesUnder(join(dataDir, "s3", bucket))).filter(
      (f) => f.includes("._S3rver_") || f.includes(".writing-"),
    ),
  ).toEqual([]);
}, 30_000);

it("a PutObject cut off midway over an existing object leaves the old object whole", async () => {
  dataDir = await mkdtemp(join(tmpdir(), "reelay-durable-"));
  standins = await startStandins({ dataDir, s3Port: 0 });
  const { s3, bucket } = standins;
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: "outputs/b/job.json",
      Body: '{"status":"running"}',
      ContentType: "application/json",
    }),
  );
  await cutPut(standins.s3Endpoint, bucket, "outputs/b/job.json", 1_000_000, 400_000);

  const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "outputs/b/job.json" }));
  expect(answer.ContentType).toBe("application/json");
  expect(await answer.Body?.transformToString()).toBe('{"status":"running"}');
  expect(
    (await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents?.map((o) => o.Key),
  ).toEqual(["outputs/b/job.json"]);
}, 30_000);

it("copies over an existing object, each racing the delete of its source, never leave the destination missing (s3rver's own copy unlinked it first)", async () => {
  dataDir = await mkdtemp(join(tmpdir(), "reelay-durable-"));
  standins = await startStandins({ dataDir, s3Port: 0 });
  const { s3, bucket } = standins;
  const put = (key: string, body: string) =>
    s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  await put("uploads/u", "the upload, made by the first copy");
  // As two completes of one upload do (usecases/uploads): one copies the staged bytes over the
  // upload the other made while that other deletes them. Whichever wins, the upload stays.
  for (let round = 0; round < 40; round++) {
    const source = `uploads/u.staged-${round}`;
    await put(source, `round ${round}`);
    await Promise.allSettled([
      s3.send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key: "uploads/u",
          CopySource: `${bucket}/${source}`,
          MetadataDirective: "REPLACE",
          ContentType: "image/png",
        }),
      ),
      s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: source })),
    ]);
    const kept = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "uploads/u" }));
    expect(await kept.Body?.transformToString()).toMatch(/^(the upload|round \d+)/);
  }
}, 60_000);

it("reads racing puts of the same key, one longer than the other, each answer one whole version (s3rver took the size and the bytes from two looks)", async () => {
  dataDir = await mkdtemp(join(tmpdir(), "reelay-durable-"));
  standins = await startStandins({ dataDir, s3Port: 0 });
  const { s3, bucket } = standins;
  // As a job's job.json is written by Download and again, longer, by Finish while a client reads it.
  const versions = [
    `{"v":"short","pad":"${"s".repeat(2_000)}"}`,
    `{"v":"long","pad":"${"l".repeat(20_000)}"}`,
  ];
  const put = (body: string) =>
    s3.send(new PutObjectCommand({ Bucket: bucket, Key: "outputs/j/job.json", Body: body }));
  await put(versions[0] ?? "");
  const read = async () =>
    (
      await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "outputs/j/job.json" }))
    ).Body?.transformToString();
  // Puts one after another while reads go on beside them: a torn read needs a rename to land
  // between a read's two looks, which takes many tries on a quiet machine.
  const answers: (string | undefined)[] = [];
  let writing = true;
  const writer = (async () => {
    for (let round = 0; round < 80; round++) await put(versions[round % 2 === 0 ? 1 : 0] ?? "");
    writing = false;
  })();
  const readers = Array.from({ length: 2 }, async () => {
    while (writing) answers.push(await read());
  });
  await Promise.all([writer, ...readers]);
  const torn = answers.filter((body) => !versions.includes(body ?? ""));
  expect(torn.map((body) => body?.length)).toEqual([]);
  expect(new Set(answers).size).toBe(2);
}, 60_000);
