import { describe, expect, it } from "vitest";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { ValidationCodes } from "../../../src/domain/validate/codes.ts";
import { createCatalog, parseCatalogFile } from "../../../src/domain/catalog/index.ts";
import {
  expectError,
  expectValid,
  expectWarning,
  first,
  imageRef,
  last,
  times,
  videoRef,
} from "./helpers.ts";

const text = (extra: Record<string, unknown> = {}) => ({
  model: "zeta-1.1",
  prompt: "a fox",
  ...extra,
});
const image = (extra: Record<string, unknown> = {}, config?: Record<string, unknown>) => ({
  model: "deltaq2-image",
  messages: [{ role: "user", content: "a fox" }],
  modalities: ["image", "text"],
  ...(config === undefined ? {} : { image_config: config }),
  ...extra,
});

describe("§2.1 video create request", () => {
  it("§2.1: prompt is required when neither frame_images nor input_references is given", () => {
    expectError({ model: "zeta-1.1" }, "prompt_required", "prompt");
    expectError({ model: "zeta-1.1", prompt: "   " }, "prompt_required", "prompt");
  });
  it("§2.1: with material the prompt is recommended (warning only)", () => {
    expectWarning({ model: "zeta-1.1", frame_images: [first()] }, "prompt_recommended", "prompt");
  });
  it("§2.1: model is required and must be a string", () => {
    expectError({ prompt: "x" }, "missing_field", "model");
    expectError({ model: 42, prompt: "x" }, "invalid_type", "model");
  });
  it("§2.1: unknown model is rejected with close matches", () => {
    const r = expectError({ model: "gama-3.1", prompt: "x" }, "unknown_model", "model");
    expect(r.errors[0]?.message).toBe("Unknown model 'gama-3.1'. Did you mean `gamma-3.1`?");
  });
  it('§2.1: duration_sec must be an integer; 5.5, "5" and -1 are rejected', () => {
    expectError(text({ duration_sec: 5.5 }), "invalid_type", "duration_sec");
    expectError(text({ duration_sec: "5" }), "invalid_type", "duration_sec");
    expectError(text({ duration_sec: -1 }), "out_of_range", "duration_sec");
  });
  it("§2.1: duration_sec default 5 and generate_audio default false are filled in", () => {
    expect(expectValid(text()).normalized).toEqual({
      model: "zeta-1.1",
      prompt: "a fox",
      duration_sec: 5,
      generate_audio: false,
    });
  });
  it("§2.1: explicit values are never changed", () => {
    const body = text({
      duration_sec: 7,
      resolution: "480p",
      aspect_ratio: "1:1",
      generate_audio: false,
    });
    expect(expectValid(body).normalized).toEqual(body);
  });
  it("§2.1: duration_sec 0 is rejected outside video edit", () => {
    expectError(text({ duration_sec: 0 }), "duration_not_allowed", "duration_sec");
  });
  it("§2.1: model_specific_config keys outside the allow-list are rejected, logo_add always", () => {
    const r = expectError(
      text({ model_specific_config: { seed: 1, colour: "red" } }),
      "config_key_not_allowed",
      "model_specific_config.colour",
    );
    expect(r.errors[0]?.message).toMatch(/`watermark` or `seed`/);
    expectError(
      text({ model_specific_config: { logo_add: true } }),
      "config_key_unsupported",
      "model_specific_config.logo_add",
    );
    expectError(
      {
        model: "gamma-3.1",
        prompt: "x",
        duration_sec: 8,
        model_specific_config: { logo_add: false },
      },
      "config_key_unsupported",
    );
  });
  it("§2.1: provider.raw_passthrough must be a boolean", () => {
    expectValid(text({ provider: { raw_passthrough: true } }));
    expectError(
      text({ provider: { raw_passthrough: "yes" } }),
      "invalid_type",
      "provider.raw_passthrough",
    );
  });
  it("§2.1: unknown top-level fields warn and are left out of normalized", () => {
    const r = expectWarning(text({ seed: 3 }), "unknown_field", "seed");
    expect(r.normalized).not.toHaveProperty("seed");
  });
});

