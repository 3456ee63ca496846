import { describe, expect, it } from "vitest";
import { createCatalog, defaultCatalog } from "../../../src/domain/catalog/catalog.ts";
import type { ModelSpec, VideoModelSpec } from "../../../src/domain/catalog/types.ts";
import { fitRequest } from "../../../src/domain/validate/fit.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { first, last } from "./helpers.ts";

const spec = (code: string): ModelSpec => {
  const found = defaultCatalog.get(code);
  if (found === undefined) throw new Error(`no model ${code}`);
  return found;
};

/** The moves fit makes to a prompt-only request for `code` with `fields`. */
const movesFor = (code: string, fields: Record<string, unknown>) =>
  fitRequest({ model: code, prompt: "a fox", ...fields }, spec(code)).adjustments;

describe("fitRequest", () => {
  it("moves os-2's 5 s to 4 s and records the move at duration_sec", () => {
    const asked = { model: "os-2", prompt: "a fox", duration_sec: 5 };
    const fitted = fitRequest(asked, spec("os-2"));
    expect(fitted.request.duration_sec).toBe(4);
    expect(fitted.adjustments).toEqual([{ path: "duration_sec", from: 5, to: 4 }]);
    expect(asked.duration_sec).toBe(5);
  });

  it("breaks a duration tie toward the longer video (os-2: 6 s is as near 4 as 8)", () => {
    expect(movesFor("os-2", { duration_sec: 6 })).toEqual([
      { path: "duration_sec", from: 6, to: 8 },
    ]);
  });

  it("clamps a duration past a range's end to the range's end (beta: 4 to 15)", () => {
    expect(movesFor("beta-2.0-os", { duration_sec: 30 })).toEqual([
      { path: "duration_sec", from: 30, to: 15 },
    ]);
  });

  it("moves 4k on a model that tops out at 1080p down to 1080p", () => {
    expect(movesFor("gamma-3.1-lite", { duration_sec: 6, resolution: "4k" })).toEqual([
      { path: "resolution", from: "4k", to: "1080p" },
    ]);
  });

  it("moves an aspect ratio to the nearest on a log scale (gamma: 2:1 to 16:9, 3:4 to 9:16)", () => {
    expect(movesFor("gamma-3.1", { duration_sec: 8, aspect_ratio: "2:1" })).toEqual([
      { path: "aspect_ratio", from: "2:1", to: "16:9" },
    ]);
    expect(movesFor("gamma-3.1", { duration_sec: 8, aspect_ratio: "3:4" })).toEqual([
      { path: "aspect_ratio", from: "3:4", to: "9:16" },
    ]);
  });

  it("breaks an aspect ratio tie toward the ratio the model lists first (1:1 on kappa: 16:9)", () => {
    expect(movesFor("kappa-omni-flash-preview", { aspect_ratio: "1:1" })).toEqual([
      { path: "aspect_ratio", from: "1:1", to: "16:9" },
    ]);
  });

  it("leaves a value off the scale as asked (resolution 'hd', ratio 'wide')", () => {
    expect(movesFor("gamma-3.1", { resolution: "hd", aspect_ratio: "wide" })).toEqual([]);
  });

  it("moves an image's size to the nearest offered and leaves a ratio only soft rules cover", () => {
    const body = {
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a fox" }],
      modalities: ["image", "text"],
      image_config: { image_size: "720p", aspect_ratio: "5:4" },
    };
    const fitted = fitRequest(body, spec("deltaq2-image"));
    // The ratios are soft there (commonly ...): 5:4 only warns, so it stays.
    expect(fitted.adjustments).toEqual([
      { path: "image_config.image_size", from: "720p", to: "1080p" },
    ]);
  });

  it("holds a joint rule: the duration is fitted under the fitted resolution's rules", () => {
    const joint: VideoModelSpec = {
      ...(spec("gamma-3.1") as VideoModelSpec),
      code: "joint-test",
      resolutions: [{ values: ["720p", "1080p"], strength: "hard" }],
      durations: [
        { values: [4, 6, 8], strength: "hard" },
        { values: [6], strength: "hard", resolutions: ["1080p"], quote: "1080p only 6" },
      ],
    };
    const catalog = createCatalog([joint]);
    const body = { model: "joint-test", prompt: "a fox", resolution: "4k", duration_sec: 8 };
    const fitted = fitRequest(body, joint);
    expect(fitted.adjustments).toEqual([
      { path: "resolution", from: "4k", to: "1080p" },
      { path: "duration_sec", from: 8, to: 6 },
    ]);
    expect(validate(fitted.request, { catalog }).valid).toBe(true);
  });
});

describe("validate with fit", () => {
  it("makes os-2's 5 s valid at 4 s with the adjustment, and refuses it without fit as before", () => {
    const body = { model: "os-2", prompt: "a fox", duration_sec: 5 };
    const fitted = validate(body, { fit: "nearest" });
    expect(fitted.valid).toBe(true);
    expect(fitted.normalized).toMatchObject({ duration_sec: 4 });
    expect(fitted.adjustments).toEqual([{ path: "duration_sec", from: 5, to: 4 }]);

    const plain = validate(body);
    expect(plain.valid).toBe(false);
    expect(plain.errors.map((e) => [e.code, e.path])).toEqual([
      ["duration_not_allowed", "duration_sec"],
    ]);
    expect(plain.adjustments).toBeUndefined();
  });

  it("still refuses a material the model cannot take, as asked and with no adjustments", () => {
    // zeta takes a first frame only: a last frame is refused whatever fit does to the duration.
    const body = {
      model: "zeta-1.1",
      prompt: "a fox",
      duration_sec: 40,
      frame_images: [first(), last()],
    };
    const fitted = validate(body, { fit: "nearest" });
    expect(fitted.valid).toBe(false);
    expect(fitted.adjustments).toBeUndefined();
    expect(fitted.errors).toEqual(validate(body).errors);
    expect(fitted.errors.map((e) => e.code)).toContain("last_frame_unsupported");
  });

  it("answers no adjustments for a request valid as asked", () => {
    const body = { model: "os-2", prompt: "a fox", duration_sec: 8 };
    const fitted = validate(body, { fit: "nearest" });
    expect(fitted.valid).toBe(true);
    expect(fitted.adjustments).toEqual([]);
    expect(fitted.normalized).toEqual(validate(body).normalized);
  });
});
