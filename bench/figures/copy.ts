/**
 * Streaming copy: a simulator output copied into s3rver by reelay's copyUrlToS3,
 * against a plain fetch-to-file of the same bytes on the same disk that hashes them with sha256 as
 * it goes (every output is recorded with its sha256, so that much any verified copy spends: 0.5
 * CPU-s a GiB on this machine's CPU, a third of the fetch's own; without it in the baseline the
 * ratio measured the hash more than the copier, and moved from 1.03 to 1.34 between two machines
 * with the copier's code the same). Each copy runs in a fresh child
 * process (bench/support/copy/*-child.ts, bundled to plain JavaScript so no TypeScript loader sits
 * in it), so its peak RSS is the copier's alone. The simulator runs here, in the bench process, and
 * s3rver in a process of its own (the local stack's s3rver child, bundled the same way), as S3 and
 * the upstream are different hosts. Every copy is checked: the stored object (read back from s3rver) and the
 * baseline's file have the source's size and sha256.
 *
 * The target is the copier's own CPU per GiB against the hashing fetch-to-file's: what reelay
 * controls (the S3 client's parts, the byte count, the media probe). Each
 * child counts the CPU of the copy alone (every thread, from the request to the last byte stored),
 * as it times it: a process's start (the copier loads the AWS SDK) is not per GiB; the note prints
 * the whole processes' CPU too. On 2 cores the copy's wall-clock speed also pays for s3rver's md5
 * and disk writes, which on AWS happen on S3's side; it is printed, with no target.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { CreateBucketCommand, DeleteObjectCommand, GetObjectCommand } from "@aws-sdk/client-s3";
import { localS3Client } from "@reelay/local/aws-clients";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { cpuMs, median, runJson, startService, supportFile } from "../support/child.ts";
import { bundle } from "../support/esbuild.ts";
import type { BenchContext, Figure } from "../support/figure.ts";

const MB = 1_000_000;
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const SMALL = 100 * MB;
/** Runs of each kind at each size, alternating: the median speed counts, and the highest RSS. */
const REPEATS = 5;

interface ChildResult {
  ms: number;
  bytes: number;
  sha256?: string;
  maxRssBytes: number;
  /** The child's own CPU time during the copy, user + system, every thread. */
  cpuMs: number;
  /** The child's CPU time over its whole life, its start and module loading included. */
  processCpuMs: number;
  /** CPU the other parties spent meanwhile: the simulator (this process) and, for a copy, s3rver. */
  simulatorCpuMs?: number;
  s3rverCpuMs?: number;
}

interface Source {
  url: string;
  bytes: number;
  sha256: string;
}

const API_KEY = "bench-copy";
const BUCKET = "reelay-bench-copy";

/** A succeeded simulator task of `bytes` (generation time 0), made over HTTP as reelay makes them. */
async function makeOutput(sim: Simulator, bytes: number): Promise<Source> {
  const response = await fetch(`${sim.url}/video/generations`, {
    method: "POST",
    headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: "alpha-2.7",
      prompt: `bench copy [[sim:output_bytes=${bytes}]]`,
    }),
  });
  if (!response.ok)
    throw new Error(`simulator create answered ${response.status}: ${await response.text()}`);
  const { task_id: taskId } = (await response.json()) as { task_id: string };
  const task = sim.task(taskId);
  const url = task?.outputUrls[0];
  const sha256 = task?.outputSha256;
  if (task === undefined || url === undefined || sha256 === undefined)
    throw new Error(`simulator task ${taskId} has no output`);
  return { url, bytes: task.outputBytes, sha256 };
}

async function sha256Of(stream: Readable): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  await pipeline(stream, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      hash.update(chunk);
      bytes += chunk.length;
    }
  });
  return { sha256: hash.digest("hex"), bytes };
}

function check(what: string, got: { sha256: string; bytes: number }, source: Source): void {
  if (got.bytes !== source.bytes || got.sha256 !== source.sha256) {
    throw new Error(
      `${what}: ${got.bytes} bytes sha256 ${got.sha256}, the source has ${source.bytes} bytes sha256 ${source.sha256}`,
    );
  }
}

const mbps = (r: ChildResult): number => r.bytes / MB / (r.ms / 1000);
const mb = (bytes: number): number => bytes / MB;

