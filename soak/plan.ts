/**
 * The soak's jobs, decided before the run: which endpoint and model, how long the simulator takes,
 * how big the output is, which per-job fault it carries and so how it must end.
 */
import {
  dealJobFaults,
  directiveFor,
  EXPECTED_CODE,
  type FaultMix,
  type JobFault,
} from "./faults.ts";

export interface PlannedJob {
  index: number;
  /** Sent as X-Idempotency-Key on every try of the submission. */
  key: string;
  endpoint: "/v1/video/generations" | "/v1/chat/completions";
  body: Record<string, unknown>;
  fault: JobFault | undefined;
  /** "succeeded", or the error code the job must fail with. */
  expect: string;
}

/** Valid requests over several video families (each within its model's rules), and one image model. */
const VIDEO_REQUESTS: Record<string, unknown>[] = [
  { model: "gamma-3.1", duration_sec: 4, aspect_ratio: "16:9", generate_audio: false },
  { model: "os-2", duration_sec: 4 },
  { model: "beta-2.0-os", duration_sec: 5, resolution: "720p" },
  { model: "kappa-omni-flash-preview", duration_sec: 5, resolution: "720p", aspect_ratio: "9:16" },
  { model: "zeta-1.1", duration_sec: 5, aspect_ratio: "1:1" },
  { model: "alpha-2.7", duration_sec: 5, resolution: "1080p" },
  { model: "epsilon-2.3", duration_sec: 6, resolution: "720p" },
];
const SUBJECTS = [
  "a paper boat in the rain",
  "a lighthouse at dusk",
  "a fox in fresh snow",
  "a tram crossing a bridge",
  "bees over lavender",
];
/** One job in this many asks for images (small PNGs, 1 or 2 per task). */
const IMAGE_EVERY = 8;

export interface PlanOptions {
  jobs: number;
  mix: FaultMix;
  random: () => number;
  runId: string;
  /** The simulator's generation time per task is drawn from this range (ms). */
  generationMs: [number, number];
  /** Video output sizes are drawn from this range (bytes). */
  outputBytes: [number, number];
}

function between(random: () => number, [low, high]: [number, number]): number {
  return Math.round(low + random() * (high - low));
}

export function planJobs(opts: PlanOptions): PlannedJob[] {
  const faults = dealJobFaults(opts.mix, opts.jobs, opts.random);
  return faults.map((fault, index) => {
    const directives = [`[[sim:generation_ms=${between(opts.random, opts.generationMs)}]]`];
    if (fault !== undefined) directives.push(directiveFor(fault));
    const subject = SUBJECTS[index % SUBJECTS.length] ?? "a paper boat";
    const image = index % IMAGE_EVERY === IMAGE_EVERY - 1;
    if (!image) directives.push(`[[sim:output_bytes=${between(opts.random, opts.outputBytes)}]]`);
    const prompt = `soak ${index + 1}: ${subject} ${directives.join(" ")}`;
    const expect = fault === undefined ? "succeeded" : (EXPECTED_CODE[fault] ?? "succeeded");
    const key = `soak-${opts.runId}-${index + 1}`;
    if (image) {
      const body = {
        model: "deltaq2-image",
        messages: [{ role: "user", content: prompt }],
        modalities: ["image", "text"],
        image_config: { aspect_ratio: "1:1", image_size: "2K" },
        output_image_count: 1 + (index % 2),
      };
      return { index, key, endpoint: "/v1/chat/completions", body, fault, expect };
    }
    const request = VIDEO_REQUESTS[index % VIDEO_REQUESTS.length] ?? VIDEO_REQUESTS[0];
    return {
      index,
      key,
      endpoint: "/v1/video/generations",
      body: { ...request, prompt },
      fault,
      expect,
    };
  });
}