describe("§2.2 frame_images", () => {
  it("§2.2: type is fixed image_url", () => {
    expectError(
      text({ frame_images: [{ ...first(), type: "url" }] }),
      "invalid_value",
      "frame_images[0].type",
    );
  });
  it("§2.2: frame_type only first_frame or last_frame", () => {
    const r = expectError(
      text({ frame_images: [{ ...first(), frame_type: "middle_frame" }] }),
      "invalid_value",
      "frame_images[0].frame_type",
    );
    expect(r.errors[0]?.message).toContain("`first_frame` or `last_frame`");
  });
  it("§2.2: at most one first and one last frame", () => {
    expectError(
      { model: "alpha-2.7", prompt: "x", frame_images: [first(), last(), last()] },
      "duplicate_frame",
      "frame_images[2].frame_type",
    );
  });
  it("§2.2: image_url.url must be public https or asset://vidast_", () => {
    for (const url of [
      "http://e.com/a.png",
      "data:image/png;base64,AAAA",
      "ftp://e.com/a.png",
      "not a url",
      "https://127.0.0.1/a.png",
      "https://localhost/a.png",
      "https://10.1.2.3/a.png",
      "https://user:pw@e.com/a.png",
      "asset://other_1",
    ]) {
      expectError(
        text({ frame_images: [first(url)] }),
        "invalid_url",
        "frame_images[0].image_url.url",
      );
    }
    expectValid(text({ frame_images: [first("asset://vidast_01HZX")] }));
  });
  it("§2.2: a material URL on an address the SSRF guard refuses is invalid_url, IPv4 inside IPv6 included", () => {
    for (const host of [
      "169.254.169.254",
      "[::ffff:169.254.169.254]",
      "[::ffff:a9fe:a9fe]",
      "[::a9fe:a9fe]",
      "[64:ff9b::a9fe:a9fe]",
      "[fd00:ec2::254]",
      "[::1]",
      "0.0.0.0",
      "2852039166",
    ]) {
      expectError(
        text({ frame_images: [first(`https://${host}/a.png`)] }),
        "invalid_url",
        "frame_images[0].image_url.url",
      );
    }
    expectValid(text({ frame_images: [first("https://93.184.216.34/a.png")] }));
  });
  it("§2.2: frame images with reference-semantics fields of input_references are rejected", () => {
    expectError(
      {
        model: "alpha-2.7",
        prompt: "x",
        frame_images: [first()],
        input_references: [imageRef({ object_id: "a" })],
      },
      "frames_with_references",
    );
  });
  it("§1.7: first frame selects first_frame mode, a last frame first_last_frame", () => {
    expect(validate(text({ frame_images: [first()] })).mode).toBe("first_frame");
    expect(
      validate({ model: "alpha-2.7", prompt: "x", frame_images: [first(), last()] }).mode,
    ).toBe("first_last_frame");
    expect(validate(text()).mode).toBe("text");
    expect(validate(text({ input_references: [imageRef()] })).mode).toBe("reference");
  });
});

describe("§2.3 input_references", () => {
  it("§2.3: type image_url or video_url; image_url item needs image_url.url, video_url item needs video_url", () => {
    expectError(
      text({ input_references: [{ type: "gif_url" }] }),
      "invalid_value",
      "input_references[0].type",
    );
    expectError(
      { model: "kappa-omni-flash-preview", prompt: "x", input_references: [{ type: "image_url" }] },
      "missing_field",
      "input_references[0].image_url",
    );
    expectError(
      { model: "kappa-omni-flash-preview", prompt: "x", input_references: [{ type: "video_url" }] },
      "missing_field",
      "input_references[0].video_url",
    );
    expectError(
      {
        model: "kappa-omni-flash-preview",
        prompt: "x",
        input_references: [
          {
            type: "video_url",
            video_url: "https://e.com/v.mp4",
            image_url: { url: "https://e.com/a.png" },
          },
        ],
      },
      "field_not_for_type",
      "input_references[0].image_url",
    );
  });
  it("§2.3: reference_type values only in their family (subject on mu is rejected, naming eta)", () => {
    const r = expectError(
      { model: "mu-1", prompt: "x", input_references: [imageRef({ reference_type: "subject" })] },
      "reference_type_not_allowed",
      "input_references[0].reference_type",
    );
    expect(r.errors[0]?.message).toContain("eta family");
  });
  it("§2.3: an unknown reference_type value is rejected listing the table", () => {
    const r = expectError(
      { model: "etanew-c1", prompt: "x", input_references: [imageRef({ reference_type: "hero" })] },
      "reference_type_not_allowed",
    );
    expect(r.errors[0]?.message).toContain("`subject`");
  });
  it("§2.3: file-purpose values (Reference, FirstFrame, LastFrame) as reference_type are rejected, pointing to model_specific_config.usage", () => {
    for (const value of ["Reference", "FirstFrame", "LastFrame"]) {
      const r = expectError(
        {
          model: "etanew-c1",
          prompt: "x",
          input_references: [imageRef({ reference_type: value })],
        },
        "reference_type_is_file_purpose",
      );
      expect(r.errors[0]?.message).toContain("model_specific_config.usage");
    }
  });
  it("§2.3: object_id on a video item warns (mainly acts on image_url)", () => {
    expectWarning(
      {
        model: "kappa-omni-flash-preview",
        prompt: "x",
        input_references: [videoRef({ object_id: "a" })],
      },
      "object_id_unusual",
    );
  });
  it("§2.3: object_id and reference_type must be strings", () => {
    expectError(
      text({ input_references: [imageRef({ object_id: 7 })] }),
      "invalid_type",
      "input_references[0].object_id",
    );
  });
});

