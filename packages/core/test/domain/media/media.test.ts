import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isReelayError } from "../../../src/domain/errors.ts";
import type { JobRequest } from "../../../src/domain/jobs/request.ts";
import { mediaProbe } from "../../../src/domain/media/probe.ts";
import { type Media, mediaDifferences } from "../../../src/domain/media/types.ts";

/** The simulator's committed fixture: 2 s, 320x180, H.264 at 15 fps, moov first. */
const FIXTURE = readFileSync(new URL("../../../../simulator/fixtures/video.mp4", import.meta.url));
/** A 1x1 PNG: signature, IHDR, IDAT, IEND. */
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082",
  "hex",
);

function probed(kind: "video" | "image", bytes: Buffer, chunk = 1000): Media {
  const probe = mediaProbe(kind);
  for (let at = 0; at < bytes.length; at += chunk) probe.push(bytes.subarray(at, at + chunk));
  return probe.finish();
}

function invalidMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isReelayError(error, "output_invalid")) return error.message;
    throw error;
  }
  throw new Error("expected output_invalid");
}

function video(asked: Record<string, unknown>): JobRequest {
  return { model: "gamma-3.1", prompt: "p", ...asked } as JobRequest;
}

const HD: Media = { duration_s: 8, width: 1280, height: 720, codec: "h264", fps: 24, bytes: 1 };

describe("mediaProbe", () => {
  it("reads an MP4's duration, size, codec and frame rate from its boxes, in chunks of any size", () => {
    const expected = { duration_s: 2, width: 320, height: 180, codec: "h264", fps: 15 };
    expect(probed("video", FIXTURE)).toEqual({ ...expected, bytes: FIXTURE.length });
    expect(probed("video", FIXTURE, 1)).toEqual({ ...expected, bytes: FIXTURE.length });
    expect(probed("video", FIXTURE, 1 << 20)).toEqual({ ...expected, bytes: FIXTURE.length });
  });

  it("a file cut inside its mdat, one that never had a moov, and bytes that are not MP4 are output_invalid", () => {
    expect(invalidMessage(() => probed("video", FIXTURE.subarray(0, 4000)))).toMatch(
      /cut short: its "mdat" box .* is missing \d+ bytes/,
    );
    const ftypOnly = FIXTURE.subarray(0, FIXTURE.readUInt32BE(0));
    expect(invalidMessage(() => probed("video", ftypOnly))).toContain('no "moov" box');
    expect(
      invalidMessage(() => probed("video", Buffer.from("<html>503 Service Unavailable</html>"))),
    ).toContain("no MP4 box");
  });

  it("an image's format and size come from its header; bytes that are no image are output_invalid", () => {
    expect(probed("image", PNG)).toEqual({
      duration_s: null,
      width: 1,
      height: 1,
      codec: "png",
      fps: null,
      bytes: PNG.length,
    });
    expect(invalidMessage(() => probed("image", Buffer.from("not an image at all")))).toContain(
      "does not parse",
    );
  });
});

describe("mediaDifferences", () => {
  it("a duration within 1 s or 20 %, whichever is larger, is what was asked", () => {
    expect(mediaDifferences({ ...HD, duration_s: 8.9 }, video({ duration_sec: 8 }))).toEqual([]);
    expect(mediaDifferences({ ...HD, duration_s: 4.9 }, video({ duration_sec: 4 }))).toEqual([]);
    expect(mediaDifferences({ ...HD, duration_s: 11.9 }, video({ duration_sec: 10 }))).toEqual([]);
    expect(mediaDifferences({ ...HD, duration_s: 2 }, video({ duration_sec: 8 }))).toEqual([
      "duration 2 s where 8 s was asked",
    ]);
    expect(mediaDifferences({ ...HD, duration_s: 12.6 }, video({ duration_sec: 10 }))).toHaveLength(
      1,
    );
  });

  it("resolution is the short side within 2 %, the aspect ratio within 3 %; unset, adaptive and unknown names are not checked", () => {
    const asked = video({ resolution: "720p", aspect_ratio: "16:9" });
    expect(mediaDifferences(HD, asked)).toEqual([]);
    expect(mediaDifferences({ ...HD, width: 854, height: 480 }, asked)).toEqual([
      "resolution 854x480 where 720p was asked",
    ]);
    expect(mediaDifferences({ ...HD, width: 720, height: 1280 }, asked)).toEqual([
      "aspect ratio 720:1280 where 16:9 was asked",
    ]);
    expect(
      mediaDifferences({ ...HD, width: 1920, height: 1088 }, video({ resolution: "1080p" })),
    ).toEqual([]);
    expect(
      mediaDifferences({ ...HD, width: 832, height: 480 }, video({ aspect_ratio: "16:9" })),
    ).toEqual([]);
    expect(
      mediaDifferences(HD, video({ aspect_ratio: "adaptive", resolution: "540x960" })),
    ).toEqual([]);
    expect(
      mediaDifferences({ ...HD, width: 3840, height: 2160 }, video({ resolution: "4k" })),
    ).toEqual([]);
  });

  it("an image request is not compared", () => {
    const image = { model: "deltaq2-image", messages: [] } as unknown as JobRequest;
    expect(mediaDifferences({ ...HD, duration_s: null }, image)).toEqual([]);
  });
});
