import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Readable } from "node:stream";
import { ListMultipartUploadsCommand } from "@aws-sdk/client-s3";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch } from "../../../src/adapters/net/guarded-fetch.ts";
import { outputFetchPolicy } from "../../../src/domain/net/policy.ts";
import { TransientError } from "../../../src/domain/pipeline/step-errors.ts";
import { copyUrlToS3 } from "../../../src/usecases/copy/copy-output.ts";
import { DigestStream } from "../../../src/adapters/s3/digest.ts";
import { ObjectStore, PART_SIZE, partSizeFor } from "../../../src/adapters/s3/object-store.ts";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";
import { caught } from "../../adapters/upstream/rejection.ts";

const MB = 1024 * 1024;
const KEY = "sim-key";
/** The local stack's guarded fetch: the simulator is on 127.0.0.1. */
const localFetch = guardedFetch(outputFetchPolicy("local"));

let aws: LocalAws;
let store: ObjectStore;
let sim: Simulator;
let clock = 1_700_000_000_000;

beforeAll(async () => {
  aws = await startLocalAws();
  store = new ObjectStore(aws.s3, aws.bucket);
  // A hand-moved clock: tasks finish and URLs expire exactly when the test says.
  sim = await startSimulator({
    apiKey: KEY,
    generationMs: 1_000,
    outputBytes: 20 * MB,
    urlTtlMs: 60_000,
    now: () => clock,
  });
});
afterAll(async () => {
  await sim.close();
  await aws.stop();
});
afterEach(() => sim.setFaults([]));

/** A succeeded simulator task and its signed output URL. */
async function finishedTask(): Promise<{ id: string; url: string }> {
  const res = await fetch(`${sim.url}/video/generations`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gamma-3.1", prompt: "a paper boat", duration_sec: 8 }),
  });
  const body = (await res.json()) as { service_task?: { task_id?: string }; task_id?: string };
  const id = body.service_task?.task_id ?? body.task_id ?? "";
  clock += 5_000;
  const url = sim.task(id)?.outputUrls[0];
  if (url === undefined) throw new Error(`task ${id} has no output URL`);
  return { id, url };
}

/** The S3 commands this client sends from now on (a real client, watched, not replaced). */
function recordCommands(): string[] {
  const sent: string[] = [];
  aws.s3.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(context.commandName ?? "");
      return next(args);
    },
    { step: "initialize", name: "record-commands" },
  );
  return sent;
}

async function openUploads(): Promise<number> {
  const answer = await aws.s3.send(new ListMultipartUploadsCommand({ Bucket: aws.bucket }));
  return answer.Uploads?.length ?? 0;
}

describe("copyUrlToS3 against the simulator and s3rver", () => {
  it("streams a 20 MB output in parts: bytes and sha256 equal the simulator's, and the stored object reads back the same", async () => {
    const { id, url } = await finishedTask();
    const copied = await copyUrlToS3(localFetch, url, store, "outputs/t1/video.mp4");
    const task = sim.task(id);
    expect(copied.bytes).toBe(task?.outputBytes);
    expect(copied.bytes).toBeGreaterThan(2 * PART_SIZE);
    expect(copied.sha256).toBe(task?.outputSha256);
    expect(copied.contentType).toBe("video/mp4");
    expect(copied.sourceUrlHost).toBe(new URL(sim.url).host);
    expect(await store.head("outputs/t1/video.mp4")).toMatchObject({
      bytes: copied.bytes,
      contentType: "video/mp4",
    });
    const read = await store.getStream("outputs/t1/video.mp4");
    const hash = createHash("sha256");
    for await (const chunk of read.body) hash.update(chunk as Buffer);
    expect(hash.digest("hex")).toBe(copied.sha256);
    expect(await openUploads()).toBe(0);
  });

  it("a Response from another fetch (Node's global fetch) is copied through its web stream, byte for byte", async () => {
    const { id, url } = await finishedTask();
    const copied = await copyUrlToS3(fetch, url, store, "outputs/global/video.mp4");
    expect(copied.bytes).toBe(sim.task(id)?.outputBytes);
    expect(copied.sha256).toBe(sim.task(id)?.outputSha256);
    expect(await store.head("outputs/global/video.mp4")).toMatchObject({ bytes: copied.bytes });
  });

  it("the guard's Response still reads as a web stream, whole, when nodeBody is not taken", async () => {
    const { id, url } = await finishedTask();
    const response = await localFetch(url);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length).toBe(sim.task(id)?.outputBytes);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(sim.task(id)?.outputSha256);
  });

  it("a truncated download is a TransientError download_truncated; no object is stored and the multipart upload is aborted", async () => {
    const { url } = await finishedTask();
    sim.setFaults([{ fault: "truncate" }]);
    const sent = recordCommands();
    const error = await caught(copyUrlToS3(localFetch, url, store, "outputs/t2/video.mp4"));
    aws.s3.middlewareStack.remove("record-commands");
    // The cut comes after the first 8 MiB part, so a multipart upload really was open.
    expect(sent).toContain("CreateMultipartUploadCommand");
    expect(sent).toContain("AbortMultipartUploadCommand");
    expect(sent).not.toContain("CompleteMultipartUploadCommand");
    expect(error).toBeInstanceOf(TransientError);
    expect(error.name).toBe("ReelayTransientError");
    expect(error.code).toBe("download_truncated");
    expect(await store.head("outputs/t2/video.mp4")).toBeUndefined();
    expect(await openUploads()).toBe(0);
  });

  it("a 503 from the output host is a TransientError and stores nothing", async () => {
    const { url } = await finishedTask();
    sim.setFaults([{ fault: "download_error" }]);
    const error = await caught(copyUrlToS3(localFetch, url, store, "outputs/t3/video.mp4"));
    expect(error).toBeInstanceOf(TransientError);
    expect(error.code).toBe("download_unavailable");
    expect(await store.head("outputs/t3/video.mp4")).toBeUndefined();
  });

  it("an expired URL (403) is the permanent output_unavailable, and the message carries no signature", async () => {
    const { url } = await finishedTask();
    clock += 120_000;
    const error = await caught(copyUrlToS3(localFetch, url, store, "outputs/t4/video.mp4"));
    expect(error).not.toBeInstanceOf(TransientError);
    expect(error.code).toBe("output_unavailable");
    expect(error.status).toBe(403);
    expect(error.message).not.toContain(new URL(url).search.slice(1));
  });
});

