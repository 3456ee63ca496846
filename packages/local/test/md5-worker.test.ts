/** The md5 worker that takes s3rver's part ETags off the server's thread (real files, a real worker thread). */
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Md5Worker } from "../src/s3rver/md5-worker.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "reelay-md5-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const md5 = (bytes: Buffer) => createHash("md5").update(bytes).digest("hex");

describe("Md5Worker", () => {
  it("hashes exactly the asked range of a file, also ranges larger than its 1 MiB read buffer, several at once", async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const file = join(dir, "parts");
    await writeFile(file, bytes);
    const worker = new Md5Worker();
    const ranges: [number, number][] = [
      [0, bytes.length],
      [5, 1024 * 1024 + 3],
      [2 * 1024 * 1024, 1024 * 1024 + 17],
      [100, 0],
    ];
    const got = await Promise.all(
      ranges.map(([offset, length]) => worker.ofRange(file, offset, length)),
    );
    expect(got).toEqual(
      ranges.map(([offset, length]) => md5(bytes.subarray(offset, offset + length))),
    );
  });

  it("a missing file or a range past the end fails that request with the reason, and the worker goes on", async () => {
    const file = join(dir, "short");
    await writeFile(file, Buffer.from("0123456789"));
    const worker = new Md5Worker();
    await expect(worker.ofRange(join(dir, "absent"), 0, 10)).rejects.toThrow(/ENOENT/);
    await expect(worker.ofRange(file, 4, 10)).rejects.toThrow(/ended 4 bytes early/);
    expect(await worker.ofRange(file, 0, 10)).toBe(md5(Buffer.from("0123456789")));
  });
});
