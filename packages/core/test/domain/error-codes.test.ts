import { describe, expect, it } from "vitest";
import { ERROR_CODES, type ErrorCode, relayedCode } from "../../src/domain/error-codes.ts";
import { isReelayError, ReelayError } from "../../src/domain/errors.ts";
import { ValidationCodes } from "../../src/domain/validate/codes.ts";

const codes = Object.keys(ERROR_CODES) as ErrorCode[];
const info = (code: ErrorCode): { status?: number; retryable: boolean; seen: readonly string[] } =>
  ERROR_CODES[code];

describe("the error registry", () => {
  it("every code is lower snake case and has a one-line meaning", () => {
    for (const code of codes) {
      expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(ERROR_CODES[code].meaning).toMatch(/^\S.*[.)]$/);
      expect(ERROR_CODES[code].meaning).not.toContain("\n");
    }
  });

  it("only codes the API answers have an HTTP status, and it is a 4xx or 5xx", () => {
    for (const code of codes) {
      const { status, seen } = info(code);
      if (status === undefined) continue;
      expect(seen, code).toContain("api");
      expect(status >= 400 && status <= 599, code).toBe(true);
    }
  });

  it("validate()'s codes are the registry's codes seen in validate, with their meanings", () => {
    const seenInValidate = codes.filter((code) => info(code).seen.includes("validate"));
    expect(Object.keys(ValidationCodes).sort()).toEqual(seenInValidate.sort());
    expect(ValidationCodes.unknown_model).toBe(ERROR_CODES.unknown_model.meaning);
  });
});

describe("ReelayError and the registry", () => {
  it("takes its status and retryable flag from the code's entry when the throw site gives none", () => {
    const notFound = new ReelayError("job_not_found", "No job with id x.");
    expect(notFound.status).toBe(404);
    expect(notFound.retryable).toBe(false);
    const unavailable = new ReelayError("service_unavailable", "down");
    expect([unavailable.status, unavailable.retryable]).toEqual([503, true]);
  });

  it("keeps the throw site's own status and retryable flag", () => {
    const error = new ReelayError("upstream_rejected", "no", { status: 409, retryable: true });
    expect([error.status, error.retryable]).toEqual([409, true]);
  });

  it("a code with no status in the registry has none unless the throw site gives one", () => {
    expect(new ReelayError("invalid_config", "bad").status).toBeUndefined();
    expect(new ReelayError("upstream_timeout", "slow").retryable).toBe(true);
  });

  it("a relayed code keeps what it is given and nothing else", () => {
    const relayed = new ReelayError(relayedCode("content_policy"), "The upstream said no.");
    expect(relayed.code).toBe("content_policy");
    expect([relayed.status, relayed.retryable]).toEqual([undefined, false]);
  });

  it("isReelayError with a code matches that code only", () => {
    const conflict = new ReelayError("job_conflict", "moved on");
    expect(isReelayError(conflict, "job_conflict")).toBe(true);
    expect(isReelayError(conflict, "job_exists")).toBe(false);
    expect(isReelayError(conflict)).toBe(true);
    expect(isReelayError(new Error("job_conflict"), "job_conflict")).toBe(false);
  });
});