type Answer = (
  socket: Socket,
  write: (chunk: Buffer | string) => Promise<void>,
  sent: string[],
) => Promise<void>;

/** Waits until the copier has sent `command` to S3 (a reset discards bytes the client had not read yet). */
async function untilSent(sent: string[], command: string): Promise<void> {
  for (let i = 0; i < 500 && !sent.includes(command); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Copies from a raw output host on 127.0.0.1 whose answer the test scripts, socket and all; returns
 * the error and the S3 commands sent, after checking that nothing was stored and no upload is open.
 */
async function failedCopyFrom(
  answer: Answer,
  key: string,
  fetcher = localFetch,
): Promise<{ error: Awaited<ReturnType<typeof caught>>; sent: string[] }> {
  const sent = recordCommands();
  const server: Server = createServer((req, res) => {
    const socket = req.socket;
    const write = (chunk: Buffer | string) =>
      new Promise<void>((resolve, reject) =>
        socket.write(chunk, (error) => (error ? reject(error) : resolve())),
      );
    // The test writes the raw response itself; the http layer only parsed the request.
    res.detachSocket(socket);
    void answer(socket, write, sent).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/out.mp4?X-Signature=secret`;
  try {
    const error = await caught(copyUrlToS3(fetcher, url, store, key));
    const during = [...sent];
    expect(error.message).not.toContain("secret");
    expect(during).not.toContain("CompleteMultipartUploadCommand");
    expect(await store.head(key)).toBeUndefined();
    expect(await openUploads()).toBe(0);
    return { error, sent: during };
  } finally {
    aws.s3.middlewareStack.remove("record-commands");
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe("copyUrlToS3: a download cut short is never stored", () => {
  it("a connection RESET mid-body (after a part was uploaded) is a TransientError download_truncated; no object, the multipart upload aborted", async () => {
    const { error, sent } = await failedCopyFrom(async (socket, write, commands) => {
      await write(
        `HTTP/1.1 200 OK\r\ncontent-type: video/mp4\r\ncontent-length: ${20 * MB}\r\n\r\n`,
      );
      for (let i = 0; i < 10; i++) await write(Buffer.alloc(MB, i));
      await untilSent(commands, "UploadPartCommand");
      socket.resetAndDestroy();
    }, "outputs/rst/video.mp4");
    expect(error).toBeInstanceOf(TransientError);
    expect(error.code).toBe("download_truncated");
    expect(sent).toContain("CreateMultipartUploadCommand");
    expect(sent).toContain("AbortMultipartUploadCommand");
  });

  it("a body that ends cleanly but short of Content-Length (small, one part) is download_truncated and stores nothing", async () => {
    const { error } = await failedCopyFrom(async (socket, write) => {
      await write(
        "HTTP/1.1 200 OK\r\ncontent-type: video/mp4\r\ncontent-length: 5000\r\nconnection: close\r\n\r\n",
      );
      await write(Buffer.alloc(3000, 1));
      socket.end();
    }, "outputs/short/video.mp4");
    expect(error).toBeInstanceOf(TransientError);
    expect(error.code).toBe("download_truncated");
  });
});

describe("copyUrlToS3 through the guard's limits", () => {
  it("a body with no Content-Length that grows past REELAY_MAX_OUTPUT_BYTES is the permanent output_too_large; no object, the multipart upload aborted", async () => {
    const capped = guardedFetch(outputFetchPolicy("local", 12 * MB));
    const { error, sent } = await failedCopyFrom(
      async (socket, write) => {
        await write("HTTP/1.1 200 OK\r\ncontent-type: video/mp4\r\nconnection: close\r\n\r\n");
        for (let i = 0; i < 20 && !socket.destroyed; i++) await write(Buffer.alloc(MB, i));
        socket.end();
      },
      "outputs/big/video.mp4",
      capped,
    );
    expect(error).not.toBeInstanceOf(TransientError);
    expect(error.code).toBe("output_too_large");
    expect(sent).toContain("AbortMultipartUploadCommand");
  });

  it("an HTML answer where the video should be is the permanent output_content_type and stores nothing", async () => {
    const { error, sent } = await failedCopyFrom(async (socket, write) => {
      await write(
        "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 13\r\nconnection: close\r\n\r\n<h1>hi</h1>\r\n",
      );
      socket.end();
    }, "outputs/html/video.mp4");
    expect(error).not.toBeInstanceOf(TransientError);
    expect(error.code).toBe("output_content_type");
    expect(sent).toEqual([]);
  });

  it("the AWS policy refuses the simulator's loopback URL with the permanent url_forbidden, before any S3 call", async () => {
    const { url } = await finishedTask();
    const sent = recordCommands();
    const error = await caught(
      copyUrlToS3(guardedFetch(outputFetchPolicy("aws")), url, store, "outputs/aws/video.mp4"),
    );
    aws.s3.middlewareStack.remove("record-commands");
    expect(error).not.toBeInstanceOf(TransientError);
    expect(error.code).toBe("url_forbidden");
    expect(sent).toEqual([]);
  });
});

describe("ObjectStore", () => {
  it("put, head, getStream, presignGet and delete round-trip one object", async () => {
    await store.put("notes/a.txt", "hello", { contentType: "text/plain" });
    expect(await store.head("notes/a.txt")).toMatchObject({ bytes: 5, contentType: "text/plain" });
    const signed = await store.presignGet("notes/a.txt", 60);
    expect(signed).toContain("X-Amz-Signature=");
    expect(await (await fetch(signed)).text()).toBe("hello");
    await store.delete("notes/a.txt");
    expect(await store.head("notes/a.txt")).toBeUndefined();
    expect((await caught(store.getStream("notes/a.txt"))).code).toBe("object_not_found");
  });

  it("uploadStream with expectedBytes refuses a stream that ends short and leaves no object", async () => {
    const body = Readable.from([Buffer.alloc(1000, 1)]);
    const error = await caught(
      store.uploadStream("short.bin", body, {
        contentType: "application/octet-stream",
        expectedBytes: 2000,
      }),
    );
    expect(error.code).toBe("download_truncated");
    expect(await store.head("short.bin")).toBeUndefined();
  });
});

describe("partSizeFor", () => {
  it("is 8 MiB up to 10,000 such parts, then the smallest whole MiB that fits the object in 10,000 parts", () => {
    const MiB = 1024 * 1024;
    expect(partSizeFor(undefined)).toBe(8 * MiB);
    expect(partSizeFor(1)).toBe(8 * MiB);
    expect(partSizeFor(10_000 * 8 * MiB)).toBe(8 * MiB);
    expect(partSizeFor(10_000 * 8 * MiB + 1)).toBe(9 * MiB);
    expect(partSizeFor(100 * 1024 * MiB)).toBe(11 * MiB);
    for (const bytes of [10_000 * 8 * MiB + 1, 64 * 1024 * MiB, 100 * 1024 * MiB])
      expect(Math.ceil(bytes / partSizeFor(bytes))).toBeLessThanOrEqual(10_000);
  });
});

describe("DigestStream", () => {
  it("fails with download_truncated when more bytes arrive than announced", async () => {
    const digest = new DigestStream(3);
    const done = new Promise((resolve, reject) => digest.on("error", reject).on("finish", resolve));
    digest.end(Buffer.from("four"));
    await expect(done).rejects.toMatchObject({ code: "download_truncated" });
  });
});
