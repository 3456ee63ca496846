import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationCodes } from "../../../src/domain/validate/codes.ts";
import { validate, type ValidationResult } from "../../../src/domain/validate/validate-request.ts";

const codes = new Set(Object.keys(ValidationCodes));

function assertShape(result: ValidationResult): void {
  expect(typeof result.valid).toBe("boolean");
  expect([null, "video", "image"]).toContain(result.kind);
  expect(Array.isArray(result.errors) && Array.isArray(result.warnings)).toBe(true);
  for (const issue of [...result.errors, ...result.warnings]) {
    expect(typeof issue.path).toBe("string");
    expect(typeof issue.message).toBe("string");
    expect(codes.has(issue.code), issue.code).toBe(true);
  }
  expect(result.valid).toBe(result.errors.length === 0);
  if (!result.valid) expect(result.normalized).toBeNull();
  else expect(result.normalized).not.toBeNull();
}

const models = fc.constantFrom(
  "gamma-3.1",
  "zeta-1.1",
  "kappa-omni-flash-preview",
  "alpha-2.7-videoedit",
  "beta-2.0-overseas-hc-os",
  "lambda-1",
  "deltaq2-image",
  "gama-3.1",
  "",
);
const url = fc.oneof(
  fc.constant("https://cdn.example.com/a.png"),
  fc.constant("asset://vidast_x"),
  fc.constant("http://x"),
  fc.string(),
);
const any = fc.anything({ maxDepth: 3 });
const item = fc.record(
  {
    type: fc.oneof(fc.constantFrom("image_url", "video_url", "audio_url", "url"), any),
    frame_type: fc.oneof(fc.constantFrom("first_frame", "last_frame"), any),
    image_url: fc.oneof(fc.record({ url }), any),
    video_url: fc.oneof(url, any),
    object_id: fc.oneof(fc.string(), any),
    reference_type: fc.oneof(fc.constantFrom("asset", "subject", "feature", "Reference"), any),
    url,
    text: fc.string(),
  },
  { requiredKeys: [] },
);
const body = fc.record(
  {
    model: fc.oneof(models, any),
    prompt: fc.oneof(fc.string(), any),
    duration_sec: fc.oneof(fc.integer({ min: -2, max: 20 }), fc.double(), any),
    resolution: fc.oneof(fc.constantFrom("720p", "1080p", "4k", "2K"), any),
    aspect_ratio: fc.oneof(fc.constantFrom("16:9", "1:1"), any),
    generate_audio: fc.oneof(fc.boolean(), any),
    frame_images: fc.oneof(fc.array(item, { maxLength: 4 }), any),
    input_references: fc.oneof(fc.array(item, { maxLength: 4 }), any),
    model_specific_config: fc.oneof(
      fc.dictionary(
        fc.constantFrom("seed", "logo_add", "__proto__", "task", "watermark", "constructor"),
        any,
      ),
      any,
    ),
    provider: fc.oneof(fc.record({ raw_passthrough: any }), any),
    messages: fc.oneof(
      fc.array(
        fc.record({ role: fc.oneof(fc.string(), any), content: fc.oneof(fc.string(), any) }),
        { maxLength: 3 },
      ),
      any,
    ),
    modalities: fc.oneof(fc.constant(["image"]), any),
    stream: any,
    image_config: fc.oneof(
      fc.record(
        {
          image_size: any,
          custom_size: any,
          reference_images: fc.oneof(fc.array(item, { maxLength: 9 }), any),
        },
        { requiredKeys: [] },
      ),
      any,
    ),
    output_image_count: any,
    ["__proto__"]: any,
  },
  { requiredKeys: [] },
);

describe("validate property tests", () => {
  it("validate never throws on 10,000 arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), body, fc.anything()), (value) => {
        assertShape(validate(value));
      }),
      { numRuns: 10_000 },
    );
    // Pure CPU work (about 3 s on a quiet core): the limit only stops a hang, and must hold when
    // the suite shares the machine's 2 cores with stacks (15 s seen at load 11).
  }, 120_000);

  it("validate never throws on deep nesting, NaN-ish numbers and prototype keys", () => {
    let deep: unknown = { model: "gamma-3.1" };
    for (let i = 0; i < 10_000; i++) deep = { model_specific_config: deep, frame_images: [deep] };
    assertShape(validate(deep));
    for (const weird of [NaN, Infinity, -0, 1e308, Number.MAX_SAFE_INTEGER + 2]) {
      assertShape(validate({ model: "gamma-3.1", prompt: "x", duration_sec: weird }));
    }
    assertShape(
      validate(
        JSON.parse(
          '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"model":"zeta-1.1","prompt":"x"}',
        ),
      ),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    assertShape(validate(Object.create(null)));
    assertShape(
      validate(
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error("boom");
            },
          },
        ),
      ),
    );
  });
});
