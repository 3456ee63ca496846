/**
 * The Download function's process collects garbage without incremental marking (core's
 * storage/copier-gc.ts: in a copier, V8 marked its small heap back to back, 20 to 100 times per
 * GiB). A child process imports the function's module, churns its old generation, and prints V8's
 * --trace-gc lines: its mark-compacts run when the old generation is full, none finishes an
 * incremental marking. The same churn without the module does finish incremental markings, so the
 * probe can tell the two apart.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const probe = fileURLToPath(new URL("../support/gc-probe.ts", import.meta.url));
const download = fileURLToPath(new URL("../../functions/download.ts", import.meta.url));

async function markCompacts(...args: string[]): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "--trace-gc", probe, ...args],
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  expect(stdout).toContain("kept 4 batches");
  const churn = stdout.slice(stdout.indexOf("churn starts"));
  return churn.split("\n").filter((line) => line.includes("Mark-Compact"));
}

describe("the Download function's garbage collector", () => {
  it("runs its mark-compacts when the old generation is full, never after an incremental marking", async () => {
    const lines = await markCompacts(download);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.includes("incremental marking"))).toEqual([]);
  }, 60_000);

  it("the same churn in a process without it finishes incremental markings", async () => {
    const lines = await markCompacts();
    expect(lines.some((line) => line.includes("incremental marking"))).toBe(true);
  }, 60_000);
});
