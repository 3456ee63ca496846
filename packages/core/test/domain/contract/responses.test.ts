import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  classifyTask,
  describeFailure,
  findOutputUrls,
  readBusinessError,
  readStatus,
  readTaskId,
} from "../../../src/domain/contract/responses.ts";

const V = "https://cdn.example.com/out/video.mp4";

describe("readTaskId", () => {
  it.each([
    [
      "service_task.task_id wins over top-level",
      { service_task: { task_id: "vidtsk_a" }, task_id: "vidtsk_b" },
      "vidtsk_a",
    ],
    [
      "top-level task_id when service_task has none",
      { service_task: { status: "queued" }, task_id: "vidtsk_b" },
      "vidtsk_b",
    ],
    ["top-level only", { task_id: "imgtsk_1" }, "imgtsk_1"],
    [
      "a blank nested id falls back",
      { service_task: { task_id: "  " }, task_id: "vidtsk_c" },
      "vidtsk_c",
    ],
    ["a numeric id is stringified", { task_id: 42 }, "42"],
    ["no id", { status: "queued" }, undefined],
    ["null body", null, undefined],
    ["array body", [{ task_id: "x" }], undefined],
    ["object id is ignored", { task_id: { id: "x" } }, undefined],
  ])("%s", (_name, body, expected) => {
    expect(readTaskId(body)).toBe(expected);
  });
});

describe("readStatus", () => {
  it.each([
    ["nested first", { service_task: { status: "running" }, status: "queued" }, "running"],
    ["top-level fallback", { status: "PROCESSING" }, "PROCESSING"],
    ["kept as sent, not lower-cased", { status: "Completed" }, "Completed"],
    ["none", {}, undefined],
    ["string body", "queued", undefined],
  ])("%s", (_name, body, expected) => {
    expect(readStatus(body)).toBe(expected);
  });
});

describe("findOutputUrls", () => {
  it.each([
    [
      "standard: service_task.output.video_url",
      { service_task: { output: { video_url: V } } },
      [V],
    ],
    ["flat: top-level video_url", { task_id: "t", status: "SUCCESS", video_url: V }, [V]],
    ["nested_output: data.outputs[].url", { data: { outputs: [{ type: "video", url: V }] } }, [V]],
    [
      "url_only: result.videos[0].url",
      { status: "processing", result: { videos: [{ url: V }] } },
      [V],
    ],
    ["string_error: output is the url", { output: V }, [V]],
    [
      "OpenAI images: data[].url",
      { created: 1, data: [{ url: "https://x.test/a.png" }, { url: "https://x.test/b.png" }] },
      ["https://x.test/a.png", "https://x.test/b.png"],
    ],
    [
      "image_url as an object",
      { images: [{ image_url: { url: "https://x.test/i.png" } }] },
      ["https://x.test/i.png"],
    ],
    ["image_url as a string", { image_url: "https://x.test/i.png" }, ["https://x.test/i.png"]],
    [
      "array of plain strings under images",
      { images: ["https://x.test/1.png", "https://x.test/2.png"] },
      ["https://x.test/1.png", "https://x.test/2.png"],
    ],
    [
      "file_url and download_url",
      { file_url: "https://x.test/f", download_url: "http://x.test/d" },
      ["https://x.test/f", "http://x.test/d"],
    ],
    [
      "duplicates across fields kept once, in order",
      { video_url: V, service_task: { output: { video_url: V, url: "https://x.test/2" } } },
      [V, "https://x.test/2"],
    ],
    [
      "non-http schemes ignored",
      { output: { url: "asset://vidast_1" }, video_url: "ftp://x.test/v" },
      [],
    ],
    [
      "urls under unrelated keys ignored",
      { callback: "https://x.test/hook", thumbnail: "https://x.test/t.png" },
      [],
    ],
    [
      "echoed frame_images ignored",
      {
        service_task: {
          frame_images: [{ type: "image_url", image_url: { url: "https://x.test/first.png" } }],
        },
      },
      [],
    ],
    [
      "echoed input_references ignored",
      { input_references: [{ type: "video_url", video_url: "https://x.test/ref.mp4" }] },
      [],
    ],
    [
      "echoed request ignored",
      {
        request: {
          image_config: { reference_images: [{ type: "url", url: "https://x.test/r.png" }] },
        },
      },
      [],
    ],
    [
      "input and reference_images ignored",
      { input: { url: "https://x.test/in" }, reference_images: [{ url: "https://x.test/r" }] },
      [],
    ],
    [
      "links inside error ignored",
      { error: { message: "bad", url: "https://docs.x.test/errors" } },
      [],
    ],
    ["not a URL even if it starts with http", { url: "http://" }, []],
    ["surrounding whitespace trimmed", { url: `  ${V}  ` }, [V]],
    ["null", null, []],
    ["a bare string", V, []],
  ])("%s", (_name, body, expected) => {
    expect(findOutputUrls(body)).toEqual(expected);
  });

  it("never throws and returns only http(s) strings for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const urls = findOutputUrls(value);
        expect(urls.every((url) => /^https?:\/\//i.test(url))).toBe(true);
        expect(new Set(urls).size).toBe(urls.length);
      }),
    );
  });

  it("stops at a cyclic object instead of looping", () => {
    const body: Record<string, unknown> = { output: { url: V } };
    (body.output as Record<string, unknown>).self = body;
    expect(findOutputUrls(body)).toEqual([V]);
  });
});

