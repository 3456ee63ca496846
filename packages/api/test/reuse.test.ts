import { describe, expect, it } from "vitest";
import { readReuse, readReuseHeader } from "../src/reuse.ts";

describe("reuse's max age", () => {
  it("reads minutes, hours and days as seconds, and false or nothing as no reuse", () => {
    expect(readReuse("30m", "reuse")).toBe(1800);
    expect(readReuse("12h", "reuse")).toBe(43_200);
    expect(readReuse("7d", "reuse")).toBe(604_800);
    expect(readReuse("365d", "reuse")).toBe(365 * 86_400);
    expect(readReuse(false, "reuse")).toBeUndefined();
    expect(readReuse(undefined, "reuse")).toBeUndefined();
    expect(readReuseHeader("false")).toBeUndefined();
    expect(readReuseHeader(" 7D ")).toBe(604_800);
    expect(readReuseHeader(undefined)).toBeUndefined();
  });

  it("refuses anything else as 400 invalid_reuse at the field or header it came from", () => {
    for (const value of ["7", "1w", "0d", "366d", "true", "-1h", "", 7, true, null, "7d7h"]) {
      expect(() => readReuse(value, "reuse"), String(value)).toThrow(
        expect.objectContaining({ code: "invalid_reuse", status: 400, path: "reuse" }),
      );
    }
    expect(() => readReuseHeader("soon")).toThrow(
      expect.objectContaining({ code: "invalid_reuse", path: "X-Reelay-Reuse" }),
    );
  });
});