describe("§2.4 asset:// references", () => {
  it("§2.4: asset://vidast_ accepted in frame image, reference image and reference video", () => {
    expectValid({
      model: "kappa-omni-flash-preview",
      prompt: "x",
      input_references: [
        { type: "image_url", image_url: { url: "asset://vidast_a" } },
        { type: "video_url", video_url: "asset://vidast_b" },
      ],
    });
  });
  it("§2.4: asset:// is not accepted for image-contract reference images or audio references", () => {
    expectError(
      image({}, { reference_images: [{ type: "url", url: "asset://vidast_a", text: "product" }] }),
      "asset_url_not_allowed",
      "image_config.reference_images[0].url",
    );
    expectError(
      {
        model: "alpha-2.7",
        prompt: "x",
        input_references: [imageRef(), { type: "audio_url", audio_url: "asset://vidast_a" }],
      },
      "asset_url_not_allowed",
    );
  });
  it("§2.4: a malformed asset id is an invalid_url", () => {
    expectError(text({ frame_images: [first("asset://vidast_")] }), "invalid_url");
  });
});

describe("§2.6 image generation request", () => {
  it("§2.6: image kind is chosen by messages/modalities or by an image model", () => {
    expect(validate(image()).kind).toBe("image");
    expect(validate({ model: "deltaq2-image", prompt: "x" }).kind).toBe("image");
    expect(validate({ model: "nope", modalities: ["image"] }).kind).toBe("image");
  });
  it("§2.6: modalities must contain image", () => {
    expectError(image({ modalities: ["text"] }), "modalities_missing_image", "modalities");
    expectError(
      { model: "deltaq2-image", messages: [{ role: "user", content: "x" }] },
      "missing_field",
      "modalities",
    );
  });
  it("§2.6: stream must be false or omitted", () => {
    expectValid(image({ stream: false }));
    expectError(image({ stream: true }), "stream_not_supported", "stream");
  });
  it("§2.6: custom_size is unsupported, pointing to image_size", () => {
    const r = expectError(
      image({}, { custom_size: "1024x1024" }),
      "custom_size_unsupported",
      "image_config.custom_size",
    );
    expect(r.errors[0]?.message).toContain("image_size");
  });
  it("§2.6: image_size for deltaq2-image is 1080p, 2K or 4K", () => {
    expectValid(image({}, { image_size: "2K" }));
    expectError(
      image({}, { image_size: "720p" }),
      "image_size_not_allowed",
      "image_config.image_size",
    );
  });
  it("§2.6: aspect_ratio commonly auto, 16:9 ... (5:4 warns)", () => {
    expectValid(image({}, { aspect_ratio: "auto" }));
    expectWarning(
      image({}, { aspect_ratio: "5:4" }),
      "aspect_ratio_unusual",
      "image_config.aspect_ratio",
    );
  });
  it("§2.6: reference_images 1 to 7 items each {type: url, url, text}; they make the mode edit", () => {
    const ref = { type: "url", url: "https://e.com/a.png", text: "the product" };
    expect(expectValid(image({}, { reference_images: times(7, () => ref) })).mode).toBe("edit");
    expectError(
      image({}, { reference_images: [] }),
      "too_few_items",
      "image_config.reference_images",
    );
    expectError(
      image({}, { reference_images: times(8, () => ref) }),
      "too_many_items",
      "image_config.reference_images",
    );
    expectError(
      image({}, { reference_images: [{ ...ref, type: "image_url" }] }),
      "invalid_value",
      "image_config.reference_images[0].type",
    );
    expectError(
      image({}, { reference_images: [{ type: "url", url: "https://e.com/a.png" }] }),
      "missing_field",
      "image_config.reference_images[0].text",
    );
    expectError(
      image({}, { reference_images: [{ ...ref, url: "http://e.com/a.png" }] }),
      "invalid_url",
    );
  });
  it("§2.6: output_image_count is a positive integer, default 1", () => {
    expect(expectValid(image({ output_image_count: 3 })).normalized).toMatchObject({
      output_image_count: 3,
    });
    expectError(image({ output_image_count: 0 }), "out_of_range", "output_image_count");
    expectError(image({ output_image_count: 1.5 }), "invalid_type", "output_image_count");
  });
  it("§2.6: model_specific_config.seed is an integer; other keys rejected", () => {
    expectValid(image({ model_specific_config: { seed: 7 } }));
    expectError(
      image({ model_specific_config: { seed: "7" } }),
      "config_value_invalid",
      "model_specific_config.seed",
    );
    expectError(image({ model_specific_config: { watermark: true } }), "config_key_not_allowed");
  });
  it("§2.6: messages items need role and string content", () => {
    expectError(
      image({ messages: [{ role: "user", content: [{ type: "text" }] }] }),
      "invalid_type",
      "messages[0].content",
    );
    expectError(image({ messages: [{ content: "x" }] }), "missing_field", "messages[0].role");
    expectError(image({ messages: [] }), "too_few_items", "messages");
  });
  it("§2.6: the image form with a video model is a model_kind_mismatch", () => {
    expectError(image({ model: "gamma-3.1" }), "model_kind_mismatch", "model");
  });
  it("§2.6: output_format is url", () => {
    expectValid(image({}, { output_format: "url" }));
    expectError(
      image({}, { output_format: "b64_json" }),
      "invalid_value",
      "image_config.output_format",
    );
  });
});

