/**
 * `reelay validate --json` on real files, run in this process with only the given settings; reading
 * stdin runs the real binary, whose stdin only a process has. Each row states the verdict the
 * contract implies, written from the contract's words and not derived from the catalog, so a
 * catalog mistake fails here.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, runInProcess } from "./support/run.ts";

const validate = (args: string[], env: Record<string, string> = {}) =>
  runInProcess(["validate", ...args], env);

const img = (n = 1) => ({
  type: "image_url",
  image_url: { url: `https://cdn.example.com/ref-${n}.png` },
});
const vid = (n = 1) => ({ type: "video_url", video_url: `https://cdn.example.com/clip-${n}.mp4` });
const first = {
  type: "image_url",
  frame_type: "first_frame",
  image_url: { url: "https://cdn.example.com/first.png" },
};
const last = {
  type: "image_url",
  frame_type: "last_frame",
  image_url: { url: "https://cdn.example.com/last.png" },
};

interface Row {
  name: string;
  body: unknown;
  valid: boolean;
  /** Error code expected when invalid, or warning code expected when valid. */
  code?: string;
  /** Expected normalized fields when valid. */
  normalized?: Record<string, unknown>;
}

/** One valid and one invalid request per model code of §4.8 (and the image model of §2.6). */
const rows: Row[] = [
  // alpha
  {
    name: "alpha-2.7 first+last frames",
    body: { model: "alpha-2.7", prompt: "p", frame_images: [first, last] },
    valid: true,
  },
  {
    name: "alpha-2.7 rejects 4k",
    body: { model: "alpha-2.7", prompt: "p", resolution: "4k" },
    valid: false,
    code: "resolution_not_allowed",
  },
  {
    name: "alpha-2.6 text",
    body: { model: "alpha-2.6", prompt: "p", resolution: "720p" },
    valid: true,
  },
  {
    name: "alpha-2.6 first frame only: last frame refused",
    body: { model: "alpha-2.6", prompt: "p", frame_images: [first, last] },
    valid: false,
  },
  {
    name: "alpha-2.6-flash first frame",
    body: { model: "alpha-2.6-flash", prompt: "p", frame_images: [first] },
    valid: true,
  },
  {
    name: "alpha-2.6-flash first+last refused",
    body: { model: "alpha-2.6-flash", prompt: "p", frame_images: [first, last] },
    valid: false,
  },
  {
    name: "alpha-2.7-videoedit one video, duration 0",
    body: {
      model: "alpha-2.7-videoedit",
      prompt: "make it night",
      duration_sec: 0,
      input_references: [vid(), img(1), img(2), img(3), img(4)],
    },
    valid: true,
    normalized: { duration_sec: 0 },
  },
  {
    name: "alpha-2.7-videoedit two videos refused",
    body: { model: "alpha-2.7-videoedit", prompt: "p", input_references: [vid(1), vid(2)] },
    valid: false,
    code: "reference_count_not_allowed",
  },
  {
    name: "alpha-2.7-videoedit five images refused",
    body: {
      model: "alpha-2.7-videoedit",
      prompt: "p",
      input_references: [vid(), img(1), img(2), img(3), img(4), img(5)],
    },
    valid: false,
    code: "reference_count_not_allowed",
  },
  {
    name: "alpha-2.7-videoedit requires a prompt",
    body: { model: "alpha-2.7-videoedit", input_references: [vid()] },
    valid: false,
    code: "prompt_required",
  },
  // beta
  {
    name: "beta-2.0-os first+last",
    body: {
      model: "beta-2.0-os",
      prompt: "p",
      frame_images: [first, last],
      aspect_ratio: "adaptive",
    },
    valid: true,
  },
  {
    name: "beta-2.0-os duration 3 refused (4 to 15)",
    body: { model: "beta-2.0-os", prompt: "p", duration_sec: 3 },
    valid: false,
    code: "duration_not_allowed",
  },
  {
    name: "beta-2.0-overseas-hc-os 3 videos",
    body: {
      model: "beta-2.0-overseas-hc-os",
      prompt: "p",
      input_references: [vid(1), vid(2), vid(3)],
    },
    valid: true,
  },
  {
    name: "beta-2.0-overseas-hc-os 4 videos refused",
    body: {
      model: "beta-2.0-overseas-hc-os",
      prompt: "p",
      input_references: [vid(1), vid(2), vid(3), vid(4)],
    },
    valid: false,
    code: "reference_count_not_allowed",
  },
  {
    name: "beta-2.0-fast-hc-os 720p reference",
    body: {
      model: "beta-2.0-fast-hc-os",
      prompt: "p",
      resolution: "720p",
      input_references: [img()],
    },
    valid: true,
  },
  {
    name: "beta-2.0-fast-hc-os 1080p refused",
    body: {
      model: "beta-2.0-fast-hc-os",
      prompt: "p",
      resolution: "1080p",
      input_references: [img()],
    },
    valid: false,
    code: "resolution_not_allowed",
  },
  {
    name: "beta-2.0-mini-overseas-hc-os reference",
    body: { model: "beta-2.0-mini-overseas-hc-os", prompt: "p", input_references: [img()] },
    valid: true,
  },
  {
    name: "beta-2.0-mini-overseas-hc-os frames with references refused",
    body: {
      model: "beta-2.0-mini-overseas-hc-os",
      prompt: "p",
      frame_images: [first],
      input_references: [img()],
    },
    valid: false,
  },
  // gamma
  {
    name: "gamma-3.1 default duration 8 with a warning",
    body: { model: "gamma-3.1", prompt: "p" },
    valid: true,
    code: "duration_defaulted",
    normalized: { duration_sec: 8 },
  },
  {
    name: "gamma-3.1 5 s refused",
    body: { model: "gamma-3.1", prompt: "p", duration_sec: 5 },
    valid: false,
    code: "duration_not_allowed",
  },
  {
    name: "gamma-3.1-fast 6 s 16:9",
    body: { model: "gamma-3.1-fast", prompt: "p", duration_sec: 6, aspect_ratio: "16:9" },
    valid: true,
  },
  {
    name: "gamma-3.1-fast 1:1 refused",
    body: { model: "gamma-3.1-fast", prompt: "p", duration_sec: 6, aspect_ratio: "1:1" },
    valid: false,
    code: "aspect_ratio_not_allowed",
  },
  {
    name: "gamma-3.1-lite first frame",
    body: { model: "gamma-3.1-lite", prompt: "p", duration_sec: 4, frame_images: [first] },
    valid: true,
  },
  {
    name: "gamma-3.1-lite reference images refused",
    body: { model: "gamma-3.1-lite", prompt: "p", duration_sec: 8, input_references: [img()] },
    valid: false,
  },
  {
    name: "gamma-3.1 last frame requires first",
    body: { model: "gamma-3.1", prompt: "p", duration_sec: 8, frame_images: [last] },
    valid: false,
    code: "last_frame_requires_first",
  },
  // delta
  {
    name: "deltaq2 text 10 s",
    body: { model: "deltaq2", prompt: "p", duration_sec: 10, resolution: "540p" },
    valid: true,
  },
  {
    name: "deltaq2 11 s refused (1-10)",
    body: { model: "deltaq2", prompt: "p", duration_sec: 11 },
    valid: false,
    code: "duration_not_allowed",
  },
  {
    name: "deltaq2-pro object_id references",
    body: {
      model: "deltaq2-pro",
      prompt: "@cat runs",
      input_references: [
        { ...img(1), object_id: "cat" },
        { ...img(2), object_id: "cat" },
      ],
    },
    valid: true,
  },
  {
    name: "deltaq2-pro 4k refused",
    body: { model: "deltaq2-pro", prompt: "p", resolution: "4k" },
    valid: false,
    code: "resolution_not_allowed",
  },
  { name: "deltaq2-turbo text", body: { model: "deltaq2-turbo", prompt: "p" }, valid: true },
  {
    name: "deltaq2-turbo frame images refused",
    body: { model: "deltaq2-turbo", prompt: "p", frame_images: [first] },
    valid: false,
  },
  ...["deltaq3", "deltaq3-pro", "deltaq3-turbo", "deltaq3-pro-fast", "deltaq3-mix"].flatMap(
    (model): Row[] => [
      {
        name: `${model} reference 16 s`,
        body: {
          model,
          prompt: "p",
          duration_sec: 16,
          input_references: [{ ...img(), object_id: "hero" }],
        },
        valid: true,
      },
      {
        name: `${model} 2 s refused (3-16)`,
        body: { model, prompt: "p", duration_sec: 2, input_references: [img()] },
        valid: false,
        code: "duration_not_allowed",
      },
    ],
  ),
  // epsilon
  {
    name: "epsilon-2.3 10 s 720p",
    body: { model: "epsilon-2.3", prompt: "p", duration_sec: 10, resolution: "720p" },
    valid: true,
  },
  {
    name: "epsilon-2.3 8 s refused (6 or 10)",
    body: { model: "epsilon-2.3", prompt: "p", duration_sec: 8 },
    valid: false,
    code: "duration_not_allowed",
  },
  {
    name: "epsilon-2.3-fast first frame",
    body: { model: "epsilon-2.3-fast", prompt: "p", duration_sec: 6, frame_images: [first] },
    valid: true,
  },
  {
    name: "epsilon-2.3-fast logo_add refused",
    body: {
      model: "epsilon-2.3-fast",
      prompt: "p",
      duration_sec: 6,
      model_specific_config: { logo_add: true },
    },
    valid: false,
    code: "config_key_unsupported",
  },
  {
    name: "epsilonnew-1 enhance_prompt",
    body: { model: "epsilonnew-1", prompt: "p", model_specific_config: { enhance_prompt: true } },
    valid: true,
  },
  {
    name: "epsilonnew-1 unknown config key refused",
    body: { model: "epsilonnew-1", prompt: "p", model_specific_config: { seed: 3 } },
    valid: false,
    code: "config_key_not_allowed",
  },
  // zeta
  {
    name: "zeta-1.1 images only",
    body: { model: "zeta-1.1", prompt: "[Image 1] walks", input_references: [img(1), img(2)] },
    valid: true,
  },
  {
    name: "zeta-1.1 video reference refused",
    body: { model: "zeta-1.1", prompt: "p", input_references: [vid()] },
    valid: false,
    code: "reference_kind_not_allowed",
  },
  {
    name: "zeta-1.0 one first frame with seed",
    body: {
      model: "zeta-1.0",
      prompt: "p",
      frame_images: [first],
      model_specific_config: { seed: 42, watermark: false },
    },
    valid: true,
  },
  {
    name: "zeta-1.0 last frame unsupported",
    body: { model: "zeta-1.0", prompt: "p", frame_images: [first, last] },
    valid: false,
    code: "last_frame_unsupported",
  },
  // eta
  {
    name: "etanew-v6.0 text with audio",
    body: { model: "etanew-v6.0", prompt: "p", generate_audio: true, duration_sec: 6 },
    valid: true,
  },
  {
    name: "etanew-v6.0 11 s refused",
    body: { model: "etanew-v6.0", prompt: "p", duration_sec: 11 },
    valid: false,
  },
  {
    name: "etanew-c1 subject/background references",
    body: {
      model: "etanew-c1",
      prompt: "p",
      input_references: [
        { ...img(1), reference_type: "subject" },
        { ...img(2), reference_type: "background" },
      ],
    },
    valid: true,
  },
  {
    name: "etanew-c1 style reference_type refused (mu only)",
    body: {
      model: "etanew-c1",
      prompt: "p",
      input_references: [{ ...img(1), reference_type: "style" }],
    },
    valid: false,
    code: "reference_type_not_allowed",
  },
  {
    name: "etanew-v5.6 tasks_priority",
    body: { model: "etanew-v5.6", prompt: "p", model_specific_config: { tasks_priority: 1 } },
    valid: true,
  },
  {
    name: "etanew-v5.6 file-purpose value as reference_type refused",
    body: {
      model: "etanew-v5.6",
      prompt: "p",
      input_references: [{ ...img(1), reference_type: "FirstFrame" }],
    },
    valid: false,
    code: "reference_type_is_file_purpose",
  },
  // theta
  {
    name: "theta-3.0-pro 10 s 21:9",
    body: { model: "theta-3.0-pro", prompt: "p", duration_sec: 10, aspect_ratio: "21:9" },
    valid: true,
  },
  {
    name: "theta-3.0-pro 7 s refused (5 or 10)",
    body: { model: "theta-3.0-pro", prompt: "p", duration_sec: 7 },
    valid: false,
    code: "duration_not_allowed",
  },
  // kappa
  {
    name: "kappa audio on by default, 720p filled in",
    body: { model: "kappa-omni-flash-preview", prompt: "p" },
    valid: true,
    normalized: { generate_audio: true, resolution: "720p" },
  },
  {
    name: "kappa 1080p refused",
    body: { model: "kappa-omni-flash-preview", prompt: "p", resolution: "1080p" },
    valid: false,
    code: "resolution_not_allowed",
  },
  {
    name: "kappa 11 s refused (3 to 10)",
    body: { model: "kappa-omni-flash-preview", prompt: "p", duration_sec: 11 },
    valid: false,
    code: "duration_not_allowed",
  },
  // os
  {
    name: "os-2 12 s",
    body: {
      model: "os-2",
      prompt: "p",
      duration_sec: 12,
      model_specific_config: { input_compliance_check: true },
    },
    valid: true,
  },
  {
    name: "os-2 6 s refused (4, 8, 12)",
    body: { model: "os-2", prompt: "p", duration_sec: 6 },
    valid: false,
    code: "duration_not_allowed",
  },
  // lambda and mu: no codes in the contract, matched by family
  {
    name: "lambda family base video reference",
    body: {
      model: "lambda-1.0",
      prompt: "p",
      input_references: [{ ...vid(), reference_type: "base" }],
      model_specific_config: { scene_type: "text_to_video" },
    },
    valid: true,
  },
  {
    name: "lambda family subject reference_type refused",
    body: {
      model: "lambda-1.0",
      prompt: "p",
      input_references: [{ ...img(), reference_type: "subject" }],
    },
    valid: false,
    code: "reference_type_not_allowed",
  },
  {
    name: "mu family style references, 8 s",
    body: {
      model: "mu-1.0",
      prompt: "p",
      duration_sec: 8,
      input_references: [
        { ...img(1), reference_type: "asset" },
        { ...img(2), reference_type: "style" },
      ],
    },
    valid: true,
  },
  {
    name: "mu family logo_add refused",
    body: { model: "mu-1.0", prompt: "p", model_specific_config: { logo_add: "x" } },
    valid: false,
    code: "config_key_unsupported",
  },
  // image (§2.6)
  {
    name: "deltaq2-image 2K with references",
    body: {
      model: "deltaq2-image",
      modalities: ["image", "text"],
      messages: [{ role: "user", content: "a fox" }],
      image_config: {
        image_size: "2K",
        reference_images: [{ type: "url", url: "https://cdn.example.com/a.png", text: "style" }],
      },
    },
    valid: true,
  },
  {
    name: "deltaq2-image stream true refused",
    body: {
      model: "deltaq2-image",
      modalities: ["image"],
      stream: true,
      messages: [{ role: "user", content: "a fox" }],
    },
    valid: false,
    code: "stream_not_supported",
  },
  // general rules
  {
    name: "unknown model refused",
    body: { model: "gama-3.1", prompt: "p" },
    valid: false,
    code: "unknown_model",
  },
  {
    name: "http material URL refused",
    body: {
      model: "gamma-3.1",
      prompt: "p",
      duration_sec: 8,
      frame_images: [{ ...first, image_url: { url: "http://cdn.example.com/a.png" } }],
    },
    valid: false,
    code: "invalid_url",
  },
];

