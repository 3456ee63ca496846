import { describe, expect, it } from "vitest";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { first, imageRef, videoRef } from "./helpers.ts";

// One valid minimal request per model code of §4.8 (and §2.6), with the mode it must select.
const table: Array<[string, Record<string, unknown>, string]> = [
  ["alpha-2.7", { prompt: "a fox" }, "text"],
  ["alpha-2.6", { prompt: "a fox" }, "text"],
  ["alpha-2.6-flash", { prompt: "a fox", frame_images: [first()] }, "first_frame"],
  ["alpha-2.7-videoedit", { prompt: "make it snow", input_references: [videoRef()] }, "video_edit"],
  ["beta-2.0-os", { prompt: "a fox" }, "text"],
  ["beta-2.0-overseas-hc-os", { prompt: "a fox" }, "text"],
  ["beta-2.0-fast-hc-os", { prompt: "a fox", input_references: [imageRef()] }, "reference"],
  [
    "beta-2.0-mini-overseas-hc-os",
    { prompt: "a fox", input_references: [imageRef()] },
    "reference",
  ],
  ["gamma-3.1", { prompt: "a fox", duration_sec: 8 }, "text"],
  ["gamma-3.1-fast", { prompt: "a fox", duration_sec: 4 }, "text"],
  ["gamma-3.1-lite", { prompt: "a fox", duration_sec: 6 }, "text"],
  ["deltaq2", { prompt: "a fox" }, "text"],
  ["deltaq2-pro", { prompt: "a fox" }, "text"],
  ["deltaq2-turbo", { prompt: "a fox" }, "text"],
  [
    "deltaq3",
    { prompt: "@fox runs", input_references: [imageRef({ object_id: "fox" })] },
    "reference",
  ],
  ["deltaq3-pro", { prompt: "a fox", input_references: [imageRef()] }, "reference"],
  ["deltaq3-turbo", { prompt: "a fox", input_references: [imageRef()] }, "reference"],
  ["deltaq3-pro-fast", { prompt: "a fox", input_references: [imageRef()] }, "reference"],
  ["deltaq3-mix", { prompt: "a fox", input_references: [imageRef()] }, "reference"],
  ["epsilon-2.3", { prompt: "a fox", duration_sec: 6 }, "text"],
  ["epsilon-2.3-fast", { prompt: "a fox", duration_sec: 6 }, "text"],
  ["epsilonnew-1", { prompt: "a fox" }, "text"],
  ["zeta-1.1", { prompt: "a fox" }, "text"],
  ["zeta-1.0", { prompt: "a fox" }, "text"],
  ["etanew-v6.0", { prompt: "a fox" }, "text"],
  ["etanew-c1", { prompt: "a fox" }, "text"],
  ["etanew-v5.6", { prompt: "a fox" }, "text"],
  ["theta-3.0-pro", { prompt: "a fox" }, "text"],
  ["kappa-omni-flash-preview", { prompt: "a fox" }, "text"],
  ["os-2", { prompt: "a fox", duration_sec: 8 }, "text"],
  ["lambda-1.0", { prompt: "a fox" }, "text"],
  ["mu-1.0", { prompt: "a fox", duration_sec: 8 }, "text"],
];

describe("§4.8 every model code accepts a minimal valid request", () => {
  it.each(table)("§4.8 %s: minimal request is valid", (model, body, mode) => {
    const result = validate({ model, ...body });
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ valid: true, kind: "video", mode, model });
    expect(result.normalized).toMatchObject({ model, ...body });
    expect(result.warnings.filter((w) => w.code !== "duration_defaulted")).toEqual([]);
  });

  it("§2.6 deltaq2-image: minimal image request is valid with output_image_count 1", () => {
    const body = {
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a fox" }],
      modalities: ["image", "text"],
    };
    const result = validate(body);
    expect(result).toMatchObject({
      valid: true,
      kind: "image",
      mode: "text",
      errors: [],
      warnings: [],
    });
    expect(result.normalized).toEqual({ ...body, output_image_count: 1 });
  });
});
