import { describe, expect, it } from "vitest";
import { z } from "zod";
import { imageRequestSchema, videoRequestSchema } from "../../../src/domain/contract/schemas.ts";

describe("request schemas", () => {
  it("§2.1 / §2.6: the request schemas convert to JSON Schema with their field descriptions (for OpenAPI)", () => {
    const video = z.toJSONSchema(videoRequestSchema(), { unrepresentable: "any" }) as {
      properties: Record<string, { description?: string }>;
      required: string[];
    };
    expect(video.required).toEqual(["model"]);
    expect(video.properties.duration_sec?.description).toContain("Default 5");
    const image = z.toJSONSchema(imageRequestSchema(), { unrepresentable: "any" }) as {
      required: string[];
    };
    expect(image.required).toEqual(expect.arrayContaining(["model", "messages", "modalities"]));
  });

  it("§2.1: a key named like an inherited property is not mistaken for a field", () => {
    const parsed = videoRequestSchema().safeParse(
      JSON.parse('{"model":"m","constructor":1,"toString":2}'),
    );
    expect(parsed.success && Object.keys(parsed.data)).toEqual(["model"]);
  });
});
