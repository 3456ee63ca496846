import { expect } from "vitest";
import { validate, type ValidationResult } from "../../../src/domain/validate/validate-request.ts";

const IMG = "https://cdn.example.com/a.png";
const VID = "https://cdn.example.com/a.mp4";
const AUD = "https://cdn.example.com/a.mp3";

export const first = (url = IMG) => ({
  type: "image_url",
  frame_type: "first_frame",
  image_url: { url },
});
export const last = (url = IMG) => ({
  type: "image_url",
  frame_type: "last_frame",
  image_url: { url },
});
export const imageRef = (extra: Record<string, unknown> = {}) => ({
  type: "image_url",
  image_url: { url: IMG },
  ...extra,
});
export const videoRef = (extra: Record<string, unknown> = {}) => ({
  type: "video_url",
  video_url: VID,
  ...extra,
});
export const audioRef = () => ({ type: "audio_url", audio_url: AUD });
export const times = <T>(n: number, make: () => T): T[] => Array.from({ length: n }, make);

export const errorCodes = (r: ValidationResult) => r.errors.map((i) => i.code);
export const warningCodes = (r: ValidationResult) => r.warnings.map((i) => i.code);

/** Validates and asserts the request is refused with `code` (at `path` when given). */
export function expectError(body: unknown, code: string, path?: string): ValidationResult {
  const result = validate(body);
  expect(result.valid).toBe(false);
  expect(result.normalized).toBeNull();
  const match = result.errors.find(
    (issue) => issue.code === code && (path === undefined || issue.path === path),
  );
  expect(
    match,
    `expected error ${code}${path === undefined ? "" : ` at ${path}`}, got ${JSON.stringify(result.errors)}`,
  ).toBeDefined();
  return result;
}

/** Validates and asserts the request goes on with warning `code`. */
export function expectWarning(body: unknown, code: string, path?: string): ValidationResult {
  const result = validate(body);
  expect(result.errors, JSON.stringify(result.errors)).toEqual([]);
  expect(result.valid).toBe(true);
  const match = result.warnings.find(
    (issue) => issue.code === code && (path === undefined || issue.path === path),
  );
  expect(match, `expected warning ${code}, got ${JSON.stringify(result.warnings)}`).toBeDefined();
  return result;
}

/** Validates and asserts the request is accepted with no errors. */
export function expectValid(body: unknown): ValidationResult {
  const result = validate(body);
  expect(result.errors, JSON.stringify(result.errors)).toEqual([]);
  expect(result.valid).toBe(true);
  expect(result.normalized).not.toBeNull();
  return result;
}
