import { describe, expect, it } from "vitest";
import { replacePlaceholders, withPlaceholders } from "../../../src/usecases/drops/material.ts";
import {
  classifyDropKey,
  MAX_NESTING,
  MAX_REQUESTS_PER_DROP,
  parseDropFile,
} from "../../../src/usecases/drops/parse.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";

const opts = { defaultModel: "gamma-3.1" };

describe("drop files", () => {
  it("classifies prompt files, material and everything else by extension", () => {
    expect(classifyDropKey("inbox/a.json")).toBe("json");
    expect(classifyDropKey("inbox/sub/a.JSONL")).toBe("jsonl");
    expect(classifyDropKey("inbox/a.txt")).toBe("txt");
    expect(classifyDropKey("inbox/first.PNG")).toBe("material");
    expect(classifyDropKey("inbox/clip.mp4")).toBe("material");
    expect(classifyDropKey("inbox/a.exe")).toBe("unsupported");
    expect(classifyDropKey("inbox/.json")).toBe("unsupported");
    expect(classifyDropKey("inbox/noext")).toBe("unsupported");
  });

  it("a .txt file is a prompt for the default model, trimmed, BOM removed", () => {
    expect(parseDropFile("inbox/a.txt", "\uFEFF  a paper boat \n", opts)).toEqual({
      entries: [{ body: { model: "gamma-3.1", prompt: "a paper boat" } }],
      errors: [],
    });
    expect(parseDropFile("inbox/a.txt", " \n ", opts).errors[0]?.code).toBe("empty_drop_file");
  });

  it("a .json file is one request, or {requests: [...]} with each request's index", () => {
    expect(parseDropFile("inbox/a.json", '{"model":"os-2","prompt":"x"}', opts).entries).toEqual([
      { body: { model: "os-2", prompt: "x" } },
    ]);
    const batch = parseDropFile(
      "inbox/a.json",
      '{"requests":[{"prompt":"a"},{"prompt":"b"}]}',
      opts,
    );
    expect(batch.entries).toEqual([
      { index: 0, body: { prompt: "a" } },
      { index: 1, body: { prompt: "b" } },
    ]);
    expect(parseDropFile("inbox/a.json", '{"requests":[]}', opts).errors[0]).toMatchObject({
      path: "requests",
      code: "invalid_type",
    });
    expect(parseDropFile("inbox/a.json", "{oops", opts).errors[0]?.code).toBe("invalid_json");
  });

  it("a .jsonl file has one request per line; a bad line is named by its number and the others still count", () => {
    const parsed = parseDropFile(
      "inbox/a.jsonl",
      '{"prompt":"a"}\n\nnot json\r\n{"prompt":"c"}\n',
      opts,
    );
    expect(parsed.entries).toEqual([
      { line: 1, body: { prompt: "a" } },
      { line: 4, body: { prompt: "c" } },
    ]);
    expect(parsed.errors).toEqual([
      expect.objectContaining({ line: 3, code: "invalid_json", path: "" }),
    ]);
    expect(parseDropFile("inbox/a.jsonl", "\n\n", opts).errors[0]?.code).toBe("empty_drop_file");
  });

  it("refuses more than MAX_REQUESTS_PER_DROP requests in one file", () => {
    const text = Array.from({ length: MAX_REQUESTS_PER_DROP + 1 }, () => '{"prompt":"a"}').join(
      "\n",
    );
    expect(parseDropFile("inbox/a.jsonl", text, opts)).toMatchObject({
      entries: [],
      errors: [{ code: "too_many_requests" }],
    });
  });

  // Found by the inbox fuzz (test/fuzz): a request nested 100k deep overflowed the stack when its
  // material was looked for, and the file was left in inbox/ unhandled.
  it("a request nested deeper than MAX_NESTING is refused by its line or index, and the others still count", () => {
    const deep = (n: number) =>
      `{"model":"gamma-3.1","prompt":"x","provider":${"[".repeat(n)}${"]".repeat(n)}}`;
    const lines = parseDropFile(
      "inbox/a.jsonl",
      `{"prompt":"a"}\n${deep(200_000)}\n${deep(MAX_NESTING - 2)}`,
      opts,
    );
    expect(lines.entries.map((entry) => entry.line)).toEqual([1, 3]);
    expect(lines.errors).toEqual([
      expect.objectContaining({ line: 2, code: "nesting_too_deep", path: "" }),
    ]);
    expect(lines.errors[0]?.message).toContain("line 2");
    const batch = parseDropFile(
      "inbox/a.json",
      `{"requests":[{"prompt":"a"},${deep(5_000)}]}`,
      opts,
    );
    expect(batch.errors).toEqual([expect.objectContaining({ index: 1, code: "nesting_too_deep" })]);
    expect(parseDropFile("inbox/a.json", deep(100_000), opts)).toMatchObject({
      entries: [],
      errors: [{ code: "nesting_too_deep" }],
    });
  });

  it("an unsupported file gets unsupported_drop_file", () => {
    expect(parseDropFile("inbox/a.exe", "x", opts).errors[0]?.code).toBe("unsupported_drop_file");
  });
});

describe("material by bare file name", () => {
  const request = {
    model: "gamma-3.1",
    prompt: "p",
    duration_sec: 8,
    frame_images: [
      { type: "image_url", frame_type: "first_frame", image_url: { url: "first.png" } },
      {
        type: "image_url",
        frame_type: "last_frame",
        image_url: { url: "https://cdn.example.com/last.png" },
      },
    ],
  };

  it("bare names become placeholders that validate accepts, and only bare names", () => {
    const { body, material } = withPlaceholders(request);
    expect(material).toEqual([{ path: "frame_images[0].image_url.url", name: "first.png" }]);
    expect(request.frame_images[0]!.image_url.url).toBe("first.png");
    const verdict = validate(body);
    expect(verdict.errors).toEqual([]);
    const final = replacePlaceholders(
      verdict.normalized,
      new Map([["first.png", "https://bucket.example/first.png?sig=1"]]),
    ) as typeof request;
    expect(final.frame_images[0]!.image_url.url).toBe("https://bucket.example/first.png?sig=1");
    expect(final.frame_images[1]!.image_url.url).toBe("https://cdn.example.com/last.png");
  });

  it("finds bare names in input_references (image and video) and image reference_images", () => {
    const { material } = withPlaceholders({
      input_references: [
        { type: "video_url", video_url: "clip.mp4" },
        { type: "image_url", image_url: { url: "hero.jpg" } },
      ],
      image_config: { reference_images: [{ type: "url", url: "style.webp", text: "style" }] },
    });
    expect(material.map((m) => m.path)).toEqual([
      "input_references[0].video_url",
      "input_references[1].image_url.url",
      "image_config.reference_images[0].url",
    ]);
  });

  it("does not treat paths, schemes or names without an extension as bare names", () => {
    const { material } = withPlaceholders({
      frame_images: [
        { image_url: { url: "../secret.png" } },
        { image_url: { url: "file:///etc/passwd.png" } },
        { image_url: { url: "first" } },
      ],
    });
    expect(material).toEqual([]);
  });
});
