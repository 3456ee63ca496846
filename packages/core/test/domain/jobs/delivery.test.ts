/** output.s3_prefix read and checked against REELAY_OUTPUT_BUCKETS, and where each output lands there. */
import { describe, expect, it } from "vitest";
import { deliveredKey, parseOutputTarget, targetUri } from "../../../src/domain/jobs/delivery.ts";

const ALLOWED = ["customer-renders", "archive.example"];

function refusal(value: unknown, allowed = ALLOWED): unknown {
  try {
    parseOutputTarget(value, allowed, "output.s3_prefix");
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("parseOutputTarget", () => {
  it("reads s3://bucket/prefix/ of a listed bucket, a prefix without its last / taken as a folder", () => {
    expect(parseOutputTarget("s3://customer-renders/a/b/", ALLOWED, "p")).toEqual({
      bucket: "customer-renders",
      prefix: "a/b/",
    });
    expect(parseOutputTarget("s3://archive.example/renders", ALLOWED, "p")).toEqual({
      bucket: "archive.example",
      prefix: "renders/",
    });
    expect(parseOutputTarget("s3://archive.example/", ALLOWED, "p")).toEqual({
      bucket: "archive.example",
      prefix: "",
    });
  });

  it("refuses a bucket outside the list as output_bucket_not_allowed, naming the field", () => {
    expect(refusal("s3://someone-else/x/")).toMatchObject({
      code: "output_bucket_not_allowed",
      status: 400,
      path: "output.s3_prefix",
    });
    expect(refusal("s3://customer-renders/x/", [])).toMatchObject({
      code: "output_bucket_not_allowed",
    });
  });

  it.each([
    "https://customer-renders/x/",
    "s3://customer-renders",
    "s3://Bad_Bucket/x/",
    "s3://customer-renders//x/",
    7,
  ])("refuses %s as invalid_output_target", (value) => {
    expect(refusal(value)).toMatchObject({ code: "invalid_output_target", status: 400 });
  });
});

describe("deliveredKey", () => {
  it("puts each output under the prefix and its job id, by its file name", () => {
    const target = { bucket: "customer-renders", prefix: "renders/" };
    expect(deliveredKey(target, "vidtsk_01", "outputs/vidtsk_01/video.mp4")).toBe(
      "renders/vidtsk_01/video.mp4",
    );
    expect(targetUri(target)).toBe("s3://customer-renders/renders/");
  });
});
