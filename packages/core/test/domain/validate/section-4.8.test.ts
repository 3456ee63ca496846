import { describe, expect, it } from "vitest";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import {
  audioRef,
  errorCodes,
  expectError,
  expectValid,
  expectWarning,
  first,
  imageRef,
  last,
  times,
  videoRef,
  warningCodes,
} from "./helpers.ts";

describe("§4.8 alpha", () => {
  it("§4.8 alpha: resolution only 720p or 1080p; 480p is rejected", () => {
    expectValid({ model: "alpha-2.7", prompt: "x", resolution: "1080p" });
    expectError(
      { model: "alpha-2.7", prompt: "x", resolution: "480p" },
      "resolution_not_allowed",
      "resolution",
    );
  });
  it("§4.8 alpha-2.7: first+last frames together are accepted", () => {
    expect(
      expectValid({ model: "alpha-2.7", prompt: "x", frame_images: [first(), last()] }).mode,
    ).toBe("first_last_frame");
  });
  it("§4.8 alpha-2.6 / alpha-2.6-flash: first frame only; last_frame is unsupported", () => {
    expectError(
      { model: "alpha-2.6", prompt: "x", frame_images: [first(), last()] },
      "last_frame_unsupported",
      "frame_images[1].frame_type",
    );
    expectError(
      { model: "alpha-2.6-flash", prompt: "x", frame_images: [first(), last()] },
      "last_frame_unsupported",
    );
  });
  it("§4.8 alpha-2.6-flash: text-to-video is not among its capabilities", () => {
    expectError({ model: "alpha-2.6-flash", prompt: "x" }, "mode_not_supported");
  });
  it("§4.8 alpha: text duration about 2-15 (16 warns), reference about 2-10 (12 warns)", () => {
    expectWarning(
      { model: "alpha-2.7", prompt: "x", duration_sec: 16 },
      "duration_unusual",
      "duration_sec",
    );
    expect(
      warningCodes(expectValid({ model: "alpha-2.7", prompt: "x", duration_sec: 12 })),
    ).not.toContain("duration_unusual");
    expectWarning(
      { model: "alpha-2.7", prompt: "x", duration_sec: 12, input_references: [imageRef()] },
      "duration_unusual",
    );
  });
  it("§4.8 alpha: aspect_ratio outside the examples only warns", () => {
    expectWarning(
      { model: "alpha-2.7", prompt: "x", aspect_ratio: "21:9" },
      "aspect_ratio_unusual",
      "aspect_ratio",
    );
  });
  it("§4.8 alpha-2.7: driving audio reference is accepted", () => {
    expectValid({ model: "alpha-2.7", prompt: "x", input_references: [imageRef(), audioRef()] });
  });
});

describe("§4.8 alpha-2.7-videoedit", () => {
  const edit = (refs: unknown[], extra: Record<string, unknown> = {}) => ({
    model: "alpha-2.7-videoedit",
    prompt: "snow",
    input_references: refs,
    ...extra,
  });
  it("§4.8 alpha-2.7-videoedit: exactly one video reference, at most 4 images, duration 0 allowed", () => {
    expect(
      expectValid(edit([videoRef(), ...times(4, () => imageRef())], { duration_sec: 0 })).mode,
    ).toBe("video_edit");
    expectError(
      edit([...times(2, () => videoRef())]),
      "reference_count_not_allowed",
      "input_references",
    );
    expectError(edit([imageRef()]), "reference_count_not_allowed", "input_references");
    expectError(edit([videoRef(), ...times(5, () => imageRef())]), "reference_count_not_allowed");
  });
  it("§4.8 alpha-2.7-videoedit: requires prompt even with the source video", () => {
    expectError(
      { model: "alpha-2.7-videoedit", input_references: [videoRef()] },
      "prompt_required",
      "prompt",
    );
  });
  it("§4.8 alpha-2.7-videoedit: output about 10 s at most (12 warns)", () => {
    expectWarning(edit([videoRef()], { duration_sec: 12 }), "duration_unusual");
  });
  it("§4.8 alpha-2.7-videoedit: frame_images are not accepted", () => {
    expectError(
      edit([videoRef()], { frame_images: [first()] }),
      "mode_not_supported",
      "frame_images",
    );
  });
  it("§4.8 alpha-2.7-videoedit: no material at all is rejected (needs the source video)", () => {
    expectError({ model: "alpha-2.7-videoedit", prompt: "x" }, "reference_count_not_allowed");
  });
});