export async function figures(ctx: BenchContext): Promise<Figure[]> {
  // Bundled inside the checkout: the local stand-ins' modules find s3rver through node_modules.
  const cache = fileURLToPath(new URL("../../node_modules/.cache/", import.meta.url));
  await mkdir(cache, { recursive: true });
  const bundleDir = await mkdtemp(join(cache, "reelay-bench-copy-"));
  const cleanups: (() => Promise<void>)[] = [() => rm(bundleDir, { recursive: true, force: true })];
  try {
    // Minified, as the Lambda functions are deployed; s3rver is the local stack's own s3rver child.
    const s3rverEntry = fileURLToPath(
      new URL("../../packages/local/src/s3rver/child.ts", import.meta.url),
    );
    const [fetchChild, copyChild, s3rverChild] = await Promise.all(
      [supportFile("copy/fetch-child.ts"), supportFile("copy/copy-child.ts"), s3rverEntry].map(
        async (entry, i) =>
          (await bundle(entry, join(bundleDir, `child-${i}.mjs`), { minify: true })).file,
      ),
    );
    const sim = await startSimulator({ apiKey: API_KEY, generationMs: 0 });
    cleanups.push(() => sim.close());
    const s3rver = await startService<{ port: number }>(s3rverChild as string, [
      join(ctx.tmpDir, "s3"),
      "127.0.0.1",
      "0",
    ]);
    cleanups.push(() => s3rver.stop());
    const s3Endpoint = `http://127.0.0.1:${s3rver.info.port}`;
    const s3 = localS3Client(s3Endpoint);
    cleanups.push(async () => s3.destroy());
    const bucket = BUCKET;
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    let n = 0;

    const baseline = async (source: Source): Promise<ChildResult> => {
      const file = join(ctx.tmpDir, `fetched-${n++}.mp4`);
      const simulator = process.cpuUsage();
      const result = await runJson<ChildResult>(fetchChild as string, [source.url, file]);
      result.simulatorCpuMs = cpuMs(simulator);
      check("the fetched file", await sha256Of(createReadStream(file)), source);
      await rm(file, { force: true });
      return result;
    };
    const copy = async (source: Source): Promise<ChildResult> => {
      const key = `bench/copy-${n++}.mp4`;
      const simulator = process.cpuUsage();
      const s3rverBefore = s3rver.cpuMs();
      const result = await runJson<ChildResult>(copyChild as string, [
        source.url,
        s3Endpoint,
        bucket,
        key,
      ]);
      result.simulatorCpuMs = cpuMs(simulator);
      const s3rverAfter = s3rver.cpuMs();
      if (s3rverBefore !== undefined && s3rverAfter !== undefined)
        result.s3rverCpuMs = s3rverAfter - s3rverBefore;
      if (result.sha256 !== source.sha256)
        throw new Error(
          `copyUrlToS3 reported sha256 ${result.sha256}, the source is ${source.sha256}`,
        );
      const stored = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      check("the stored object", await sha256Of(stored.Body as Readable), source);
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      return result;
    };

    const small = await makeOutput(sim, SMALL);
    const large = await makeOutput(sim, GiB);
    ctx.log("warm-up and 100 MB runs");
    await baseline(small);
    const smallBases: ChildResult[] = [];
    const smallCopies: ChildResult[] = [];
    for (let i = 0; i < REPEATS; i++) {
      smallBases.push(await baseline(small));
      smallCopies.push(await copy(small));
    }
    // Peak RSS is compared highest against highest, over the same number of fresh processes.
    const smallRss = Math.max(...smallCopies.map((r) => r.maxRssBytes));
    const smallSpeed = median(smallCopies.map(mbps));
    const smallBaseSpeed = median(smallBases.map(mbps));
    const bases: ChildResult[] = [];
    const copies: ChildResult[] = [];
    for (let i = 0; i < REPEATS; i++) {
      bases.push(await baseline(large));
      copies.push(await copy(large));
      ctx.log(
        `1 GiB run ${i + 1}/${REPEATS}: fetch-to-file ${mbps(bases.at(-1)!).toFixed(0)} MB/s, copyUrlToS3 ${mbps(copies.at(-1)!).toFixed(0)} MB/s; peak RSS ${mb(bases.at(-1)!.maxRssBytes).toFixed(0)} and ${mb(copies.at(-1)!.maxRssBytes).toFixed(0)} MB; the copy's CPU ${copies.at(-1)!.cpuMs.toFixed(0)} ms`,
      );
    }
    const copyRss = Math.max(...copies.map((r) => r.maxRssBytes));
    const baseRss = Math.max(...bases.map((r) => r.maxRssBytes));
    const perGiB = (r: ChildResult, which: "cpuMs" | "processCpuMs" = "cpuMs") =>
      r[which] / 1000 / (r.bytes / GiB);
    const cpuPerGiB = (runs: ChildResult[], which: "cpuMs" | "processCpuMs" = "cpuMs") =>
      median(runs.map((r) => perGiB(r, which)));
    // Each copy against the fetch-to-file run just before it: a burst of load lands on both.
    const pairRatios = copies.map((c, i) => perGiB(c) / perGiB(bases[i] as ChildResult));
    return [
      {
        name: "copier CPU per GiB, a 1 GiB output into s3rver",
        value: cpuPerGiB(copies),
        unit: "CPU-s",
        baselineName: "plain fetch to a file hashing sha256, same bytes, same disk",
        baseline: cpuPerGiB(bases),
        ratio: median(pairRatios),
        target: { on: "ratio", atMost: 1.3 },
        note: `the copy's user + system time in each process (every thread; the process's start not counted), ${REPEATS} runs of each, alternating, medians; the ratio judged is the median of each copy's over the fetch-to-file run beside it (${pairRatios.map((r) => r.toFixed(2)).join(", ")}); ${loadNote()}; the copier also hashes every byte (sha256) and streams parts to S3, with the Download function's garbage-collector setting; whole processes: copier ${cpuPerGiB(copies, "processCpuMs").toFixed(2)}, fetch-to-file ${cpuPerGiB(bases, "processCpuMs").toFixed(2)} CPU-s per GiB; ${cpuNote(copies, bases)}`,
      },
      {
        name: "streaming copy of a 1 GiB output into s3rver, wall clock",
        value: median(copies.map(mbps)),
        unit: "MB/s",
        baselineName: "plain fetch to a file hashing sha256, same bytes, same disk",
        baseline: median(bases.map(mbps)),
        note: `no target: s3rver shares the 2 cores (its md5 and disk writes are S3's own work on AWS); every copy checked by size and sha256; ${loadNote()}`,
      },
      {
        name: "copier peak RSS, 1 GiB output",
        value: mb(copyRss),
        unit: "MB",
        baselineName: "plain fetch to a file hashing sha256",
        baseline: mb(baseRss),
        target: { on: "value", atMost: 150 },
        note: `highest of ${REPEATS} fresh processes, process.resourceUsage().maxRSS; the baseline's at 100 MB: ${mb(Math.max(...smallBases.map((r) => r.maxRssBytes))).toFixed(0)} MB`,
      },
      {
        name: "copier peak RSS, 1 GiB vs 100 MB output",
        value: mb(copyRss),
        unit: "MB",
        baselineName: "the same copy of a 100 MB output",
        baseline: mb(smallRss),
        target: { on: "ratio", atLeast: 0.9, atMost: 1.1 },
        note: `highest of ${REPEATS} fresh processes at each size; the 100 MB copy ran at ${smallSpeed.toFixed(0)} MB/s, its fetch-to-file at ${smallBaseSpeed.toFixed(0)} MB/s (medians)`,
      },
    ];
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

/** The machine's load while measuring: the copy needs about three times the CPU of its baseline. */
function loadNote(): string {
  return `load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`;
}

/** CPU seconds per run (medians) of every party: the copy is three processes, the baseline two. */
function cpuNote(copies: ChildResult[], bases: ChildResult[]): string {
  const s = (values: (number | undefined)[]) => {
    const known = values.filter((v): v is number => v !== undefined);
    return known.length === 0 ? Number.NaN : median(known) / 1000;
  };
  const copier = s(copies.map((r) => r.cpuMs));
  const s3rver = s(copies.map((r) => r.s3rverCpuMs));
  const copySim = s(copies.map((r) => r.simulatorCpuMs));
  const fetcher = s(bases.map((r) => r.cpuMs));
  const fetchSim = s(bases.map((r) => r.simulatorCpuMs));
  return (
    `CPU per run: copy ${(copier + s3rver + copySim).toFixed(1)} s (copier ${copier.toFixed(1)}, s3rver ${s3rver.toFixed(1)}, simulator ${copySim.toFixed(1)}), ` +
    `fetch-to-file ${(fetcher + fetchSim).toFixed(1)} s (fetch ${fetcher.toFixed(1)}, simulator ${fetchSim.toFixed(1)})`
  );
}