describe("readBusinessError", () => {
  it.each([
    [
      "error object",
      { error: { code: "invalid_model", message: "no such model" } },
      { code: "invalid_model", message: "no such model" },
    ],
    ["error string", { error: "quota exceeded" }, { message: "quota exceeded" }],
    [
      "service_task.error",
      { service_task: { status: "failed", error: { code: "nsfw", message: "blocked" } } },
      { code: "nsfw", message: "blocked" },
    ],
    [
      "code only gets a sentence",
      { error: { code: "E42" } },
      { code: "E42", message: "The upstream reported error E42." },
    ],
    [
      "numeric code is stringified",
      { error: { code: 1003, message: "bad" } },
      { code: "1003", message: "bad" },
    ],
    ["null error is no error", { error: null, status: "running" }, undefined],
    ["empty error object is no error", { error: {} }, undefined],
    ["empty error string is no error", { error: "" }, undefined],
    ["code 0 without message is no error", { error: { code: 0 } }, undefined],
    ["no error", { status: "running" }, undefined],
    ["non-object body", 17, undefined],
  ])("%s", (_name, body, expected) => {
    expect(readBusinessError(body)).toEqual(expected);
  });
});

describe("describeFailure", () => {
  it.each([
    ["error.message", { error: { message: "content policy" } }, "content policy"],
    ["error string", { status: "Error", error: "GPU exploded" }, "GPU exploded"],
    ["fail_reason", { status: "FAILED", fail_reason: "timeout in render" }, "timeout in render"],
    ["failure_reason", { status: "failed", failure_reason: "bad frame" }, "bad frame"],
    ["message", { status: "cancelled", message: "cancelled by operator" }, "cancelled by operator"],
    ["msg", { msg: "nope" }, "nope"],
    [
      "service_task.error.message",
      { service_task: { status: "failed", error: { message: "inner" } } },
      "inner",
    ],
    [
      "service_task.fail_reason",
      { service_task: { status: "failed", fail_reason: "inner reason" } },
      "inner reason",
    ],
    ["detail string", { detail: "Not Found" }, "Not Found"],
    [
      "detail array (FastAPI)",
      { detail: [{ loc: ["body", "model"], msg: "field required" }, { msg: "bad prompt" }] },
      "field required; bad prompt",
    ],
  ])("%s", (_name, body, expected) => {
    expect(describeFailure(body)).toBe(expected);
  });

  it("falls back to a sentence that names the raw status", () => {
    expect(describeFailure({ status: "FAILED" })).toContain('"FAILED"');
  });

  it("falls back to a sentence for a body with nothing in it", () => {
    expect(describeFailure(undefined)).toMatch(/without giving a reason/);
  });
});

