import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const run = promisify(execFile);
const BIN = join(import.meta.dirname, "..", "bin", "reelay.js");

it("reelay demo starts the local stack, saves an MP4 whose bytes match the sha256 it prints, says where, and exits", async () => {
  const dir = await mkdtemp(join(tmpdir(), "reelay-demo-"));
  const out = join(dir, "out");
  // Port 0: the stack binds any free port itself, so no other test can take it in between.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REELAY_PORT: "0",
    REELAY_DATA_DIR: join(dir, "data"),
  };
  delete env.REELAY_API_KEY;
  delete env.REELAY_API_URL;
  delete env.REELAY_UPSTREAM_URL;
  const { stdout } = await run(
    process.execPath,
    [BIN, "demo", "--out", out, "--sim-time-scale", "0.05"],
    { env, timeout: 90_000 },
  );
  expect(stdout).toMatch(/local stack ready at http:\/\/127\.0\.0\.1:\d+/);
  const saved = /saved\s+(\S+\.mp4)\n\s+(\d+) bytes, sha256 ([0-9a-f]{64})/.exec(stdout);
  expect(saved, stdout).not.toBeNull();
  const [, file, bytes, sha256] = saved!;
  expect(file!.startsWith(out)).toBe(true);
  const video = await readFile(file!);
  expect(video.length).toBe(Number(bytes));
  expect(video.subarray(4, 8).toString("latin1")).toBe("ftyp");
  expect(createHash("sha256").update(video).digest("hex")).toBe(sha256);
  // The job went through the pipeline: exactly one Generation Succeeded event for it.
  const jobId = /(vidtsk_[0-9A-Z]{26})\.mp4/.exec(file!)![1];
  const events = (await readFile(join(dir, "data", "events.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(
    events.filter((e) => e.detail.jobId === jobId && e["detail-type"] === "Generation Succeeded"),
  ).toHaveLength(1);
}, 120_000);
