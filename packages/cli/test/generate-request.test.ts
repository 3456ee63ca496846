import { describe, expect, it } from "vitest";
import { buildVideoRequest } from "../src/client/request.ts";
import { UsageError } from "../src/usage.ts";

describe("buildVideoRequest (reelay generate's flags as a contract request)", () => {
  it("maps each flag to its §2.1 field", () => {
    expect(
      buildVideoRequest({
        prompt: "a boat",
        model: "gamma-3.1",
        duration: "6",
        resolution: "1080p",
        aspect: "9:16",
        audio: false,
        firstFrame: "https://example.com/a.png",
        lastFrame: "https://example.com/b.png",
      }),
    ).toEqual({
      model: "gamma-3.1",
      prompt: "a boat",
      duration_sec: 6,
      resolution: "1080p",
      aspect_ratio: "9:16",
      generate_audio: false,
      frame_images: [
        {
          type: "image_url",
          frame_type: "first_frame",
          image_url: { url: "https://example.com/a.png" },
        },
        {
          type: "image_url",
          frame_type: "last_frame",
          image_url: { url: "https://example.com/b.png" },
        },
      ],
    });
  });

  it("makes a --ref ending in a video extension a video_url reference and any other an image_url one", () => {
    const body = buildVideoRequest({
      prompt: "p",
      model: "m",
      refs: ["https://x.test/clip.mp4", "asset://vidast_1"],
    });
    expect(body.input_references).toEqual([
      { type: "video_url", video_url: "https://x.test/clip.mp4" },
      { type: "image_url", image_url: { url: "asset://vidast_1" } },
    ]);
  });

  it("reads --config values as JSON when they parse and as text otherwise", () => {
    const body = buildVideoRequest({
      prompt: "p",
      model: "m",
      config: ["seed=42", "watermark=false", "scene_type=text_to_video", "eq=a=b"],
    });
    expect(body.model_specific_config).toEqual({
      seed: 42,
      watermark: false,
      scene_type: "text_to_video",
      eq: "a=b",
    });
  });

  it("leaves out what was not given, so the model's defaults apply", () => {
    expect(buildVideoRequest({ prompt: undefined, model: "gamma-3.1" })).toEqual({
      model: "gamma-3.1",
    });
  });

  it("keeps frames and references given as local paths as they are, for generate to upload, a video path as video_url", () => {
    const body = buildVideoRequest({
      prompt: "p",
      model: "m",
      firstFrame: "./frame.png",
      refs: ["photos/cat.jpg", "./clip.mp4"],
    });
    expect(body.frame_images).toEqual([
      { type: "image_url", frame_type: "first_frame", image_url: { url: "./frame.png" } },
    ]);
    expect(body.input_references).toEqual([
      { type: "image_url", image_url: { url: "photos/cat.jpg" } },
      { type: "video_url", video_url: "./clip.mp4" },
    ]);
  });

  it.each([
    [{ duration: "4.5" }, /--duration/],
    [{ duration: "" }, /--duration/],
    [{ config: ["=1"] }, /key=value/],
  ])("refuses %o as a usage error", (flags, message) => {
    expect(() => buildVideoRequest({ prompt: "p", model: "m", ...flags })).toThrow(UsageError);
    expect(() => buildVideoRequest({ prompt: "p", model: "m", ...flags })).toThrow(message);
  });
});