describe("classifyTask", () => {
  it.each([
    ["standard queued", 200, { service_task: { task_id: "t", status: "queued" } }, "running"],
    [
      "standard succeeded",
      200,
      { service_task: { status: "succeeded", output: { video_url: V } } },
      "succeeded",
    ],
    ["flat PENDING", 200, { task_id: "t", status: "PENDING" }, "running"],
    ["flat SUCCESS", 200, { status: "SUCCESS", video_url: V }, "succeeded"],
    ["flat FAILED", 200, { status: "FAILED", fail_reason: "x" }, "failed"],
    [
      "nested_output completed",
      200,
      { service_task: { status: "completed" }, data: { outputs: [{ url: V }] } },
      "succeeded",
    ],
    [
      "nested_output error",
      200,
      { service_task: { status: "error" }, error: { message: "x" } },
      "failed",
    ],
    ["url_only processing without url", 200, { status: "processing" }, "running"],
    [
      "url_only processing with url is success",
      200,
      { status: "processing", result: { videos: [{ url: V }] } },
      "succeeded",
    ],
    ["url_only cancelled", 200, { status: "cancelled", message: "x" }, "failed"],
    ["string_error Running", 200, { status: "Running" }, "running"],
    ["string_error Completed", 200, { status: "Completed", output: V }, "succeeded"],
    ["string_error Error", 200, { status: "Error", error: "x" }, "failed"],
    ["success word without a url is still success", 200, { status: "success" }, "succeeded"],
    ["unknown word is running", 200, { status: "rendering" }, "running"],
    ["no status at all is running", 200, {}, "running"],
    ["a url with a failure status is failed", 200, { status: "failed", video_url: V }, "failed"],
    [
      "business error in a 2xx beats a success status",
      200,
      { status: "succeeded", error: { message: "x" } },
      "failed",
    ],
    [
      "HTTP 400 is failed whatever the body says",
      400,
      { status: "succeeded", video_url: V },
      "failed",
    ],
    ["HTTP 503 is failed", 503, "Service Unavailable", "failed"],
    ["non-JSON 200 body is running", 200, "<html>", "running"],
  ])("%s -> %s", (_name, httpStatus, body, expected) => {
    expect(classifyTask(httpStatus, body).state).toBe(expected);
  });

  it("reports the upstream's reason and code on a failed task", () => {
    const state = classifyTask(200, {
      service_task: { status: "failed", error: { code: "nsfw", message: "blocked by policy" } },
    });
    expect(state).toEqual({
      state: "failed",
      status: "failed",
      outputUrls: [],
      error: { code: "nsfw", message: "blocked by policy" },
    });
  });

  it("gives a failed task without an upstream code the code upstream_task_failed", () => {
    expect(classifyTask(200, { status: "FAILED", fail_reason: "render crashed" }).error).toEqual({
      code: "upstream_task_failed",
      message: "render crashed",
    });
  });

  it("puts the HTTP status and the upstream's message in an HTTP failure", () => {
    const state = classifyTask(422, {
      error: { code: "bad_duration", message: "duration 7 not allowed" },
    });
    expect(state.error).toEqual({
      code: "bad_duration",
      message: "HTTP 422: duration 7 not allowed",
    });
  });

  it("returns the output urls and raw status of a success", () => {
    expect(classifyTask(200, { status: "SUCCESS", video_url: V })).toEqual({
      state: "succeeded",
      status: "SUCCESS",
      outputUrls: [V],
    });
  });

  it("never throws and always answers one of the three states for any JSON", () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), fc.jsonValue(), (status, body) => {
        const state = classifyTask(status, body);
        expect(["running", "succeeded", "failed"]).toContain(state.state);
        if (state.state === "failed") expect(state.error?.message.length).toBeGreaterThan(0);
      }),
    );
  });
});
