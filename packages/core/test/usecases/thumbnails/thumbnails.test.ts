/**
 * A video's previews, made by the Download step right after its copy, on the pipeline's real parts
 * (dynalite, s3rver, the simulator's real MP4s over HTTP) with the real ffmpeg from
 * @ffmpeg-installer: the images it stores are decoded back by ffprobe and ffmpeg from the same
 * registry packages, and a video that does not decode (or no time left for it) leaves a warning
 * and nothing else changed: Download still succeeds, and so does the job.
 */
import { execFileSync } from "node:child_process";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import ffmpeg from "@ffmpeg-installer/ffmpeg";
import ffprobe from "@ffprobe-installer/ffprobe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ffmpegFrames } from "../../../src/adapters/media/ffmpeg-frames.ts";
import type { TerminalEvent } from "../../../src/domain/events/types.ts";
import { chargedOf } from "../../../src/domain/money/charge.ts";
import type { FlowState } from "../../../src/domain/pipeline/flow-state.ts";
import { download } from "../../../src/usecases/pipeline/download-step.ts";
import { finish } from "../../../src/usecases/pipeline/finish-step.ts";
import { submit } from "../../../src/usecases/pipeline/submit-step.ts";
import type { PipelineDeps } from "../../../src/usecases/pipeline/pipeline-deps.ts";
import { type Harness, pollToEnd, queuedJob, startHarness } from "../pipeline/harness.ts";

