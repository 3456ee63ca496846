/**
 * What reelay asks S3 for when it writes an output with its retention tag, and when it delivers a
 * copy into a user's bucket. The S3 client is a stand-in that records each command: s3rver (the
 * local S3) accepts `x-amz-tagging` on a write and drops it, so only the request shows the tag.
 */
import type { S3Client } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { BucketObjects } from "../../../src/adapters/s3/bucket-objects.ts";
import { PART_SIZE } from "../../../src/adapters/s3/part-size.ts";

interface Sent {
  name: string;
  input: Record<string, unknown>;
}

/** A client whose every call succeeds, recording the command's name and input. */
function recordingStore(): { store: BucketObjects; sent: Sent[] } {
  const sent: Sent[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      return { UploadId: "upload-1", ETag: '"etag"' };
    },
  };
  return { store: new BucketObjects(client as unknown as S3Client, "reelay-bucket"), sent };
}

async function* chunks(total: number): AsyncGenerator<Uint8Array> {
  for (let left = total; left > 0; left -= 1024 * 1024)
    yield new Uint8Array(Math.min(left, 1024 * 1024));
}

const TAGS = { "reelay-retention": "7" };

describe("object tags at write", () => {
  it("a small put and a one-part upload carry the tags as x-amz-tagging", async () => {
    const { store, sent } = recordingStore();
    await store.putJson("outputs/vidtsk_1/job.json", { a: 1 }, { tags: TAGS });
    await store.uploadStream("outputs/vidtsk_1/video.mp4", chunks(10), {
      contentType: "video/mp4",
      tags: TAGS,
    });
    expect(sent.map((s) => [s.name, s.input.Tagging])).toEqual([
      ["PutObjectCommand", "reelay-retention=7"],
      ["PutObjectCommand", "reelay-retention=7"],
    ]);
  });

  it("a multipart upload carries them on its creation, where S3 takes them", async () => {
    const { store, sent } = recordingStore();
    await store.uploadStream("outputs/vidtsk_1/video.mp4", chunks(PART_SIZE + 10), {
      contentType: "video/mp4",
      expectedBytes: PART_SIZE + 10,
      tags: TAGS,
    });
    const created = sent.find((s) => s.name === "CreateMultipartUploadCommand");
    expect(created?.input).toMatchObject({
      ContentType: "video/mp4",
      Tagging: "reelay-retention=7",
    });
    expect(sent.filter((s) => s.name === "UploadPartCommand")).toHaveLength(2);
  });

  it("without tags nothing is asked for", async () => {
    const { store, sent } = recordingStore();
    await store.put("outputs/vidtsk_1/job.json", "{}", { contentType: "application/json" });
    expect("Tagging" in (sent[0]?.input ?? {})).toBe(false);
  });
});

describe("delivery into another bucket", () => {
  it("is one CopyObject from this bucket's key, dropping the source's tags", async () => {
    const { store, sent } = recordingStore();
    await store.copyOut("outputs/vidtsk_1/image 1.png", {
      bucket: "customer-renders",
      key: "renders/vidtsk_1/image 1.png",
    });
    expect(sent).toEqual([
      {
        name: "CopyObjectCommand",
        input: {
          Bucket: "customer-renders",
          Key: "renders/vidtsk_1/image 1.png",
          CopySource: "reelay-bucket/outputs/vidtsk_1/image%201.png",
          TaggingDirective: "REPLACE",
        },
      },
    ]);
  });
});

describe("a copy within the bucket (a reusing job's own copy of its source's output)", () => {
  it("carries the copy's own retention tags in place of the source's", async () => {
    const { store, sent } = recordingStore();
    await store.copy("outputs/vidtsk_1/video.mp4", "outputs/vidtsk_2/video.mp4", { tags: TAGS });
    expect(sent).toEqual([
      {
        name: "CopyObjectCommand",
        input: {
          Bucket: "reelay-bucket",
          Key: "outputs/vidtsk_2/video.mp4",
          CopySource: "reelay-bucket/outputs/vidtsk_1/video.mp4",
          TaggingDirective: "REPLACE",
          Tagging: "reelay-retention=7",
        },
      },
    ]);
  });

  it("without tags, keeps none of the source's (the copy is kept for good)", async () => {
    const { store, sent } = recordingStore();
    await store.copy("outputs/vidtsk_1/video.mp4", "outputs/vidtsk_2/video.mp4");
    expect(sent[0]?.input).toMatchObject({ TaggingDirective: "REPLACE" });
    expect("Tagging" in (sent[0]?.input ?? {})).toBe(false);
  });
});