describe("§4.8 beta", () => {
  const ref = (refs: unknown[], extra: Record<string, unknown> = {}) => ({
    model: "beta-2.0-overseas-hc-os",
    prompt: "x",
    input_references: refs,
    ...extra,
  });
  it("§4.8 beta: frames and references mutually exclusive; at most 3 videos; audio-only reference not allowed", () => {
    expectError(ref([imageRef()], { frame_images: [first()] }), "frames_with_references");
    expectError(ref(times(4, () => videoRef())), "reference_count_not_allowed", "input_references");
    expectValid(ref(times(3, () => videoRef())));
    expectError(ref([audioRef(), audioRef()]), "audio_only_reference", "input_references");
    expectValid(ref([imageRef(), audioRef()]));
  });
  it("§4.8 beta: more than 9 reference images only warns (recommended)", () => {
    expectWarning(ref(times(10, () => imageRef())), "reference_count_unusual");
  });
  it("§4.8 beta: duration_sec integer 4 to 15; 3 and 16 rejected, default 5 kept", () => {
    expectError({ model: "beta-2.0-os", prompt: "x", duration_sec: 3 }, "duration_not_allowed");
    expectError({ model: "beta-2.0-os", prompt: "x", duration_sec: 16 }, "duration_not_allowed");
    expect(expectValid({ model: "beta-2.0-os", prompt: "x" }).normalized).toMatchObject({
      duration_sec: 5,
      generate_audio: false,
    });
  });
  it("§4.8 beta: aspect_ratio adaptive accepted, 5:4 rejected", () => {
    expectValid({
      model: "beta-2.0-os",
      prompt: "x",
      aspect_ratio: "adaptive",
      frame_images: [first(), last()],
    });
    expectError(
      { model: "beta-2.0-os", prompt: "x", aspect_ratio: "5:4" },
      "aspect_ratio_not_allowed",
    );
  });
  it("§4.8 beta: fast and mini are 480p/720p only; 1080p rejected", () => {
    expectError(
      ref([imageRef()], { model: "beta-2.0-fast-hc-os", resolution: "1080p" }),
      "resolution_not_allowed",
    );
    expectError(
      ref([imageRef()], { model: "beta-2.0-mini-overseas-hc-os", resolution: "1080p" }),
      "resolution_not_allowed",
    );
  });
  it("§4.8 beta: object_id and reference_type are not used", () => {
    expectError(
      ref([imageRef({ object_id: "a" })]),
      "object_id_not_used",
      "input_references[0].object_id",
    );
    expectError(ref([imageRef({ reference_type: "subject" })]), "reference_type_not_allowed");
  });
  it("§4.8 beta-2.0-os: takes no input_references; the hc models take no frames", () => {
    expectError(
      { model: "beta-2.0-os", prompt: "x", input_references: [imageRef()] },
      "mode_not_supported",
    );
    expectError(
      { model: "beta-2.0-overseas-hc-os", prompt: "x", frame_images: [first()] },
      "mode_not_supported",
    );
  });
  it("§4.8 beta: asset://vidast_ material accepted", () => {
    expectValid(
      ref([
        { type: "image_url", image_url: { url: "asset://vidast_abc123" } },
        { type: "video_url", video_url: "asset://vidast_x9" },
      ]),
    );
  });
});

