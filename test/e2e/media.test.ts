/**
 * Media verification on the local stack, through the real state machine interpreter:
 * a succeeded video's `media` in GET /v1/jobs/{id} and its event; an upstream file cut short
 * (whole download, Content-Length of the cut bytes) fails the job output_invalid on the first
 * download, charged and retryable; a 2 s clip for an 8 s request succeeds with output_mismatch.
 */
import { describe, it } from "vitest";
import { endedVideo, eventsFor, stackPerFile } from "./support/stack.ts";

const stackOf = stackPerFile();

const ended = (prompt: string) => endedVideo(stackOf(), prompt);

describe.concurrent("verified media on the local stack", () => {
  it("a succeeded video shows its media in the job view and its Generation Succeeded event, with no warning", async ({
    expect,
  }) => {
    const { id, job } = await ended("a harbour at dawn");
    expect(job.status).toBe("succeeded");
    expect(job.media).toEqual({
      duration_s: 8,
      width: 1280,
      height: 720,
      codec: "h264",
      fps: 8,
      bytes: job.outputs[0].bytes,
    });
    expect(job.outputs[0].media).toEqual(job.media);
    expect(job.warnings).toEqual([]);
    const [event] = await eventsFor(stackOf().dataDir, id);
    expect(event?.detail.media).toEqual(job.media);
  });

  it("a file cut short with a matching Content-Length fails output_invalid on its first download: upstream_failed, charged, retryable", async ({
    expect,
  }) => {
    const { id, job } = await ended("a broken harbour [[sim:truncated_file]]");
    expect(job.status).toBe("failed");
    expect(job.error).toMatchObject({
      code: "output_invalid",
      class: "upstream_failed",
      retryable: true,
    });
    expect(job.charged).toBe(true);
    // Permanent for the step: the flow's Retry did not download the same broken file again.
    expect(stackOf().simulator?.counters().downloadsByTask[job.upstreamTaskId]).toBe(1);
    const events = await eventsFor(stackOf().dataDir, id);
    expect(events.map((event) => event["detail-type"])).toEqual(["Generation Failed"]);
  });

  it("a 2 s clip for an 8 s request succeeds with an output_mismatch warning naming the duration", async ({
    expect,
  }) => {
    const { job } = await ended("a short harbour [[sim:output_duration_s=2]]");
    expect(job.status).toBe("succeeded");
    expect(job.media.duration_s).toBe(2);
    expect(job.warnings).toEqual([
      {
        path: "",
        code: "output_mismatch",
        message: "The output differs from the request: duration 2 s where 8 s was asked.",
      },
    ]);
  });
});
