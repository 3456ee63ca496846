/**
 * Random files for inbox/: random bytes, truncated JSON, JSONL with bad lines, huge lines, binary,
 * empty files, deep nesting, prototype keys and bare material names that point nowhere, under
 * names with odd characters and extensions.
 */
import fc from "fast-check";
import { anyString, junk } from "./arbitraries.ts";

export interface DropFile {
  /** What the generator meant to make, for failure messages. */
  kind: string;
  /** The name under inbox/ (made unique by the caller). */
  name: string;
  body: Buffer;
}

const MATERIAL = new Set([
  "png",
  "jpg",
  "jpeg",
  "webp",
  "gif",
  "bmp",
  "mp4",
  "mov",
  "webm",
  "mkv",
  "mp3",
  "wav",
  "m4a",
  "aac",
  "ogg",
]);

/**
 * Mirrors the documented rules: material is left in inbox/ for prompt files to reference, and so is
 * a folder marker (the empty `name/` object an S3 console makes).
 */
export function isLeftAlone(name: string): boolean {
  if (name.endsWith("/")) return true;
  const base = name.slice(name.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 && MATERIAL.has(base.slice(dot + 1).toLowerCase());
}

const request = fc.oneof(
  fc.record({
    model: fc.constant("gamma-3.1"),
    prompt: fc.constantFrom("a paper boat in the rain", "a kite", "a lighthouse"),
  }),
  fc.record(
    {
      model: fc.constantFrom("gamma-3.1", "zeta-1.1", "gama-3.1", ""),
      prompt: anyString.filter((s) => s.length < 2_000),
      duration_sec: fc.oneof(fc.integer({ min: -1, max: 20 }), junk),
    },
    { requiredKeys: ["model"] },
  ),
  fc.record({
    model: fc.constant("gamma-3.1"),
    prompt: fc.constant("from the frame"),
    frame_images: fc.constant([
      { type: "image_url", frame_type: "first_frame", image_url: { url: "missing-first.png" } },
    ]),
  }),
  junk,
);

const line = (value: unknown) => JSON.stringify(value) ?? "null";
const text = (s: string) => Buffer.from(s, "utf8");
const hugePrompt = fc.integer({ min: 300_000, max: 700_000 }).map((n) => "p".repeat(n));

const content: fc.Arbitrary<{ kind: string; ext: string; body: Buffer }> = fc.oneof(
  fc.record({
    kind: fc.constant("random bytes"),
    ext: fc.constantFrom("json", "jsonl", "txt"),
    body: fc.uint8Array({ maxLength: 4_096 }).map((b) => Buffer.from(b)),
  }),
  fc.record({
    kind: fc.constant("binary"),
    ext: fc.constantFrom("json", "txt", "bin"),
    body: fc
      .uint8Array({ maxLength: 2_048 })
      .map((b) =>
        Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe]), Buffer.from(b)]),
      ),
  }),
  fc.record({
    kind: fc.constant("empty"),
    ext: fc.constantFrom("json", "jsonl", "txt", ""),
    body: fc.constantFrom(Buffer.alloc(0), text(" \n\r\n\t"), text("\uFEFF")),
  }),
  fc.record({
    kind: fc.constant("request"),
    ext: fc.constant("json"),
    body: request.map((r) => text(line(r))),
  }),
  fc.record({
    kind: fc.constant("truncated json"),
    ext: fc.constant("json"),
    body: fc.tuple(request, fc.nat()).map(([r, cut]) => {
      const s = line(r);
      return text(s.slice(0, cut % Math.max(1, s.length)));
    }),
  }),
  fc.record({
    kind: fc.constant("requests batch"),
    ext: fc.constant("json"),
    body: fc.oneof(
      fc.array(request, { maxLength: 5 }).map((requests) => text(line({ requests }))),
      junk.map((requests) => text(line({ requests }))),
    ),
  }),
  fc.record({
    kind: fc.constant("jsonl with bad lines"),
    ext: fc.constant("jsonl"),
    body: fc
      .array(
        fc.oneof(
          request.map(line),
          fc.constantFrom("", "{", "not json", "}{", "[1,", "\u0000", "null", "// c"),
          anyString.filter((s) => s.length < 500),
        ),
        { minLength: 1, maxLength: 12 },
      )
      .chain((lines) =>
        fc
          .constantFrom("\n", "\r\n")
          .map((eol) => text(lines.map((l) => l.replace(/\r?\n/g, " ")).join(eol))),
      ),
  }),
  fc.record({
    kind: fc.constant("huge line"),
    ext: fc.constantFrom("txt", "jsonl", "json"),
    body: hugePrompt.map((prompt) => text(line({ model: "gamma-3.1", prompt }))),
  }),
  fc.record({
    kind: fc.constant("huge prompt file"),
    ext: fc.constant("txt"),
    body: hugePrompt.map(text),
  }),
  fc.record({
    kind: fc.constant("deep nesting"),
    ext: fc.constantFrom("json", "jsonl"),
    body: fc
      .integer({ min: 1_000, max: 200_000 })
      .map((n) =>
        text(`{"model":"gamma-3.1","prompt":"x","provider":${"[".repeat(n)}${"]".repeat(n)}}`),
      ),
  }),
  fc.record({
    kind: fc.constant("prototype keys"),
    ext: fc.constant("json"),
    body: fc.constant(
      text(
        '{"__proto__":{"model":"x"},"constructor":{"prototype":{"polluted":true}},"model":"gamma-3.1","prompt":"proto"}',
      ),
    ),
  }),
  fc.record({
    kind: fc.constant("too many lines"),
    ext: fc.constant("jsonl"),
    body: fc.constant(text(Array.from({ length: 1_001 }, () => "{}").join("\n"))),
  }),
  fc.record({
    kind: fc.constant("prompt text"),
    ext: fc.constant("txt"),
    body: anyString.filter((s) => s.length < 5_000).map(text),
  }),
);

const oddName = fc.oneof(
  fc.constantFrom(
    "a b",
    "ü-ñ",
    "漢字",
    "🎬",
    "x+y",
    "100%",
    "a=b&c",
    "semi;colon",
    "quote'd",
    "(paren)",
    "!~*@",
    "[br]{ce}",
    "tab\there",
    "dots...",
    "-",
    "_",
    ".hidden",
    "UPPER",
    "ends space ",
  ),
  fc.stringMatching(/^[A-Za-z0-9 ._()+,;=@!~'-]{1,30}$/),
);

const ext = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "JSON",
      "Txt",
      "JSONL",
      "png",
      "mp4",
      "exe",
      "json.bak",
      "",
      "tar.gz",
      "txt~",
      "json ",
      "/",
    ),
  },
);

export const dropFile: fc.Arbitrary<DropFile> = fc
  .record({ content, base: oddName, ext, folder: fc.constantFrom("", "", "", "sub/", "deep/er/") })
  .map(({ content: c, base, ext: forced, folder }) => {
    const extension = forced ?? c.ext;
    if (extension === "/")
      return { kind: "folder marker", name: `${folder}${base}/`, body: Buffer.alloc(0) };
    return {
      kind: c.kind,
      name: `${folder}${base}${extension === "" ? "" : `.${extension}`}`,
      body: c.body,
    };
  });