describe("§4.8 gamma", () => {
  it("§4.8 gamma: duration_sec 5 is rejected (only 4, 6, 8)", () => {
    const r = expectError(
      { model: "gamma-3.1", prompt: "x", duration_sec: 5 },
      "duration_not_allowed",
      "duration_sec",
    );
    expect(r.errors[0]?.message).toMatch(/4.*6.*8/);
    for (const d of [4, 6, 8]) expectValid({ model: "gamma-3.1", prompt: "x", duration_sec: d });
  });
  it("§4.8 gamma: default duration is 8 s with a warning", () => {
    const r = expectWarning(
      { model: "gamma-3.1-lite", prompt: "x" },
      "duration_defaulted",
      "duration_sec",
    );
    expect(r.normalized).toMatchObject({ duration_sec: 8 });
  });
  it("§4.8 gamma: aspect_ratio only 16:9 or 9:16", () => {
    expectError(
      { model: "gamma-3.1", prompt: "x", duration_sec: 8, aspect_ratio: "1:1" },
      "aspect_ratio_not_allowed",
    );
  });
  it("§4.8 gamma: last_frame requires a first_frame", () => {
    expectError(
      { model: "gamma-3.1", prompt: "x", duration_sec: 8, frame_images: [last()] },
      "last_frame_requires_first",
    );
    expectValid({
      model: "gamma-3.1",
      prompt: "x",
      duration_sec: 8,
      frame_images: [first(), last()],
    });
  });
  it("§4.8 gamma: reference images allowed for 3.1 and fast, not lite; not mixed with frames", () => {
    expectValid({
      model: "gamma-3.1-fast",
      prompt: "x",
      duration_sec: 8,
      input_references: [imageRef({ reference_type: "asset" })],
    });
    expectError(
      { model: "gamma-3.1-lite", prompt: "x", duration_sec: 8, input_references: [imageRef()] },
      "mode_not_supported",
    );
    expectError(
      {
        model: "gamma-3.1",
        prompt: "x",
        duration_sec: 8,
        input_references: [imageRef()],
        frame_images: [first()],
      },
      "frames_with_references",
    );
    expectError(
      { model: "gamma-3.1", prompt: "x", duration_sec: 8, input_references: [videoRef()] },
      "reference_kind_not_allowed",
    );
  });
  it("§4.8 gamma: reference-image mode usually fixes duration at 8 (4 warns)", () => {
    expectWarning(
      { model: "gamma-3.1", prompt: "x", duration_sec: 4, input_references: [imageRef()] },
      "duration_unusual",
    );
  });
  it("§4.8 gamma: 4k only for gamma-3.1 (fast: recommended 720p/1080p warns; lite: rejected)", () => {
    expectValid({ model: "gamma-3.1", prompt: "x", duration_sec: 8, resolution: "4k" });
    expectWarning(
      { model: "gamma-3.1-fast", prompt: "x", duration_sec: 8, resolution: "4k" },
      "resolution_unusual",
    );
    expectError(
      { model: "gamma-3.1-lite", prompt: "x", duration_sec: 8, resolution: "4k" },
      "resolution_not_allowed",
    );
  });
});

describe("§4.8 delta (video)", () => {
  it("§4.8 deltaq2: duration 1-10 and resolution 540p/720p/1080p", () => {
    expectValid({ model: "deltaq2", prompt: "x", duration_sec: 1, resolution: "540p" });
    expectError({ model: "deltaq2", prompt: "x", duration_sec: 11 }, "duration_not_allowed");
    expectError({ model: "deltaq2", prompt: "x", resolution: "4k" }, "resolution_not_allowed");
  });
  it("§4.8 deltaq3: duration 3-16; text alone is unusual (reference-led)", () => {
    expectValid({
      model: "deltaq3",
      prompt: "x",
      duration_sec: 16,
      input_references: [imageRef()],
    });
    expectError(
      { model: "deltaq3", prompt: "x", duration_sec: 2, input_references: [imageRef()] },
      "duration_not_allowed",
    );
    expectWarning({ model: "deltaq3", prompt: "x" }, "mode_unusual");
  });
  it("§4.8 delta: reference images commonly at most about 7 (8 warns); object_id used; reference_type rejected", () => {
    expectWarning(
      { model: "deltaq2", prompt: "x", input_references: times(8, () => imageRef()) },
      "reference_count_unusual",
    );
    const ok = expectValid({
      model: "deltaq2-pro",
      prompt: "@a",
      input_references: [imageRef({ object_id: "a" }), imageRef({ object_id: "a" })],
    });
    expect(ok.warnings).toEqual([]);
    expectError(
      {
        model: "deltaq2",
        prompt: "x",
        input_references: [imageRef({ reference_type: "subject" })],
      },
      "reference_type_not_allowed",
    );
  });
  it("§4.8 delta: no frame images (capabilities are text and reference)", () => {
    expectError({ model: "deltaq2", prompt: "x", frame_images: [first()] }, "mode_not_supported");
  });
});

