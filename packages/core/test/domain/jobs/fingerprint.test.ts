import { describe, expect, it } from "vitest";
import { fingerprintOf, reuseScopeOf } from "../../../src/domain/jobs/fingerprint.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";

function of(body: Record<string, unknown>, digests?: Map<string, string>): string {
  const v = validate(body);
  if (!v.valid || v.kind === null || v.model === null) throw new Error(JSON.stringify(v.errors));
  return fingerprintOf({ kind: v.kind, model: v.model, normalized: v.normalized }, digests);
}

describe("fingerprintOf", () => {
  it("is the same for keys in another order and for a default spelled out, and differs for any real change", () => {
    const base = of({ model: "gamma-3.1", prompt: "a paper boat" });
    expect(of({ prompt: "a paper boat", model: "gamma-3.1" })).toBe(base);
    // gamma's default duration is 8 s (validation applies it).
    expect(of({ model: "gamma-3.1", prompt: "a paper boat", duration_sec: 8 })).toBe(base);
    expect(of({ model: "gamma-3.1", prompt: "a paper boats" })).not.toBe(base);
    expect(of({ model: "gamma-3.1", prompt: "a paper boat", duration_sec: 4 })).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it("knows a stored material by its sha256, not by the per-job URL it sits at", () => {
    const request = (url: string) => ({
      model: "os-2",
      prompt: "make it dusk",
      duration_sec: 4,
      frame_images: [{ type: "image_url", frame_type: "first_frame", image_url: { url } }],
    });
    const one = "https://bucket.example/uploads/vidtsk_A/ref-1.png?X-Amz-Signature=1";
    const two = "https://bucket.example/uploads/vidtsk_B/ref-1.png?X-Amz-Signature=2";
    const same = of(request(one), new Map([[one, "aa".repeat(32)]]));
    expect(of(request(two), new Map([[two, "aa".repeat(32)]]))).toBe(same);
    expect(of(request(two), new Map([[two, "bb".repeat(32)]]))).not.toBe(same);
    // A linked material (no bytes held) is known by its URL without the presigned query.
    const linked = "https://cdn.example/first.png";
    expect(of(request(`${linked}?X-Amz-Signature=1`))).toBe(
      of(request(`${linked}?X-Amz-Signature=2`)),
    );
  });
});

describe("reuseScopeOf", () => {
  it("is the record's project, else its key's own, else its door", () => {
    expect(reuseScopeOf({ type: "api", apiKeyId: "key_1", project: "films" })).toBe("films");
    expect(reuseScopeOf({ type: "api", apiKeyId: "key_1" })).toBe("key_1");
    expect(reuseScopeOf({ type: "drop" })).toBe("drop");
  });
});
