import { describe, expect, it } from "vitest";
import { validate, ValidationCodes } from "../../../src/domain/validate/validate-request.ts";
import { MAX_REQUEST_BYTES } from "../../../src/domain/validate/size.ts";

// Found by the API fuzz (test/fuzz): such requests passed validate() and the job write then failed
// on DynamoDB's 400 KB item limit, which the API answered 503 and a drop left stuck in inbox/.
describe("request size", () => {
  it("a video request over 256 KiB as JSON is refused with request_too_large at its largest field", () => {
    const result = validate({ model: "gamma-3.1", prompt: "p".repeat(MAX_REQUEST_BYTES) });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      expect.objectContaining({ path: "prompt", code: "request_too_large" }),
    ]);
    expect(result.errors[0]?.message).toContain(String(MAX_REQUEST_BYTES));
  });

  it("bytes are counted in UTF-8, not characters: 140k two-byte characters (280 KB) are too large", () => {
    expect(
      validate({ model: "gamma-3.1", prompt: "é".repeat(140_000) }).errors.map((e) => e.code),
    ).toEqual(["request_too_large"]);
  });

  it("an image request with thousands of messages is refused the same way at messages", () => {
    const messages = Array.from({ length: 5_000 }, () => ({
      role: "user",
      content: "x".repeat(100),
    }));
    const result = validate({ model: "deltaq2-image", messages, modalities: ["image"] });
    expect(result.errors).toEqual([
      expect.objectContaining({ path: "messages", code: "request_too_large" }),
    ]);
  });

  // Also found by the fuzz: a 200 KB aspect_ratio was echoed whole in its warning, so the job
  // record held it twice and went over DynamoDB's limit (503).
  it("messages quote a sent value cut to 60 characters, so a long field is not stored twice", () => {
    const long = "x".repeat(200_000);
    const image = validate({
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a lighthouse" }],
      modalities: ["image"],
      image_config: { aspect_ratio: long },
    });
    const video = validate({
      model: "gamma-3.1",
      prompt: "a kite",
      resolution: long,
      aspect_ratio: long,
    });
    const shape = validate({
      model: "gamma-3.1",
      prompt: "a kite",
      frame_images: [
        {
          type: long,
          frame_type: "first_frame",
          image_url: { url: "https://cdn.example.com/a.png" },
        },
      ],
    });
    const messages = [
      ...image.warnings,
      ...image.errors,
      ...video.warnings,
      ...video.errors,
      ...shape.errors,
    ];
    expect(messages.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(["image_config.aspect_ratio", "resolution", "aspect_ratio"]),
    );
    for (const issue of messages) expect(issue.message.length, issue.path).toBeLessThan(600);
    expect(messages.some((issue) => issue.message.includes(`"${"x".repeat(60)}…"`))).toBe(true);
  });

  it("a request just under the limit is valid, and request_too_large is a documented code", () => {
    expect(
      validate({ model: "gamma-3.1", prompt: "p".repeat(MAX_REQUEST_BYTES - 1_000) }).valid,
    ).toBe(true);
    expect(Object.keys(ValidationCodes)).toContain("request_too_large");
  });
});
