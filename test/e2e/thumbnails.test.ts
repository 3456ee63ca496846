/**
 * Thumbnails on the local stack, through the real state machine interpreter and
 * the ffmpeg of @ffmpeg-installer: every succeeded video has a thumbnail and a spritesheet that
 * decode (ffprobe from @ffprobe-installer reads them back), served by
 * GET /v1/jobs/{id}/content as a 302 to a presigned GET; the route's errors; a video whose frames
 * do not decode succeeds with a thumbnail_failed warning; a file cut short still fails
 * output_invalid as before, with nothing to show.
 */
import { execFileSync } from "node:child_process";
import ffprobe from "@ffprobe-installer/ffprobe";
import { describe, it } from "vitest";
import {
  bearer,
  endedVideo,
  eventsFor,
  postJson,
  sha256OfUrl,
  stackPerFile,
  waitFor,
  waitForTerminalJob,
} from "./support/stack.ts";

const stackOf = stackPerFile({}, {}, { previews: true });

const ended = (prompt: string) => endedVideo(stackOf(), prompt);

/** The content route's answer, redirects not followed. */
async function content(id: string, variant?: string) {
  const query = variant === undefined ? "" : `?variant=${variant}`;
  const response = await fetch(`${stackOf().url}/v1/jobs/${id}/content${query}`, {
    headers: bearer(stackOf().apiKey),
    redirect: "manual",
  });
  const location = response.headers.get("location");
  const body = response.status === 302 ? undefined : ((await response.json()) as any);
  return { status: response.status, location, body };
}

/** What ffprobe reads of the image at `url`. */
async function probedImage(url: string) {
  const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
  const probed = JSON.parse(
    execFileSync(ffprobe.path, ["-v", "error", "-print_format", "json", "-show_streams", "-"], {
      input: bytes,
    }).toString(),
  ) as { streams: { codec_name: string; width: number; height: number }[] };
  const [stream] = probed.streams;
  return { codec: stream?.codec_name, width: stream?.width, height: stream?.height };
}

describe.concurrent("thumbnails and the content route on the local stack", () => {
  it("a succeeded video has a thumbnail (640x360) and a 5x2 spritesheet (800x180) that decode, listed in its view, served by the content route as 302s", async ({
    expect,
  }) => {
    const { id, job } = await ended("a harbour at dawn");
    expect(job.status).toBe("succeeded");
    expect(job.warnings).toEqual([]);
    expect(job.previews).toMatchObject({
      thumbnail: { key: `outputs/${id}/thumbnail.jpg`, width: 640, height: 360 },
      spritesheet: {
        key: `outputs/${id}/spritesheet.jpg`,
        width: 800,
        height: 180,
        columns: 5,
        rows: 2,
        frames: 10,
        frameWidth: 160,
        frameHeight: 90,
        intervalS: 0.8,
      },
    });
    const thumbnail = await content(id, "thumbnail");
    expect(thumbnail.status).toBe(302);
    expect(await probedImage(thumbnail.location ?? "")).toEqual({
      codec: "mjpeg",
      width: 640,
      height: 360,
    });
    const sheet = await content(id, "spritesheet");
    expect(sheet.status).toBe(302);
    expect(await probedImage(sheet.location ?? "")).toEqual({
      codec: "mjpeg",
      width: 800,
      height: 180,
    });
    // The view's own links are the same objects.
    expect(await probedImage(job.previews.thumbnail.url)).toMatchObject({ width: 640 });
    // The video, by name or by default: the stored copy, byte for byte.
    for (const variant of ["video", undefined]) {
      const video = await content(id, variant);
      expect(video.status).toBe(302);
      expect(await sha256OfUrl(video.location ?? "")).toEqual({
        sha256: job.outputs[0].sha256,
        bytes: job.outputs[0].bytes,
      });
    }
    // One event, after the previews were made: its job carries no thumbnail warning.
    const events = await eventsFor(stackOf().dataDir, id);
    expect(events.map((event) => event["detail-type"])).toEqual(["Generation Succeeded"]);
  });

  it("an unknown variant is 400 invalid_query naming `variant`; an unknown job is 404 job_not_found", async ({
    expect,
  }) => {
    const { id } = await ended("a lighthouse");
    const bad = await content(id, "poster");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_query", path: "variant" });
    const missing = await content("vidtsk_01JD8ZB0000000000000000000", "thumbnail");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("job_not_found");
  });

  it("an image job has no thumbnail (404 content_not_found) but its image is its video variant", async ({
    expect,
  }) => {
    const stack = stackOf();
    const made = await postJson(`${stack.url}/v1/chat/completions`, stack.apiKey, {
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a red kite" }],
      modalities: ["image", "text"],
    });
    const id = made.body.task_id as string;
    const job = await waitForTerminalJob(stack.url, stack.apiKey, id);
    expect(job.status).toBe("succeeded");
    expect(job.previews).toBeNull();
    const thumbnail = await content(id, "thumbnail");
    expect(thumbnail.status).toBe(404);
    expect(thumbnail.body.error).toMatchObject({ code: "content_not_found", path: "variant" });
    expect((await content(id)).status).toBe(302);
  });

  it("a video whose frames do not decode ([[sim:undecodable_file]]) succeeds as before, charged, with one event, a thumbnail_failed warning and no previews (404 content_not_found); its video is still served", async ({
    expect,
  }) => {
    const { id, job } = await ended("a scrambled harbour [[sim:undecodable_file]]");
    expect(job.status).toBe("succeeded");
    expect(job.charged).toBe(true);
    expect(job.media).toMatchObject({ width: 1280, height: 720, codec: "h264" });
    expect(job.previews).toBeNull();
    expect(job.warnings).toEqual([
      { path: "", code: "thumbnail_failed", message: expect.stringContaining("could not decode") },
    ]);
    const thumbnail = await content(id, "thumbnail");
    expect(thumbnail.status).toBe(404);
    expect(thumbnail.body.error.code).toBe("content_not_found");
    expect((await content(id, "video")).status).toBe(302);
    const events = await eventsFor(stackOf().dataDir, id);
    expect(events.map((event) => event["detail-type"])).toEqual(["Generation Succeeded"]);
    expect(events[0]?.detail.warnings.map((w: { code: string }) => w.code)).toEqual([
      "thumbnail_failed",
    ]);
  });

  it("a file cut short still fails output_invalid as before: no previews, no thumbnail warning, 404 content_not_found, one event", async ({
    expect,
  }) => {
    const { id, job } = await ended("a broken harbour [[sim:truncated_file]]");
    expect(job.status).toBe("failed");
    expect(job.error).toMatchObject({ code: "output_invalid", retryable: true });
    expect(job.charged).toBe(true);
    expect(job.previews).toBeNull();
    for (const variant of ["thumbnail", "video"]) {
      const answer = await content(id, variant);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe("content_not_found");
    }
    const events = await waitFor("the failed event", async () => {
      const found = await eventsFor(stackOf().dataDir, id);
      return found.length > 0 ? found : undefined;
    });
    expect(events.map((event) => event["detail-type"])).toEqual(["Generation Failed"]);
  });
});
