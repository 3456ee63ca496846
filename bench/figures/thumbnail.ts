/**
 * Thumbnails: the wall time of a video's previews per job, a poster frame and a
 * 5x2 spritesheet decoded by ffmpeg (@ffmpeg-installer) from the video over HTTP, as the Download
 * step reads the stored copy through a presigned URL after its copy; against the copy of the same
 * file in the same run (simulator over HTTP -> copyUrlToS3 -> a store that hashes and drops the
 * bytes). The video is the simulator's real MP4 of an 8 s 1080p 16:9 request. The copy itself is
 * unchanged by this (ffmpeg runs after it, in a process of its own): the copy figures (copy.ts)
 * and the verification figure (verify.ts) are its time and memory.
 */
import { readFileSync } from "node:fs";
import ffmpeg from "@ffmpeg-installer/ffmpeg";
import { startSimulator } from "@reelay/simulator";
import { ffmpegFrames } from "@reelay/core/adapters";
import { copyUrlToS3 } from "@reelay/core/usecases";
import { median } from "../support/child.ts";
import type { BenchContext, Figure } from "../support/figure.ts";
import { hashingStore } from "../support/hashing-store.ts";
import { simulatorOutputUrl } from "../support/simulator-output.ts";

const REPEATS = 5;
const API_KEY = "bench-thumbnail";
const REQUEST = { duration_sec: 8, resolution: "1080p", aspect_ratio: "16:9" };

/** CPU ms of this process's waited-for children (ffmpeg), from /proc (Linux; 0 elsewhere). */
function childrenCpuMs(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

async function seconds<T>(run: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await run();
  return [(performance.now() - start) / 1000, value];
}

export async function figures(ctx: BenchContext): Promise<Figure[]> {
  const sim = await startSimulator({ apiKey: API_KEY, generationMs: 0 });
  try {
    const url = await simulatorOutputUrl(sim, API_KEY, {
      model: "gamma-3.1",
      prompt: "bench thumbnail",
      ...REQUEST,
    });
    const frames = ffmpegFrames(ffmpeg.path);
    const render = () => frames.render(url, { durationS: REQUEST.duration_sec });
    // Warm-up: the simulator encodes the clip on first serve, the OS caches ffmpeg's binary.
    await render();
    const copies: number[] = [];
    const thumbnails: number[] = [];
    const ffmpegCpu: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const [copy, copied] = await seconds(() =>
        copyUrlToS3(fetch, url, hashingStore, "outputs/bench/video.mp4"),
      );
      const cpuBefore = childrenCpuMs();
      const [thumbnail, made] = await seconds(render);
      ffmpegCpu.push(childrenCpuMs() - cpuBefore);
      copies.push(copy);
      thumbnails.push(thumbnail);
      ctx.log(
        `run ${i + 1}: copy ${(copy * 1000).toFixed(0)} ms (${copied.bytes} bytes), thumbnail and spritesheet ${(thumbnail * 1000).toFixed(0)} ms (${made.thumbnail.width}x${made.thumbnail.height}, ${made.spritesheet.width}x${made.spritesheet.height})`,
      );
    }
    return [
      {
        name: "thumbnails per job, in Download (poster frame + 5x2 spritesheet by ffmpeg, 8 s 1080p video over HTTP)",
        value: median(thumbnails),
        unit: "s",
        baselineName:
          "the copy of the same file (simulator over HTTP -> copyUrlToS3 -> hashing store)",
        baseline: median(copies),
        // The terminal event waits for the previews: a few seconds at most, far inside their 60 s bound.
        target: { on: "value", atMost: 5 },
        note: `${REPEATS} runs, medians; wall time; ffmpeg's CPU ${median(ffmpegCpu).toFixed(0)} ms a job`,
      },
    ];
  } finally {
    await sim.close();
  }
}