describe("§4.8 epsilon", () => {
  it("§4.8 epsilon-2.3: 6 or 10 only; 5 rejected; absent duration becomes 6 with a warning", () => {
    expectError({ model: "epsilon-2.3", prompt: "x", duration_sec: 5 }, "duration_not_allowed");
    expectValid({ model: "epsilon-2.3", prompt: "x", duration_sec: 10 });
    const r = expectWarning({ model: "epsilon-2.3", prompt: "x" }, "duration_defaulted");
    expect(r.normalized).toMatchObject({ duration_sec: 6 });
  });
  it("§4.8 epsilon-2.3: 1080p commonly only 6 (10 at 1080p warns)", () => {
    expectWarning(
      { model: "epsilon-2.3", prompt: "x", duration_sec: 10, resolution: "1080p" },
      "duration_unusual",
    );
  });
  it("§4.8 epsilon-2.3-fast: commonly 6 (8 warns); epsilonnew-1 about 4-10 (12 warns)", () => {
    expectWarning({ model: "epsilon-2.3-fast", prompt: "x", duration_sec: 8 }, "duration_unusual");
    expectWarning({ model: "epsilonnew-1", prompt: "x", duration_sec: 12 }, "duration_unusual");
  });
  it("§4.8 epsilon: first frame only; last frame rejected (§8)", () => {
    expectError(
      { model: "epsilon-2.3", prompt: "x", duration_sec: 6, frame_images: [first(), last()] },
      "last_frame_unsupported",
    );
  });
  it("§4.8 epsilon: audio normally not generated (true warns); enhance_prompt allowed", () => {
    expectWarning(
      { model: "epsilonnew-1", prompt: "x", generate_audio: true },
      "audio_unusual",
      "generate_audio",
    );
    expectValid({
      model: "epsilonnew-1",
      prompt: "x",
      model_specific_config: { enhance_prompt: true },
    });
  });
});

describe("§4.8 zeta", () => {
  it("§4.8 zeta: images only; exactly one first frame, last_frame unsupported", () => {
    expectError(
      { model: "zeta-1.1", prompt: "x", input_references: [videoRef()] },
      "reference_kind_not_allowed",
      "input_references[0].type",
    );
    expectError(
      { model: "zeta-1.1", prompt: "x", frame_images: [first(), last()] },
      "last_frame_unsupported",
    );
    expectError(
      { model: "zeta-1.1", prompt: "x", frame_images: [first(), first()] },
      "duplicate_frame",
      "frame_images[1].frame_type",
    );
    expectValid({ model: "zeta-1.1", prompt: "x", frame_images: [first()] });
  });
  it("§4.8 zeta: about 1-9 images (10 warns); object_id usually omitted (warns)", () => {
    expectWarning(
      { model: "zeta-1.0", prompt: "x", input_references: times(10, () => imageRef()) },
      "reference_count_unusual",
    );
    expectWarning(
      { model: "zeta-1.0", prompt: "x", input_references: [imageRef({ object_id: "a" })] },
      "object_id_unusual",
    );
  });
  it("§4.8 zeta: duration 3-15; 2 rejected", () => {
    expectError({ model: "zeta-1.1", prompt: "x", duration_sec: 2 }, "duration_not_allowed");
  });
  it("§4.8 zeta: aspect ratio list for text; forcing one in image-to-video warns", () => {
    expectValid({ model: "zeta-1.1", prompt: "x", aspect_ratio: "4:5" });
    expectError(
      { model: "zeta-1.1", prompt: "x", aspect_ratio: "2:3" },
      "aspect_ratio_not_allowed",
    );
    expectWarning(
      { model: "zeta-1.1", prompt: "x", aspect_ratio: "16:9", frame_images: [first()] },
      "aspect_ratio_unusual",
    );
  });
  it("§4.8 zeta: seed integer and watermark boolean", () => {
    expectValid({
      model: "zeta-1.1",
      prompt: "x",
      model_specific_config: { seed: 42, watermark: false },
    });
    expectError(
      { model: "zeta-1.1", prompt: "x", model_specific_config: { seed: 1.5 } },
      "config_value_invalid",
      "model_specific_config.seed",
    );
    expectError(
      { model: "zeta-1.1", prompt: "x", model_specific_config: { watermark: "yes" } },
      "config_value_invalid",
    );
  });
  it("§4.8 zeta: generate_audio true warns (generally no native dubbing)", () => {
    expectWarning({ model: "zeta-1.1", prompt: "x", generate_audio: true }, "audio_unusual");
  });
});

