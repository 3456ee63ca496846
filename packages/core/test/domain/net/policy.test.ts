import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/wiring/config.ts";
import { ReelayError } from "../../../src/domain/errors.ts";
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  outputFetchPolicy,
  webhookFetchPolicy,
} from "../../../src/domain/net/policy.ts";

describe("fetch policies per deployment", () => {
  it("AWS outputs: https only, no loopback, no private addresses, the configured cap, video/image types, 5 redirects", () => {
    expect(outputFetchPolicy("aws", 1234)).toEqual({
      allowHttp: false,
      allowLoopback: false,
      allowPrivate: false,
      maxBytes: 1234,
      allowedContentTypes: [
        "video/*",
        "image/*",
        "application/mp4",
        "application/octet-stream",
        "binary/octet-stream",
      ],
      maxRedirects: 5,
    });
  });

  it("local outputs: loopback and http allowed, private addresses still not", () => {
    expect(outputFetchPolicy("local")).toMatchObject({
      allowHttp: true,
      allowLoopback: true,
      allowPrivate: false,
      maxBytes: DEFAULT_MAX_OUTPUT_BYTES,
    });
  });

  it("webhooks: the same reach, no redirects followed, no content type demanded", () => {
    expect(webhookFetchPolicy("aws")).toMatchObject({
      allowHttp: false,
      allowLoopback: false,
      allowPrivate: false,
      maxRedirects: 0,
    });
    expect(webhookFetchPolicy("aws").allowedContentTypes).toBeUndefined();
    expect(webhookFetchPolicy("local")).toMatchObject({
      allowHttp: true,
      allowLoopback: true,
      allowPrivate: false,
    });
  });
});

describe("REELAY_MAX_OUTPUT_BYTES", () => {
  it("defaults to 4 GiB and reads a whole number of bytes", () => {
    expect(loadConfig({}).maxOutputBytes).toBe(4 * 1024 ** 3);
    expect(loadConfig({ REELAY_MAX_OUTPUT_BYTES: "1048576" }).maxOutputBytes).toBe(1_048_576);
  });

  it("refuses a value that is not a positive whole number, naming the variable", () => {
    for (const value of ["-1", "1.5", "lots"]) {
      let error: unknown;
      try {
        loadConfig({ REELAY_MAX_OUTPUT_BYTES: value });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ReelayError);
      expect((error as ReelayError).code).toBe("invalid_config");
      expect((error as ReelayError).path).toBe("REELAY_MAX_OUTPUT_BYTES");
    }
  });
});