describe("reelay validate --json gives the verdict the contract implies for every model code", () => {
  let verdicts: Map<string, Record<string, unknown>>;
  let exitCode: number;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-validate-"));
    const files = await Promise.all(
      rows.map(async (row, i) => {
        const file = join(dir, `${String(i).padStart(3, "0")}.json`);
        await writeFile(file, JSON.stringify(row.body));
        return file;
      }),
    );
    const result = await validate(["--json", ...files]);
    exitCode = result.code;
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    verdicts = new Map(lines.map((line) => [line.file as string, line]));
    expect(lines).toHaveLength(rows.length);
    for (const [i, row] of rows.entries()) verdicts.set(row.name, verdicts.get(files[i]!)!);
  }, 60_000);

  it("exits 1 because some files are invalid", () => {
    expect(exitCode).toBe(1);
  });

  it("every model code of §4.8 and the image model has a valid and an invalid row", () => {
    const models = new Set(rows.map((row) => (row.body as { model: string }).model));
    for (const code of [
      "alpha-2.7",
      "alpha-2.6",
      "alpha-2.6-flash",
      "alpha-2.7-videoedit",
      "beta-2.0-os",
      "beta-2.0-overseas-hc-os",
      "beta-2.0-fast-hc-os",
      "beta-2.0-mini-overseas-hc-os",
      "gamma-3.1",
      "gamma-3.1-fast",
      "gamma-3.1-lite",
      "deltaq2",
      "deltaq2-pro",
      "deltaq2-turbo",
      "deltaq3",
      "deltaq3-pro",
      "deltaq3-turbo",
      "deltaq3-pro-fast",
      "deltaq3-mix",
      "epsilon-2.3",
      "epsilon-2.3-fast",
      "epsilonnew-1",
      "zeta-1.1",
      "zeta-1.0",
      "etanew-v6.0",
      "etanew-c1",
      "etanew-v5.6",
      "theta-3.0-pro",
      "kappa-omni-flash-preview",
      "os-2",
      "deltaq2-image",
    ]) {
      expect(models, code).toContain(code);
      const own = rows.filter((row) => (row.body as { model: string }).model === code);
      expect(own.some((row) => row.valid) && own.some((row) => !row.valid), code).toBe(true);
    }
  });

  it.each(rows.map((row) => [row.name, row] as const))("%s", (_name, row) => {
    const verdict = verdicts.get(row.name)!;
    expect(Object.keys(verdict)).toEqual([
      "file",
      "valid",
      "kind",
      "mode",
      "errors",
      "warnings",
      "normalized",
      "estimate",
    ]);
    const errors = verdict.errors as { code: string; path: string; message: string }[];
    const warnings = verdict.warnings as { code: string }[];
    expect(verdict.valid, JSON.stringify(errors)).toBe(row.valid);
    if (row.valid) {
      expect(errors).toEqual([]);
      if (row.code) expect(warnings.map((w) => w.code)).toContain(row.code);
      expect(verdict.normalized).toMatchObject(row.normalized ?? {});
      expect((verdict.estimate as { usage: { unit: string } }).usage.unit).toBe(
        verdict.kind === "image" ? "image" : "video_second",
      );
    } else {
      expect(errors.length).toBeGreaterThan(0);
      expect(verdict.normalized).toBeNull();
      expect(verdict.estimate).toBeNull();
      if (row.code) expect(errors.map((e) => e.code)).toContain(row.code);
      for (const error of errors) expect(error.message.length).toBeGreaterThan(10);
    }
  });
});

