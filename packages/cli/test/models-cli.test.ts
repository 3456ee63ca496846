import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClientStack, startClientStack } from "./support/client-stack.ts";

const LIFECYCLE = {
  "gamma-3.1-lite": {
    deprecated_at: "2026-01-01T00:00:00Z",
    sunset_at: "2099-01-01T00:00:00Z",
    successor: "gamma-3.1",
  },
};

describe("reelay models against the local stack", () => {
  let t: ClientStack;
  beforeAll(async () => {
    t = await startClientStack(undefined, {
      REELAY_MODEL_ALIASES: JSON.stringify({ "house-video": "os-2" }),
      REELAY_MODEL_LIFECYCLE: JSON.stringify(LIFECYCLE),
    });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  it("the table lists each model with its aliases, deprecation and sunset dates and successor", async () => {
    const result = await t.cli(["models", "--modality", "video"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^MODEL\s+MODALITY\s+ALIASES\s+DEPRECATED\s+SUNSET\s+SUCCESSOR/m);
    expect(result.stdout).toMatch(/^gamma-3\.1\s+video\s+gamma-latest\s+-\s+-\s+-/m);
    expect(result.stdout).toMatch(/^os-2\s+video\s+house-video\s/m);
    expect(result.stdout).toMatch(
      /^gamma-3\.1-lite\s+video\s+-\s+2026-01-01T00:00:00Z\s+2099-01-01T00:00:00Z\s+gamma-3\.1\s/m,
    );
    expect(result.stdout).not.toMatch(/^deltaq2-image/m);
  }, 60_000);

  it("--json prints GET /v1/models' answer, aliases included", async () => {
    const result = await t.cli(["models", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const list = JSON.parse(result.stdout) as {
      aliases: Record<string, string>;
      data: { id: string; successor: string | null }[];
    };
    expect(list.aliases).toMatchObject({ "gamma-latest": "gamma-3.1", "house-video": "os-2" });
    expect(list.data.find((m) => m.id === "gamma-3.1-lite")?.successor).toBe("gamma-3.1");
    expect(list.data.some((m) => m.id === "deltaq2-image")).toBe(true);
  }, 60_000);

  it("a --modality other than video or image is a usage error (exit 2)", async () => {
    const result = await t.cli(["models", "--modality", "audio"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--modality must be video or image");
  });
});
