import { describe, expect, it } from "vitest";
import { validate, ValidationCodes } from "../../src/validate/index.ts";
import { MAX_REQUEST_BYTES } from "../../src/validate/size.ts";

// Found by the API fuzz (test/fuzz): such requests passed validate() and the job write then failed
// on DynamoDB's 400 KB item limit, which the API answered 503 and a drop left stuck in inbox/.
describe("request size", () => {
  it("a video request over 256 KiB as JSON is refused with request_too_large at its largest field", () => {
    const result = validate({ model: "gamma-3.1", prompt: "p".repeat(MAX_REQUEST_BYTES) });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ path: "prompt", code: "request_too_large" })]);
    expect(result.errors[0]?.message).toContain(String(MAX_REQUEST_BYTES));
  });

  it("bytes are counted in UTF-8, not characters: 140k two-byte characters (280 KB) are too large", () => {
    expect(validate({ model: "gamma-3.1", prompt: "é".repeat(140_000) }).errors.map((e) => e.code)).toEqual(["request_too_large"]);
  });

  it("an image request with thousands of messages is refused the same way at messages", () => {
    const messages = Array.from({ length: 5_000 }, () => ({ role: "user", content: "x".repeat(100) }));
    const result = validate({ model: "deltaq2-image", messages, modalities: ["image"] });
    expect(result.errors).toEqual([expect.objectContaining({ path: "messages", code: "request_too_large" })]);
  });

  it("a request just under the limit is valid, and request_too_large is a documented code", () => {
    expect(validate({ model: "gamma-3.1", prompt: "p".repeat(MAX_REQUEST_BYTES - 1_000) }).valid).toBe(true);
    expect(Object.keys(ValidationCodes)).toContain("request_too_large");
  });
});
