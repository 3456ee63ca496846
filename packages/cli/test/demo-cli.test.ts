import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const run = promisify(execFile);
const BIN = join(import.meta.dirname, "..", "bin", "reelay.js");

it("reelay demo saves an MP4 whose bytes match the sha256 it prints and says where", async () => {
  const out = await mkdtemp(join(tmpdir(), "reelay-demo-"));
  const { stdout } = await run(process.execPath, [BIN, "demo", "--out", out, "--time-scale", "0.02"]);
  const saved = /saved\s+(\S+\.mp4)\n\s+(\d+) bytes, sha256 ([0-9a-f]{64})/.exec(stdout);
  expect(saved, stdout).not.toBeNull();
  const [, file, bytes, sha256] = saved!;
  expect(file!.startsWith(out)).toBe(true);
  const video = await readFile(file!);
  expect(video.length).toBe(Number(bytes));
  expect(video.subarray(4, 8).toString("latin1")).toBe("ftyp");
  expect(createHash("sha256").update(video).digest("hex")).toBe(sha256);
  expect(stdout).toMatch(/polling\s+succeeded/);
}, 60_000);
