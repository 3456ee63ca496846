/**
 * Media verification: the CPU of reading an output's MP4 boxes as it streams
 * (domain/media/probe.ts) against the CPU of the copy itself, per GiB. The copy here is
 * copyUrlToS3 from the simulator over HTTP into a store that hashes the bytes and drops them, both
 * in this process: it leaves out S3's upload (which the copy figure counts) and counts the
 * simulator's serving, so the baseline is of the same order as the copier's own and the ratio is
 * a fair reading of what verification adds. The probe is timed over the same bytes as the
 * simulator serves them (a real MP4 padded with one `free` box), in memory, after a warm-up pass.
 */
import { startSimulator } from "@reelay/simulator";
import { videoChunks } from "@reelay/simulator/video-output";
import { copyUrlToS3, loadMediaProbe } from "@reelay/core/usecases";
import { cpuMs, median } from "../support/child.ts";
import type { BenchContext, Figure } from "../support/figure.ts";
import { hashingStore } from "../support/hashing-store.ts";
import { simulatorOutputUrl } from "../support/simulator-output.ts";

type MediaProbeOf = Awaited<ReturnType<typeof loadMediaProbe>>["mediaProbe"];

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const SIZE = 256 * MiB;
const REPEATS = 3;
const API_KEY = "bench-verify";

function probeCpuMs(mediaProbe: MediaProbeOf): number {
  const probe = mediaProbe("video");
  const start = process.cpuUsage();
  for (const chunk of videoChunks(SIZE, "vidtsk_bench")) probe.push(chunk);
  const media = probe.finish();
  const spent = cpuMs(start);
  if (media.bytes !== SIZE) throw new Error(`the probe read ${media.bytes} bytes, not ${SIZE}`);
  return spent;
}

export async function figures(ctx: BenchContext): Promise<Figure[]> {
  const sim = await startSimulator({ apiKey: API_KEY, generationMs: 0 });
  try {
    const url = await simulatorOutputUrl(sim, API_KEY, {
      model: "alpha-2.7",
      prompt: `bench verify [[sim:output_bytes=${SIZE}]]`,
    });
    const { mediaProbe } = await loadMediaProbe();
    probeCpuMs(mediaProbe);
    const copies: number[] = [];
    const probes: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const start = process.cpuUsage();
      const copied = await copyUrlToS3(fetch, url, hashingStore, "outputs/bench/video.mp4");
      copies.push(cpuMs(start));
      if (copied.bytes !== SIZE) throw new Error(`the copy stored ${copied.bytes} bytes`);
      probes.push(probeCpuMs(mediaProbe));
      ctx.log(
        `run ${i + 1}: copy ${copies.at(-1)?.toFixed(0)} CPU ms, probe ${probes.at(-1)?.toFixed(0)} CPU ms`,
      );
    }
    const perGiB = GiB / SIZE;
    return [
      {
        name: "media verification CPU per GiB (reading the MP4 boxes while streaming)",
        value: median(probes) * perGiB,
        unit: "CPU ms",
        baselineName: "the copy itself (simulator over HTTP -> copyUrlToS3 -> hashing store)",
        baseline: median(copies) * perGiB,
        target: { on: "ratio", atMost: 0.02 },
        note: `${REPEATS} runs of ${SIZE / MiB} MiB each, medians`,
      },
    ];
  } finally {
    await sim.close();
  }
}