describe("reelay validate exit codes and input", () => {
  it("exits 0 and prints a readable verdict when every file is valid", async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-validate-"));
    const file = join(dir, "ok.json");
    await writeFile(
      file,
      JSON.stringify({ model: "os-2", prompt: "a lighthouse", duration_sec: 8 }),
    );
    const { code, stdout } = await validate([file]);
    expect(code).toBe(0);
    expect(stdout).toContain(`valid  ${file}  (video, text)`);
    expect(stdout).toContain(
      "estimate 8 video_seconds (resolution default, audio false): no price",
    );
  });

  it("prints the estimate's cost under REELAY_PRICES", async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-validate-"));
    const file = join(dir, "ok.json");
    await writeFile(
      file,
      JSON.stringify({ model: "os-2", prompt: "a lighthouse", duration_sec: 8 }),
    );
    const prices = JSON.stringify({
      currency: "EUR",
      models: { "os-2": { per_second: { default: 0.03 } } },
    });
    const { code, stdout } = await validate(["--json", file], { REELAY_PRICES: prices });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).estimate).toEqual({
      usage: { unit: "video_second", quantity: 8, resolution: null, audio: false },
      cost: 0.24,
      currency: "EUR",
    });
  });

  it("reads stdin for '-' and reports a non-JSON file as invalid_json with exit 1", async () => {
    const child = execFile(process.execPath, [BIN, "validate", "--json", "-"]);
    child.stdin!.end("{not json");
    let stdout = "";
    child.stdout!.on("data", (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    const verdict = JSON.parse(stdout.trim()) as { file: string; errors: { code: string }[] };
    expect(verdict.file).toBe("-");
    expect(verdict.errors[0]!.code).toBe("invalid_json");
  });

  it("exits 2 for an unreadable file and for a call without files", async () => {
    const missing = await validate(["/nonexistent/reelay.json"]);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toContain("cannot read /nonexistent/reelay.json");
    const none = await validate([]);
    expect(none).toMatchObject({ code: 2 });
    const badFlag = await validate(["--nope", "x.json"]);
    expect(badFlag).toMatchObject({ code: 2 });
  });

  it("--catalog adds a user's model that validate then accepts", async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-validate-"));
    const catalog = join(dir, "catalog.json");
    const request = join(dir, "req.json");
    await writeFile(request, JSON.stringify({ model: "acme-1", prompt: "p", duration_sec: 5 }));
    const without = await validate(["--json", request]);
    expect(without).toMatchObject({ code: 1 });
    const sample = JSON.parse(
      await readFile(join(import.meta.dirname, "fixtures", "user-catalog.json"), "utf8"),
    );
    await writeFile(catalog, JSON.stringify(sample));
    const withCatalog = await validate(["--json", "--catalog", catalog, request]);
    expect(withCatalog.code).toBe(0);
    const { stdout } = withCatalog;
    expect(JSON.parse(stdout.trim())).toMatchObject({ valid: true, kind: "video" });
  });
});
