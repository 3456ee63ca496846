import { describe, expect, it } from "vitest";
import {
  durationOf,
  kindedRequest,
  mapStrings,
  unitsOf,
} from "../../../src/domain/jobs/request.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import type { JobRequest } from "../../../src/domain/jobs/request.ts";

/** The normalized request validate() makes of `body`, as a job stores it. */
function normalized(body: object): JobRequest {
  const result = validate(body);
  if (result.normalized === null) throw new Error(JSON.stringify(result.errors));
  return result.normalized;
}

const video = { model: "gamma-3.1", prompt: "a fox", duration_sec: 8 };
const image = {
  model: "deltaq2-image",
  messages: [{ role: "user", content: "a fox" }],
  modalities: ["image", "text"],
};
const edit = {
  ...image,
  image_config: {
    reference_images: [{ type: "url", url: "https://example.com/a.png", text: "the fox" }],
  },
};

describe("kindedRequest", () => {
  it("says video, image or image edit for what validate() normalized, agreeing with its kind and mode", () => {
    for (const [body, kind] of [
      [video, "video"],
      [image, "image"],
      [edit, "image_edit"],
    ] as const) {
      const result = validate(body);
      expect(kindedRequest(normalized(body)).kind).toBe(kind);
      expect(result.kind === "image" && result.mode === "edit" ? "image_edit" : result.kind).toBe(
        kind,
      );
    }
  });

  it("reads a stored record's JSON as it is: an image request with an empty reference list is no edit", () => {
    const stored: JobRequest = { ...image, image_config: { reference_images: [] } };
    expect(kindedRequest(stored).kind).toBe("image");
  });
});

describe("durationOf", () => {
  it("is a video's duration_sec, and undefined for an image", () => {
    expect(durationOf(normalized(video))).toBe(8);
    expect(durationOf(normalized(image))).toBeUndefined();
  });
});

describe("unitsOf", () => {
  it("counts an edit's reference images as images with references", () => {
    expect(unitsOf(normalized(edit))).toMatchObject({ unit: "image", referenceImages: 1 });
  });
});

describe("mapStrings", () => {
  it("maps every string of a copy and leaves the request itself as it was", () => {
    const request = normalized(edit);
    const before = structuredClone(request);
    const mapped = mapStrings(request, (value) => value.toUpperCase());
    expect(request).toEqual(before);
    expect(kindedRequest(mapped)).toMatchObject({
      kind: "image_edit",
      request: { image_config: { reference_images: [{ url: "HTTPS://EXAMPLE.COM/A.PNG" }] } },
    });
  });
});