describe("§4.8 eta", () => {
  it("§4.8 eta: 4-10 hard, commonly 4, 5, 6, 8, 10 (7 warns, 11 rejected)", () => {
    expectWarning({ model: "etanew-v6.0", prompt: "x", duration_sec: 7 }, "duration_unusual");
    expectError({ model: "etanew-v6.0", prompt: "x", duration_sec: 11 }, "duration_not_allowed");
  });
  it("§4.8 eta: subject/background references for c1 and v5.6; none for v6.0", () => {
    expectValid({
      model: "etanew-c1",
      prompt: "x",
      input_references: [
        imageRef({ reference_type: "subject" }),
        imageRef({ reference_type: "background" }),
      ],
    });
    expectError(
      {
        model: "etanew-c1",
        prompt: "x",
        input_references: [imageRef({ reference_type: "style" })],
      },
      "reference_type_not_allowed",
    );
    expectError(
      { model: "etanew-v6.0", prompt: "x", input_references: [imageRef()] },
      "mode_not_supported",
    );
  });
  it("§4.8 eta: first frame not generally mixed with multi-image reference (warns)", () => {
    expectWarning(
      {
        model: "etanew-v5.6",
        prompt: "x",
        frame_images: [first()],
        input_references: [imageRef()],
      },
      "frames_with_references_unusual",
    );
  });
  it("§4.8 eta: v5.6 audio usually off (true warns); v6.0 audio fine", () => {
    expectWarning({ model: "etanew-v5.6", prompt: "x", generate_audio: true }, "audio_unusual");
    expect(
      warningCodes(expectValid({ model: "etanew-v6.0", prompt: "x", generate_audio: true })),
    ).toEqual([]);
  });
  it("§4.8 eta: tasks_priority allowed in model_specific_config", () => {
    expectValid({ model: "etanew-c1", prompt: "x", model_specific_config: { tasks_priority: 1 } });
  });
});

describe("§4.8 theta", () => {
  it("§4.8 theta: duration 5 or 10 only (6 rejected); commonly 1080p (720p warns)", () => {
    expectError({ model: "theta-3.0-pro", prompt: "x", duration_sec: 6 }, "duration_not_allowed");
    expectWarning(
      { model: "theta-3.0-pro", prompt: "x", resolution: "720p" },
      "resolution_unusual",
    );
    expect(expectValid({ model: "theta-3.0-pro", prompt: "x" }).normalized).toMatchObject({
      duration_sec: 5,
    });
  });
  it("§4.8 theta: input_references generally unused (warns); last frame rejected", () => {
    expectWarning(
      { model: "theta-3.0-pro", prompt: "x", input_references: [imageRef()] },
      "mode_unusual",
    );
    expectError(
      { model: "theta-3.0-pro", prompt: "x", frame_images: [first(), last()] },
      "last_frame_unsupported",
    );
  });
});

describe("§4.8 kappa", () => {
  it("§4.8 kappa: 720p only; audio on by default", () => {
    const r = expectValid({ model: "kappa-omni-flash-preview", prompt: "x" });
    expect(r.normalized).toMatchObject({
      resolution: "720p",
      generate_audio: true,
      duration_sec: 5,
    });
    expectError(
      { model: "kappa-omni-flash-preview", prompt: "x", resolution: "1080p" },
      "resolution_not_allowed",
    );
    expect(
      expectValid({ model: "kappa-omni-flash-preview", prompt: "x", generate_audio: false })
        .normalized,
    ).toMatchObject({ generate_audio: false });
  });
  it("§4.8 kappa: duration must be 3 to 10; aspect only 16:9 or 9:16", () => {
    expectError(
      { model: "kappa-omni-flash-preview", prompt: "x", duration_sec: 11 },
      "duration_not_allowed",
    );
    expectError(
      { model: "kappa-omni-flash-preview", prompt: "x", aspect_ratio: "1:1" },
      "aspect_ratio_not_allowed",
    );
  });
  it("§4.8 kappa: first+last interpolation unsupported; image and video references usable", () => {
    expectError(
      { model: "kappa-omni-flash-preview", prompt: "x", frame_images: [first(), last()] },
      "last_frame_unsupported",
    );
    expectValid({
      model: "kappa-omni-flash-preview",
      prompt: "x",
      input_references: [imageRef(), videoRef()],
    });
  });
  it("§4.8 kappa: model_specific_config.task is one of text_to_video, image_to_video, reference_to_video", () => {
    expectValid({
      model: "kappa-omni-flash-preview",
      prompt: "x",
      model_specific_config: { task: "text_to_video" },
    });
    const r = expectError(
      { model: "kappa-omni-flash-preview", prompt: "x", model_specific_config: { task: "edit" } },
      "config_value_invalid",
    );
    expect(r.errors[0]?.message).toContain("reference_to_video");
  });
  it("§4.8 kappa: a task that contradicts the material warns (normally inferred from material)", () => {
    expectWarning(
      {
        model: "kappa-omni-flash-preview",
        prompt: "x",
        model_specific_config: { task: "image_to_video" },
      },
      "config_task_mismatch",
    );
    const r = expectValid({
      model: "kappa-omni-flash-preview",
      prompt: "x",
      frame_images: [first()],
      model_specific_config: { task: "image_to_video" },
    });
    expect(r.warnings.map((w) => w.code)).not.toContain("config_task_mismatch");
  });
});

