/**
 * The Download function's process collects garbage as core's adapters/s3/copier-gc.ts sets it: no
 * incremental marking (in a copier, V8 marked its small heap back to back, 20 to 100 times per GiB)
 * and scavenges on the main thread alone. A child process imports the function's module, churns
 * its heap, and prints V8's --trace-gc (or --trace-gc-nvp) lines: its mark-compacts run when the
 * old generation is full, none finishes an incremental marking, and no scavenge has background
 * time. The same churn without the module shows both, so the probe can tell them apart. And it
 * scavenges once each part buffer of an upload is full, which frees the socket chunks copied into
 * it: a child streams into s3rver through core's ObjectStore and counts the scavenges run on
 * request (perf_hooks' gc entries).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle } from "../../bench/support/esbuild.ts";
import { startLocalAws, type LocalAws } from "../../packages/core/test/support/local-aws.ts";
import { FUNCTION_BUNDLING } from "../../stacks/defaults.ts";

const run = promisify(execFile);
const probeSource = fileURLToPath(new URL("../support/gc-probe.ts", import.meta.url));
const copier = fileURLToPath(new URL("../support/copy-gc-child.ts", import.meta.url));
const downloadSource = fileURLToPath(new URL("../../functions/download.ts", import.meta.url));

/**
 * The probes import the Download function as it deploys (its bundle, stacks/defaults.ts) and run
 * on plain node: under tsx each child spent about 2.5 CPU-s loading the sources. The copier's
 * children stay on the sources: the scavenge they count is set on core's module that the
 * copier's own ObjectStore shares, which a separate bundle would not.
 */
let dir: string;
let probe: string;
let download: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "reelay-gc-"));
  download = (
    await bundle(downloadSource, join(dir, "download", "download.mjs"), { ...FUNCTION_BUNDLING })
  ).file;
  probe = (await bundle(probeSource, join(dir, "probe", "gc-probe.mjs"), { minify: false })).file;
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
/** The Download module reads its settings when it is imported (its cold start), as on Lambda. */
const env = {
  ...process.env,
  REELAY_TABLE_NAME: "reelay-gc-test",
  REELAY_BUCKET_NAME: "reelay-gc-test",
  REELAY_FFMPEG_PATH: "/opt/bin/ffmpeg",
};

/** The collector's trace lines while the probe churns (after it has loaded `module`, if given). */
async function churnTrace(flag: string, module?: string): Promise<string[]> {
  const args = [flag, probe, ...(module === undefined ? [] : [module])];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024, env });
  expect(stdout).toContain("kept 4 batches");
  return stdout.slice(stdout.indexOf("churn starts")).split("\n");
}

const markCompacts = (lines: string[]) => lines.filter((line) => line.includes("Mark-Compact"));
const scavengeHelperMs = (lines: string[]) =>
  lines
    .filter((line) => line.includes("gc=s "))
    .map((line) => Number(/background\.scavenge\.parallel=([\d.]+)/.exec(line)?.[1]));

describe("the Download function's init", { timeout: 60_000 }, () => {
  it("fails naming REELAY_FFMPEG_PATH when the stack forgot it (a video would otherwise go without previews)", async () => {
    const { REELAY_FFMPEG_PATH: _path, ...forgot } = env;
    const imported = run(
      process.execPath,
      ["--input-type=module", "-e", `await import(${JSON.stringify(download)})`],
      {
        env: forgot,
      },
    );
    await expect(imported).rejects.toThrow(/REELAY_FFMPEG_PATH is not set on this function/);
  });
});

// The timeouts only stop a hung child: a loaded machine makes the children slower, not wrong.
describe("the Download function's garbage collector", { timeout: 180_000 }, () => {
  it("runs its mark-compacts when the old generation is full, never after an incremental marking", async () => {
    const lines = markCompacts(await churnTrace("--trace-gc", download));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.includes("incremental marking"))).toEqual([]);
  });

  it("scavenges on the main thread alone: no scavenge has background time", async () => {
    const helperMs = scavengeHelperMs(await churnTrace("--trace-gc-nvp", download));
    expect(helperMs.length).toBeGreaterThan(0);
    expect(helperMs.filter((ms) => ms !== 0)).toEqual([]);
  });

  it("the same churn in a process without it finishes incremental markings and scavenges in parallel", async () => {
    const [trace, nvp] = await Promise.all([
      churnTrace("--trace-gc"),
      churnTrace("--trace-gc-nvp"),
    ]);
    expect(markCompacts(trace).some((line) => line.includes("incremental marking"))).toBe(true);
    expect(scavengeHelperMs(nvp).some((ms) => ms > 0)).toBe(true);
  });
});

describe("the Download function's scavenges", { timeout: 180_000 }, () => {
  let aws: LocalAws;
  beforeAll(async () => {
    aws = await startLocalAws();
  });
  afterAll(async () => {
    await aws?.stop();
  });

  /** The child's { parts, forcedMinor } after streaming 41 MiB (after loading `module`, if given). */
  async function upload(key: string, module?: string) {
    const args = ["--import", "tsx", copier, aws.s3Endpoint, aws.bucket, key];
    const { stdout } = await run(
      process.execPath,
      module === undefined ? args : [...args, module],
      {
        env,
      },
    );
    return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as {
      parts: number;
      forcedMinor: number;
    };
  }

  it("runs one scavenge each time a part buffer is full, and a process without it runs none", async () => {
    const [copying, plain] = await Promise.all([
      upload("gc/with-download.bin", downloadSource),
      upload("gc/plain.bin"),
    ]);
    // Six parts: five full ones, then the last 1 MiB, which is sent when the body ends.
    expect(copying).toEqual({ parts: 6, forcedMinor: 5 });
    expect(plain).toEqual({ parts: 6, forcedMinor: 0 });
  });
});
