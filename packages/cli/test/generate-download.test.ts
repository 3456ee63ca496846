import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { mkdtemp, readdir, readFile, stat } from "node:fs/promises";
import { setTimeout as pause } from "node:timers/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadVerified } from "../src/client/download.ts";

const VIDEO = Buffer.concat([Buffer.from("\0\0\0\x18ftypisom", "latin1"), Buffer.alloc(4096, 7)]);
const SHA256 = createHash("sha256").update(VIDEO).digest("hex");

/** Resolves when the client has taken in the first 100 bytes of /short. */
let beforeBreak: () => Promise<void> = async () => undefined;

describe("downloadVerified (how generate saves a video)", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    // /whole sends the video; /short announces all of it, sends 100 bytes, then drops the
    // connection once `beforeBreak` says so: bytes still queued in the client's stream when it
    // breaks would be discarded, so the test waits until the client has written them.
    server = createServer((request, response) => {
      response.writeHead(200, { "content-type": "video/mp4", "content-length": VIDEO.length });
      if (request.url !== "/short") return void response.end(VIDEO);
      response.write(
        VIDEO.subarray(0, 100),
        () => void beforeBreak().then(() => response.destroy()),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("saves the bytes at the path when size and sha256 match, leaving no .part file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-download-"));
    const saved = await downloadVerified(`${base}/whole`, join(dir, "v.mp4"), {
      sha256: SHA256,
      bytes: VIDEO.length,
    });
    expect(saved).toEqual({ file: join(dir, "v.mp4"), bytes: VIDEO.length, sha256: SHA256 });
    expect((await readFile(saved.file)).equals(VIDEO)).toBe(true);
    expect(await readdir(dir)).toEqual(["v.mp4"]);
  });

  it("saves nothing and says checksum_mismatch when the sha256 differs from the job's", async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-download-"));
    const wrong = "0".repeat(64);
    await expect(
      downloadVerified(`${base}/whole`, join(dir, "v.mp4"), { sha256: wrong, bytes: VIDEO.length }),
    ).rejects.toMatchObject({ code: "checksum_mismatch" });
    expect(await readdir(dir)).toEqual([]);
  });

  it("saves nothing and says download_failed when the body breaks off", async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-download-"));
    beforeBreak = async () => {
      for (let tries = 0; tries < 1000; tries++) {
        if ((await stat(join(dir, "v.mp4.part")).catch(() => undefined))?.size === 100) return;
        await pause(5);
      }
    };
    await expect(
      downloadVerified(`${base}/short`, join(dir, "v.mp4"), {
        sha256: SHA256,
        bytes: VIDEO.length,
      }),
    ).rejects.toMatchObject({
      code: "download_failed",
      message: expect.stringMatching(/failed after 100 bytes/),
    });
    expect(await readdir(dir)).toEqual([]);
  });
});