let h: Harness;
let deps: PipelineDeps;
beforeAll(async () => {
  h = await startHarness();
  deps = { ...h.deps, frames: ffmpegFrames(ffmpeg.path) };
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

/** 1280x720, 4 s: the simulator encodes exactly this shape. */
function video(prompt: string) {
  return { model: "gamma-3.1", prompt, duration_sec: 4, resolution: "720p", aspect_ratio: "16:9" };
}

async function downloaded(prompt: string, using = deps): Promise<FlowState> {
  const queued = await queuedJob(using, video(prompt));
  return download(using, await pollToEnd(using, await submit(using, { jobId: queued.id })));
}

async function storedBytes(key: string): Promise<Buffer> {
  const answer = await h.aws.s3.send(new GetObjectCommand({ Bucket: h.aws.bucket, Key: key }));
  return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
}

/** What ffprobe reads of an image, and whether ffmpeg decodes every frame of it without an error. */
function decoded(bytes: Buffer): { codec: string; width: number; height: number } {
  execFileSync(ffmpeg.path, ["-v", "error", "-xerror", "-i", "-", "-f", "null", "-"], {
    input: bytes,
  });
  const probed = JSON.parse(
    execFileSync(ffprobe.path, ["-v", "error", "-print_format", "json", "-show_streams", "-"], {
      input: bytes,
    }).toString(),
  ) as { streams: { codec_name: string; width: number; height: number }[] };
  const [stream] = probed.streams;
  return {
    codec: stream?.codec_name ?? "",
    width: stream?.width ?? 0,
    height: stream?.height ?? 0,
  };
}

async function eventOf(jobId: string): Promise<TerminalEvent | undefined> {
  const all = (await h.events.readAll()) as TerminalEvent[];
  return all.find((event) => event.detail.jobId === jobId);
}

describe("a video's previews, made by Download", () => {
  it("stores a 640x360 JPEG poster and an 800x180 spritesheet of 10 frames (5x2 of 160x90) that decode back, listed on the record and in the manifest Download writes", async () => {
    const state = await downloaded("a lighthouse at dusk");
    expect(state.outcome).toBe("succeeded");
    const job = await deps.jobs.require(state.jobId);
    expect(job.status).toBe("downloading");
    expect(job.previews).toMatchObject({
      thumbnail: {
        key: `outputs/${job.id}/thumbnail.jpg`,
        contentType: "image/jpeg",
        width: 640,
        height: 360,
      },
      spritesheet: {
        key: `outputs/${job.id}/spritesheet.jpg`,
        contentType: "image/jpeg",
        width: 800,
        height: 180,
        columns: 5,
        rows: 2,
        frames: 10,
        frameWidth: 160,
        frameHeight: 90,
        intervalS: 0.4,
      },
    });
    const poster = await storedBytes(job.previews?.thumbnail.key ?? "");
    expect(poster.length).toBe(job.previews?.thumbnail.bytes);
    expect(decoded(poster)).toEqual({ codec: "mjpeg", width: 640, height: 360 });
    const sheet = await storedBytes(job.previews?.spritesheet.key ?? "");
    expect(sheet.length).toBe(job.previews?.spritesheet.bytes);
    expect(decoded(sheet)).toEqual({ codec: "mjpeg", width: 800, height: 180 });
    const manifest = JSON.parse((await storedBytes(`outputs/${job.id}/job.json`)).toString());
    expect(manifest.previews).toEqual(job.previews);
    expect(job.warnings).toEqual([]);
    // Finish then ends the job as it would have: succeeded, one event, previews kept.
    expect((await finish(deps, state)).status).toBe("succeeded");
    expect((await deps.jobs.require(job.id)).previews).toEqual(job.previews);
    expect((await eventOf(job.id))?.detail.warnings).toEqual([]);
  });

  it("a repeated Download (a retry, a resume) keeps the previews it made and makes none again", async () => {
    const state = await downloaded("a lighthouse twice");
    const first = await deps.jobs.require(state.jobId);
    let renders = 0;
    const counting = {
      ...deps,
      frames: {
        render: (...args: Parameters<NonNullable<PipelineDeps["frames"]>["render"]>) => {
          renders += 1;
          return deps.frames!.render(...args);
        },
      },
    };
    expect((await download(counting, state)).outcome).toBe("succeeded");
    expect(renders).toBe(0);
    expect((await deps.jobs.require(state.jobId)).previews).toEqual(first.previews);
  });

  it("a video whose frames do not decode ([[sim:undecodable_file]]) gets no previews and a thumbnail_failed warning; Download and the job still succeed, charged, with one event carrying the warning", async () => {
    const state = await downloaded("a scrambled reel [[sim:undecodable_file]]");
    expect(state.outcome).toBe("succeeded");
    const job = await deps.jobs.require(state.jobId);
    expect(job.status).toBe("downloading");
    expect(job.outputs?.[0]?.key).toBe(`outputs/${job.id}/video.mp4`);
    expect(job.previews).toBeUndefined();
    expect(job.warnings).toEqual([
      { path: "", code: "thumbnail_failed", message: expect.stringContaining("could not decode") },
    ]);
    // ffmpeg's words are kept, the presigned link it read from is not.
    expect(job.warnings[0]?.message).not.toMatch(/X-Amz-|https?:\/\//i);
    expect(await deps.objects.head(`outputs/${job.id}/thumbnail.jpg`)).toBeUndefined();
    const manifest = JSON.parse((await storedBytes(`outputs/${job.id}/job.json`)).toString());
    expect(manifest.warnings).toEqual(job.warnings);
    expect((await finish(deps, state)).status).toBe("succeeded");
    const ended = await deps.jobs.require(job.id);
    expect(chargedOf(ended)).toBe(true);
    const events = ((await h.events.readAll()) as TerminalEvent[]).filter(
      (event) => event.detail.jobId === job.id,
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.["detail-type"]).toBe("Generation Succeeded");
    expect(events[0]?.detail.warnings.map((w) => w.code)).toEqual(["thumbnail_failed"]);
  });

  it("a copy that left too little of the invocation's time (Lambda's context) runs no ffmpeg: the warning, and the job succeeds", async () => {
    let renders = 0;
    const hurried: PipelineDeps = {
      ...deps,
      remainingMs: () => 30_000,
      frames: {
        render: () => {
          renders += 1;
          throw new Error("not to be run");
        },
      },
    };
    const state = await downloaded("a long reel", hurried);
    expect(state.outcome).toBe("succeeded");
    expect(renders).toBe(0);
    const job = await deps.jobs.require(state.jobId);
    expect(job.previews).toBeUndefined();
    expect(job.warnings).toEqual([
      { path: "", code: "thumbnail_failed", message: expect.stringContaining("no time") },
    ]);
    expect((await finish(deps, state)).status).toBe("succeeded");
  });

  it("when an execution started before this change failed its Thumbnail state as a whole (Catch hands Finish its error), the job still succeeds, with the warning", async () => {
    // No previews from its Download (here one without a frame renderer, which makes none).
    const { frames: _frames, ...old } = deps;
    const state = await downloaded("a lost frame", old);
    const caught = { Error: "States.Timeout", Cause: "The function timed out." };
    expect((await finish(deps, { ...state, thumbnailError: caught })).status).toBe("succeeded");
    const job = await deps.jobs.require(state.jobId);
    expect(job.status).toBe("succeeded");
    expect(job.warnings.map((w) => w.code)).toEqual(["thumbnail_failed"]);
    expect((await eventOf(job.id))?.detail.warnings.map((w) => w.code)).toEqual([
      "thumbnail_failed",
    ]);
  });

  it("a process with no frame renderer (a local stack run with previews off) makes no previews and leaves no warning", async () => {
    const { frames: _frames, ...off } = deps;
    const state = await downloaded("a quiet pond", off);
    expect(state.outcome).toBe("succeeded");
    const job = await deps.jobs.require(state.jobId);
    expect(job.previews).toBeUndefined();
    expect(job.warnings).toEqual([]);
    expect(await deps.objects.head(`outputs/${job.id}/thumbnail.jpg`)).toBeUndefined();
  });

  it("an image job gets no previews and no warning", async () => {
    const queued = await queuedJob(deps, {
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a red kite" }],
      modalities: ["image", "text"],
    });
    const state = await download(
      deps,
      await pollToEnd(deps, await submit(deps, { jobId: queued.id })),
    );
    expect(state.outcome).toBe("succeeded");
    const job = await deps.jobs.require(queued.id);
    expect(job.previews).toBeUndefined();
    expect(job.warnings.filter((w) => w.code === "thumbnail_failed")).toEqual([]);
  });
});