describe("§4.8 os", () => {
  it("§4.8 os: only 4/8/12", () => {
    for (const d of [5, 6])
      expectError({ model: "os-2", prompt: "x", duration_sec: d }, "duration_not_allowed");
    for (const d of [4, 8, 12]) expectValid({ model: "os-2", prompt: "x", duration_sec: d });
  });
  it("§4.8 os: absent duration becomes 4 with a duration_defaulted warning", () => {
    expect(
      expectWarning({ model: "os-2", prompt: "x" }, "duration_defaulted").normalized,
    ).toMatchObject({ duration_sec: 4 });
  });
  it("§4.8 os: compliance switches are booleans", () => {
    expectValid({
      model: "os-2",
      prompt: "x",
      duration_sec: 4,
      model_specific_config: { input_compliance_check: true, output_compliance_check: false },
    });
    expectError(
      {
        model: "os-2",
        prompt: "x",
        duration_sec: 4,
        model_specific_config: { input_compliance_check: "on" },
      },
      "config_value_invalid",
    );
  });
  it("§4.8 os: image-to-video follows the first frame (forced aspect warns); commonly 720p", () => {
    expectWarning(
      {
        model: "os-2",
        prompt: "x",
        duration_sec: 4,
        aspect_ratio: "16:9",
        frame_images: [first()],
      },
      "aspect_ratio_unusual",
    );
    expectWarning(
      { model: "os-2", prompt: "x", duration_sec: 4, resolution: "1080p" },
      "resolution_unusual",
    );
  });
});

describe("§4.8 lambda and mu", () => {
  it("§4.8 lambda: feature and base apply to video references only", () => {
    expectValid({
      model: "lambda-1.0",
      prompt: "x",
      input_references: [
        videoRef({ reference_type: "feature" }),
        videoRef({ reference_type: "base" }),
      ],
    });
    expectError(
      {
        model: "lambda-1.0",
        prompt: "x",
        input_references: [imageRef({ reference_type: "feature" })],
      },
      "reference_type_not_allowed",
    );
  });
  it("§4.8 lambda: scene_type and enhance_prompt allowed", () => {
    expectValid({
      model: "lambda-2",
      prompt: "x",
      model_specific_config: { scene_type: "text_to_video", enhance_prompt: "Enabled" },
    });
  });
  it("§4.8 mu: asset and style references on images", () => {
    expectValid({
      model: "mu-1",
      prompt: "x",
      duration_sec: 8,
      input_references: [
        imageRef({ reference_type: "asset" }),
        imageRef({ reference_type: "style" }),
      ],
    });
    expectError(
      { model: "mu-1", prompt: "x", input_references: [imageRef({ reference_type: "subject" })] },
      "reference_type_not_allowed",
    );
  });
});

describe("§4.8 mode rule", () => {
  it("§4.8 unless stated input_references is not used: os-2 and theta warn, epsilon rejects", () => {
    expectError(
      { model: "epsilon-2.3", prompt: "x", duration_sec: 6, input_references: [imageRef()] },
      "mode_not_supported",
    );
    expect(
      errorCodes(
        validate({ model: "os-2", prompt: "x", duration_sec: 4, input_references: [imageRef()] }),
      ),
    ).toEqual([]);
  });
});
