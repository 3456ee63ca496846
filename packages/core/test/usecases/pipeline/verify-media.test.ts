/**
 * Media verification on the pipeline's real parts (dynalite, s3rver, the simulator over HTTP): the
 * Download step reads each output's structure as it streams into the bucket, records `media`, and
 * judges it against the request. ffprobe (from @ffprobe-installer, a registry package that ships
 * the binary) is the outside reference for what a good file is.
 */
import { execFileSync } from "node:child_process";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import ffprobe from "@ffprobe-installer/ffprobe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TerminalEvent } from "../../../src/domain/events/types.ts";
import { classifiedError } from "../../../src/domain/money/view.ts";
import { chargedOf } from "../../../src/domain/money/charge.ts";
import { download } from "../../../src/usecases/pipeline/download-step.ts";
import { recordFailure } from "../../../src/usecases/pipeline/record-failure-step.ts";
import { submit } from "../../../src/usecases/pipeline/submit-step.ts";
import type { PipelineDeps } from "../../../src/usecases/pipeline/pipeline-deps.ts";
import { caught } from "../../adapters/upstream/rejection.ts";
import { recordingMetrics } from "../../support/recording-metrics.ts";
import { type Harness, pollToEnd, queuedJob, runFlow, startHarness } from "./harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

function video(prompt: string, asked: Record<string, unknown> = {}) {
  return {
    model: "gamma-3.1",
    prompt,
    duration_sec: 8,
    resolution: "720p",
    aspect_ratio: "16:9",
    ...asked,
  };
}

/** Submit, the poll loop and a Download that is expected to throw; then RecordFailure as the Catch runs it. */
async function failedDownload(deps: PipelineDeps, jobId: string) {
  const state = await pollToEnd(deps, await submit(deps, { jobId }));
  const error = await caught(download(deps, state));
  const cause = JSON.stringify({ errorType: error.name, errorMessage: error.message });
  await recordFailure(deps, { ...state, error: { Error: error.name, Cause: cause } });
  return { error, job: await deps.jobs.require(jobId) };
}

async function eventOf(jobId: string): Promise<TerminalEvent | undefined> {
  const all = (await h.events.readAll()) as TerminalEvent[];
  return all.find((event) => event.detail.jobId === jobId);
}

async function storedBytes(key: string): Promise<Buffer> {
  const answer = await h.aws.s3.send(new GetObjectCommand({ Bucket: h.aws.bucket, Key: key }));
  return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
}

describe("media verification in the Download step", () => {
  it("a good file's media equals what ffprobe says about the stored object (duration within 0.1 s, width, height, codec)", async () => {
    const queued = await queuedJob(h.deps, video("a lighthouse at dusk"));
    expect((await runFlow(h.deps, queued.id)).status).toBe("succeeded");
    const job = await h.deps.jobs.require(queued.id);
    const key = job.outputs?.[0]?.key ?? "";
    const stored = await storedBytes(key);
    const probed = JSON.parse(
      execFileSync(
        ffprobe.path,
        ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", "-"],
        { input: stored },
      ).toString(),
    ) as {
      format: { duration: string };
      streams: { codec_type: string; codec_name: string; width: number; height: number }[];
    };
    const stream = probed.streams.find((s) => s.codec_type === "video");
    expect(job.media).toBeDefined();
    expect(Math.abs((job.media?.duration_s ?? 0) - Number(probed.format.duration))).toBeLessThan(
      0.1,
    );
    expect(job.media).toMatchObject({
      width: stream?.width,
      height: stream?.height,
      codec: stream?.codec_name,
      bytes: stored.length,
    });
    expect(job.media).toMatchObject({ duration_s: 8, width: 1280, height: 720 });
    expect(job.warnings.filter((w) => w.code === "output_mismatch")).toEqual([]);
    // The manifest and the terminal event carry the same media.
    const manifest = JSON.parse((await storedBytes(`outputs/${job.id}/job.json`)).toString());
    expect(manifest.media).toEqual(job.media);
    expect((await eventOf(job.id))?.detail.media).toEqual(job.media);
  });

  it("a file cut short with a Content-Length that matches its bytes fails the job output_invalid: class upstream_failed, charged, retryable", async () => {
    const metrics = recordingMetrics();
    const deps = { ...h.deps, metrics };
    const queued = await queuedJob(deps, video("a broken reel [[sim:truncated_file]]"));
    const { error, job } = await failedDownload(deps, queued.id);
    // Permanent for the step: the whole announced length arrived, another download gets the same bytes.
    expect(error).toMatchObject({ name: "ReelayError", code: "output_invalid" });
    expect(job.status).toBe("failed");
    expect(job.error?.message).toContain("cut short");
    expect(classifiedError(job.error ?? { code: "", message: "" })).toMatchObject({
      code: "output_invalid",
      class: "upstream_failed",
      retryable: true,
    });
    expect(chargedOf(job)).toBe(true);
    const event = await eventOf(job.id);
    expect(event?.detail).toMatchObject({
      charged: true,
      error: { code: "output_invalid", class: "upstream_failed", retryable: true },
    });
    expect(metrics.total("reelay_output_verification_failures_total")).toBe(1);
    expect(
      metrics.total("reelay_output_verification_failures_total", { code: "output_invalid" }),
    ).toBe(1);
  });

  it("a 2 s clip for an 8 s request succeeds with an output_mismatch warning naming the duration, counted", async () => {
    const metrics = recordingMetrics();
    const deps = { ...h.deps, metrics };
    const queued = await queuedJob(deps, video("a short reel [[sim:output_duration_s=2]]"));
    expect((await runFlow(deps, queued.id)).status).toBe("succeeded");
    const job = await deps.jobs.require(queued.id);
    expect(job.media).toMatchObject({ duration_s: 2, width: 1280, height: 720, codec: "h264" });
    const mismatches = job.warnings.filter((w) => w.code === "output_mismatch");
    expect(mismatches).toHaveLength(1);
    expect(mismatches[0]?.message).toContain("duration 2 s where 8 s was asked");
    expect(mismatches[0]?.message).not.toContain("resolution");
    expect((await eventOf(job.id))?.detail.warnings).toEqual(job.warnings);
    expect(metrics.total("reelay_output_verification_failures_total")).toBe(1);
    expect(
      metrics.total("reelay_output_verification_failures_total", { code: "output_mismatch" }),
    ).toBe(1);
  });

  it("under REELAY_VERIFY=strict the same 2 s clip fails the job output_mismatch, charged", async () => {
    const deps: PipelineDeps = { ...h.deps, verify: "strict" };
    const queued = await queuedJob(
      deps,
      video("a short reel, strictly [[sim:output_duration_s=2]]"),
    );
    const { error, job } = await failedDownload(deps, queued.id);
    expect(error).toMatchObject({ name: "ReelayError", code: "output_mismatch" });
    expect(job.status).toBe("failed");
    expect(job.error?.code).toBe("output_mismatch");
    expect(job.error?.message).toContain("duration 2 s where 8 s was asked");
    expect(chargedOf(job)).toBe(true);
  });
});
