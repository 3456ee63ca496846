import { describe, expect, it } from "vitest";
import {
  checkBaseUrl,
  isAllowedBaseUrl,
  parseBaseUrl,
} from "../../../src/adapters/upstream/base-url.ts";

describe("isAllowedBaseUrl", () => {
  it.each([
    ["https://api.example.com/v1", true],
    ["https://api.example.com/v1/", true],
    ["http://127.0.0.1:4700/gateway/v1", true],
    ["https://api.example.com/v1//", false],
    ["https://api.example.com/v2", false],
    ["https://api.example.com/", false],
    ["https://api.example.com/v1/video", false],
    ["https://api.example.com/xv1", false],
    ["file:///v1", false],
    ["https://u:p@api.example.com/v1", false],
    ["https://api.example.com/v1#x", false],
    ["/v1", false],
    ["", false],
  ])("%s -> %s", (url, allowed) => {
    expect(isAllowedBaseUrl(url)).toBe(allowed);
  });
});

describe("parseBaseUrl", () => {
  it("normalises away one trailing slash and surrounding spaces", () => {
    expect(parseBaseUrl("  https://api.example.com/v1/ ")).toBe("https://api.example.com/v1");
  });

  it("throws invalid_base_url naming the setting, the reason and an example", () => {
    expect(() => parseBaseUrl("https://api.example.com/v2", "REELAY_UPSTREAM_URL")).toThrowError(
      expect.objectContaining({
        code: "invalid_base_url",
        path: "REELAY_UPSTREAM_URL",
        message: expect.stringMatching(
          /REELAY_UPSTREAM_URL.*must end in the version segment \/v1.*https:\/\/api\.example\.com\/v1/,
        ),
      }),
    );
  });

  it("never repeats credentials written into the URL", () => {
    const result = checkBaseUrl("https://user:hunter2@api.example.com/v1");
    expect(result.ok).toBe(false);
    expect(() => parseBaseUrl("https://user:hunter2@api.example.com/v1")).toThrowError(
      expect.objectContaining({ message: expect.not.stringContaining("hunter2") }),
    );
  });
});