describe("§8 limits", () => {
  it("§8: last_frame only for alpha-2.7, beta-2.0-os and the gamma-3.1 family", () => {
    const withLast = (model: string) =>
      validate({ model, prompt: "x", frame_images: [first(), last()], duration_sec: 8 });
    for (const model of [
      "alpha-2.7",
      "beta-2.0-os",
      "gamma-3.1",
      "gamma-3.1-fast",
      "gamma-3.1-lite",
    ])
      expect(withLast(model).valid, model).toBe(true);
    for (const model of [
      "alpha-2.6",
      "epsilon-2.3",
      "zeta-1.1",
      "etanew-v6.0",
      "theta-3.0-pro",
      "kappa-omni-flash-preview",
      "os-2",
    ]) {
      expect(
        withLast(model).errors.map((e) => e.code),
        model,
      ).toContain("last_frame_unsupported");
    }
  });
  it("§8: image contract reference images 1-7 and stream false or omitted", () => {
    expectError(image({ stream: true }), "stream_not_supported");
  });
  it("§8: image output count default 1 per call", () => {
    expect(validate(image()).normalized).toMatchObject({ output_image_count: 1 });
  });
});

describe("user catalog in validate", () => {
  it("validate uses options.catalog: a user model is accepted and its rules enforced", () => {
    const catalog = createCatalog(
      parseCatalogFile({
        models: [
          {
            code: "acme-1",
            family: "acme",
            kind: "video",
            modes: { text: "allowed" },
            durations: [{ values: [3], strength: "hard" }],
          },
        ],
      }),
    );
    expect(validate({ model: "acme-1", prompt: "x", duration_sec: 3 }, { catalog }).valid).toBe(
      true,
    );
    expect(
      validate({ model: "acme-1", prompt: "x", duration_sec: 4 }, { catalog }).errors[0]?.code,
    ).toBe("duration_not_allowed");
    expect(validate({ model: "acme-1", prompt: "x" }).errors[0]?.code).toBe("unknown_model");
  });
});

describe("issue messages", () => {
  it("every issue code used in these requests is listed in codes.ts", () => {
    const bodies = [
      text({ duration_sec: 2, x: 1 }),
      image({ stream: true }),
      null,
      { model: "gama" },
      text({ frame_images: [first("http://x")] }),
    ];
    for (const body of bodies) {
      const r = validate(body);
      for (const issue of [...r.errors, ...r.warnings])
        expect(Object.keys(ValidationCodes)).toContain(issue.code);
    }
  });
});
